package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/atomicfile"
	"github.com/seam-rt/seam/demo"
)

func demoCmd() *cobra.Command {
	var htmlFile string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Show the boundary problem and seam's answer on a GPT-2-style model built into the binary",
		Long: "demo shows, on a GPT-2-style model built into the binary: the symbolic size every\n" +
			"Hugging Face model computes first; a naive cut that hands it to a tensor-only\n" +
			"backend, and the runtime refusing that call; what each policy does at the cut;\n" +
			"and the original and lowered programs run on the same input. --html FILE also\n" +
			"writes it as a page with the partition picture.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := demo.Run(cmd.Context())
			if err != nil {
				return err
			}
			if htmlFile != "" {
				if err := atomicfile.Write(htmlFile, func(w io.Writer) error { return r.WriteHTML(w) }); err != nil {
					return err
				}
			}
			if err := r.WriteText(cmd.OutOrStdout()); err != nil {
				return err
			}
			// A run that does not reproduce PyTorch's output fails the command.
			return r.Err()
		},
	}
	cmd.Flags().StringVar(&htmlFile, "html", "", "also write the demo as an HTML page to `FILE`")
	return cmd
}

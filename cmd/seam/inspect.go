package main

import (
	"encoding/json"
	"os"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/inspect"
)

func inspectCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inspect MODEL.pt2",
		Short: "Show a program's inputs, symbols, outputs and ops",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, p, err := openProgram(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			s := inspect.Summarize(p, inspectOptions())
			if asJSON {
				enc := json.NewEncoder(os.Stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(s)
			}
			return s.WriteText(os.Stdout, args[0])
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
}

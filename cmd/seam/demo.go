package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/pt2"
)

func demoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Show seam on the GPT-2-style model built into the binary",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := fixtures.Demo.ReadFile(fixtures.DemoModel)
			if err != nil {
				return err
			}
			a, err := pt2.ReadBytes(data, "gpt2_tiny.pt2")
			if err != nil {
				return err
			}
			p, err := a.Program()
			if err != nil {
				return err
			}
			return inspect.Summarize(p, inspectOptions()).WriteText(os.Stdout, "gpt2_tiny.pt2 (built in)")
		},
	}
}

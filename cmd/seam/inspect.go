package main

import (
	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/pt2"
)

func inspectCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inspect MODEL.pt2",
		Short: "Show a program's inputs, symbols, outputs and ops",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := pt2.Open(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			l, err := a.Lowered()
			if err != nil {
				return &pt2.Error{File: args[0], Err: err}
			}
			s := inspect.SummarizeLowered(l, inspectOptions())
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), s)
			}
			return s.WriteText(cmd.OutOrStdout(), args[0])
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
}

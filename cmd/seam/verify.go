package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/verify"
)

func verifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify MODEL.pt2",
		Short: "Check a program (and its lowered modules) against the export-IR rules",
		Long: "verify reads every byte of the archive and checks it against its record's CRC,\n" +
			"then prints every violation, one per line, and exits 1 if there is any;\n" +
			"otherwise it prints one line saying OK. In a lowered program it checks the\n" +
			"parent, every lowered module, and each module against its backend's contract\n" +
			"(the registered backend's: a recorded contract that differs is a violation).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := pt2.Open(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			// Every byte, against its record's CRC, before any rule.
			if err := a.CheckBytes(); err != nil {
				fmt.Fprintln(cmd.OutOrStdout(), err)
				return exitError{1}
			}
			l, err := a.Lowered()
			if err != nil {
				fmt.Fprintf(cmd.OutOrStdout(), "FAIL: %s: %v\n", args[0], err)
				return exitError{1}
			}
			vs := verify.Lowered(l)
			errs := verify.Errors(vs)
			for _, v := range vs {
				fmt.Fprintln(cmd.OutOrStdout(), v)
			}
			if len(errs) > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "FAIL: %s: %d violations\n", args[0], len(errs))
				return exitError{1}
			}
			warn := ""
			if n := len(vs) - len(errs); n > 0 {
				warn = fmt.Sprintf(" (%d warnings)", n)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "OK: %s verifies clean%s\n", args[0], warn)
			return nil
		},
	}
}

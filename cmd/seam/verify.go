package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/verify"
)

// verifyReport is what --json prints: every violation, and the verdict.
type verifyReport struct {
	File string `json:"file"`
	// OK: no violation other than warnings.
	OK         bool              `json:"ok"`
	Errors     int               `json:"errors"`
	Warnings   int               `json:"warnings"`
	Violations []verifyViolation `json:"violations"`
}

type verifyViolation struct {
	// Rule names the rule broken ("bytes" for a record that does not
	// match its CRC or size).
	Rule    string `json:"rule"`
	Graph   string `json:"graph,omitempty"`
	Node    string `json:"node,omitempty"`
	Message string `json:"message"`
	Warning bool   `json:"warning,omitempty"`
}

func verifyCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify MODEL.pt2",
		Short: "Check a program (and its lowered modules) against the export-IR rules",
		Long: "verify reads every byte of the archive and checks it against its record's CRC,\n" +
			"then prints every violation, one per line, and exits 1 if there is any;\n" +
			"otherwise it prints one line saying OK. In a lowered program it checks the\n" +
			"parent, every lowered module, and each module against its backend's contract\n" +
			"(the registered backend's: a recorded contract that differs is a violation).\n" +
			"An archive it cannot read at all exits 2. --json prints one JSON document.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := pt2.Open(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			rep := verifyReport{File: args[0], Violations: []verifyViolation{}}
			var lines []string
			// Every byte, against its record's CRC, before any rule.
			if err := a.CheckBytes(); err != nil {
				rep.Errors = 1
				rep.Violations = append(rep.Violations, verifyViolation{Rule: "bytes", Message: err.Error()})
				lines = append(lines, err.Error())
			} else if l, err := a.Lowered(); err != nil {
				rep.Errors = 1
				rep.Violations = append(rep.Violations, verifyViolation{Rule: "read", Message: err.Error()})
				lines = append(lines, fmt.Sprintf("FAIL: %s: %v", args[0], err))
			} else {
				for _, v := range verify.Lowered(l) {
					rep.Violations = append(rep.Violations, verifyViolation{Rule: string(v.Rule), Graph: v.Graph, Node: v.Node, Message: v.Msg, Warning: v.Warning})
					lines = append(lines, v.String())
					if v.Warning {
						rep.Warnings++
					} else {
						rep.Errors++
					}
				}
			}
			rep.OK = rep.Errors == 0
			w := cmd.OutOrStdout()
			switch {
			case asJSON:
				if err := writeJSON(w, rep); err != nil {
					return err
				}
			default:
				for _, l := range lines {
					fmt.Fprintln(w, l)
				}
				if rep.OK {
					warn := ""
					if rep.Warnings > 0 {
						warn = fmt.Sprintf(" (%d warnings)", rep.Warnings)
					}
					fmt.Fprintf(w, "OK: %s verifies clean%s\n", args[0], warn)
				} else if r := rep.Violations[0].Rule; r != "bytes" && r != "read" {
					fmt.Fprintf(w, "FAIL: %s: %d violations\n", args[0], rep.Errors)
				}
			}
			if !rep.OK {
				return exitError{exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the violations and the verdict as one JSON document")
	return cmd
}

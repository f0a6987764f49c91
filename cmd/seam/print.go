package main

import (
	"os"

	"github.com/spf13/cobra"
)

func printCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "print MODEL.pt2",
		Short: "Print a program in the readable form print_readable() gives",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, p, err := openProgram(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			return printer().Fprint(os.Stdout, p)
		},
	}
}

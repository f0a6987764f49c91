package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/limits"
)

// addLimitFlag gives every command --limit NAME=VALUE, which raises (or
// lowers) one of the bounds package limits puts on what an input may
// make seam do.
func addLimitFlag(root *cobra.Command) {
	var sets []string
	var names []string
	for _, l := range limits.All() {
		def := fmt.Sprint(l.Default())
		if l.Bytes {
			def = limits.FormatBytes(l.Default())
		}
		names = append(names, fmt.Sprintf("  %-14s %s (default %s; %s)", l.Name, l.Help(), def, l.Env()))
	}
	root.PersistentFlags().StringArrayVar(&sets, "limit", nil,
		"raise a bound on what an input may make seam do, NAME=VALUE (repeatable); the limits:\n"+strings.Join(names, "\n"))
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := limits.EnvErrors(); err != nil {
			return err
		}
		for _, s := range sets {
			name, value, ok := strings.Cut(s, "=")
			if !ok {
				return fmt.Errorf("--limit %s: want NAME=VALUE", s)
			}
			if err := limits.Set(name, value); err != nil {
				return fmt.Errorf("--limit: %w", err)
			}
		}
		return nil
	}
}

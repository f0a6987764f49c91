// Command seam reads programs exported with torch.export, shows what a
// backend will receive, cuts them into delegate partitions, lowers them
// under a backend's contract, and runs them.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// exitError carries an exit status without another message: the command
// has already said what went wrong (verify's violations, run's mismatches).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	root := &cobra.Command{
		Use:           "seam",
		Short:         "Read, partition, lower and run torch.export programs (.pt2)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(inspectCmd(), printCmd(), demoCmd())
	if err := root.Execute(); err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "seam:", err)
		os.Exit(1)
	}
}

// Command seam reads programs exported with torch.export, shows what a
// backend will receive, cuts them into delegate partitions, lowers them
// under a backend's contract, and runs them.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/termsafe"

	// The onnxruntime backend registers itself as a built-in.
	_ "github.com/seam-rt/seam/onnx/ortbackend"
)

func main() {
	// What seam prints holds names from the programs it reads: whatever in
	// them a terminal would act on is escaped (package termsafe).
	stdout, stderr := termsafe.NewWriter(os.Stdout), termsafe.NewWriter(os.Stderr)
	root := newRoot()
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	stdout.Flush()
	if err != nil {
		var ee exitError
		if !errors.As(err, &ee) {
			fmt.Fprintln(stderr, "seam:", err)
		}
	}
	stderr.Flush()
	os.Exit(exitStatus(err))
}

// newRoot builds the command tree (tests run it in process).
func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "seam",
		Short: "Read, partition, lower and run torch.export programs (.pt2)",
		Long: "seam reads programs exported with torch.export (.pt2), shows what a backend will\n" +
			"receive, cuts them into delegate partitions, lowers them under a backend's contract,\n" +
			"and runs them.\n\n" +
			"Exit status, for every command: 0 success; 1 the check itself failed (verify found\n" +
			"violations, run's outputs did not match, a bench row failed); 2 bad usage or bad\n" +
			"input (an unknown flag, a missing file, a malformed archive or profile); 3 a bug in\n" +
			"seam. With --json a command prints exactly one JSON document on stdout (statuses 0\n" +
			"and 1); warnings and errors go to stderr.",
		SilenceUsage:  true,
		SilenceErrors: true,
		// Version turns on --version; the template prints the build
		// information, not this field.
		Version: "from build information",
	}
	info, ok := debug.ReadBuildInfo()
	root.SetVersionTemplate(versionText(info, ok))
	addLimitFlag(root)
	root.AddCommand(
		inspectCmd(),
		printCmd(),
		verifyCmd(),
		backendsCmd(),
		partitionCmd(),
		lowerCmd(),
		specializeCmd(),
		runCmd(),
		exportCmd(),
		benchCmd(),
		demoCmd(),
		explainCmd(),
	)
	guard(root)
	return root
}

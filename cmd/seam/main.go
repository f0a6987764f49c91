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

// exitError carries an exit status without another message: the command
// has already said what went wrong (verify's violations, run's mismatches).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	// What seam prints holds names from the programs it reads: whatever in
	// them a terminal would act on is escaped (package termsafe).
	stdout, stderr := termsafe.NewWriter(os.Stdout), termsafe.NewWriter(os.Stderr)
	root := newRoot()
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	stdout.Flush()
	stderr.Flush()
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		fmt.Fprintln(stderr, "seam:", err)
		stderr.Flush()
		os.Exit(1)
	}
}

// newRoot builds the command tree (tests run it in process).
func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "seam",
		Short:         "Read, partition, lower and run torch.export programs (.pt2)",
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
	)
	return root
}

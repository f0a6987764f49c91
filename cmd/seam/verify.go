package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/verify"
)

func verifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify MODEL.pt2",
		Short: "Check a program (and its lowered modules) against the export-IR rules",
		Long: "verify prints every violation, one per line, and exits 1 if there is any;\n" +
			"otherwise it prints one line saying OK. In a lowered program it checks the\n" +
			"parent, every lowered module, and each module against its backend's contract.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, err := pt2.Open(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			vs := verifyArchive(a)
			errs := verify.Errors(vs)
			for _, v := range vs {
				fmt.Fprintln(cmd.OutOrStdout(), v)
			}
			if len(errs) > 0 {
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

// verifyArchive verifies every program of an archive; modules are checked
// against their delegate records' backends where seam knows them.
func verifyArchive(a *pt2.Archive) []verify.Violation {
	modules := map[string]*ir.Program{}
	for name, p := range a.Programs {
		if name != pt2.MainModel {
			modules[name] = p
		}
	}
	var out []verify.Violation
	for _, name := range a.ModelNames() {
		vs := verify.Program(a.Programs[name], verify.Options{Modules: modules})
		if name != pt2.MainModel {
			if d, ok := a.Delegates[name]; ok {
				if prof, err := backend.Resolve(d.Backend); err == nil {
					vs = append(vs, verify.Contract(a.Programs[name], prof)...)
				}
			}
			for i := range vs {
				vs[i].Graph = joinPath(name, vs[i].Graph)
			}
		}
		out = append(out, vs...)
	}
	return out
}

func joinPath(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}

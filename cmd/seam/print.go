package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/sym"
)

func printCmd() *cobra.Command {
	var source bool
	cmd := &cobra.Command{
		Use:   "print MODEL.pt2",
		Short: "Print a program in the readable form print_readable() gives",
		Long: "print writes the program as torch.fx's print_readable() does: a class per graph,\n" +
			"one line per node with its type annotation. --source adds the comments\n" +
			"print_readable() puts above the nodes: the line of Python each came from\n" +
			"(`# File: ...`), from the stack traces export keeps in node metadata.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			a, p, err := openProgram(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			pr := printer()
			pr.Source = source
			if err := pr.Fprint(cmd.OutOrStdout(), p); err != nil {
				return err
			}
			// A lowered program's modules follow, each as its own class,
			// and its specializations' parents.
			bind := map[string]string{}
			for _, s := range a.Specializations {
				bind[s.Program] = sym.Bindings(s.Bind).String()
			}
			for _, name := range a.ModelNames() {
				if name == pt2.MainModel {
					continue
				}
				what := "lowered module, no delegate record"
				if d, ok := a.Delegates[name]; ok {
					what = "lowered module, backend " + d.Backend
				}
				if b, ok := bind[name]; ok {
					what = "the program at " + b + " (a specialization)"
				}
				fmt.Fprintf(cmd.OutOrStdout(), "\n\n# %s: %s\n", name, what)
				if err := pr.FprintClass(cmd.OutOrStdout(), name, a.Programs[name]); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&source, "source", false, "keep the `# File:` comments print_readable() shows above nodes")
	return cmd
}

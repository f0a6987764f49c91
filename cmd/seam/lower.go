package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/pt2"
)

func lowerCmd() *cobra.Command {
	var backendName, policyName, out string
	var asJSON, explain bool
	var groups, specs []string
	cmd := &cobra.Command{
		Use:   "lower MODEL.pt2 --backend NAME|FILE[,NAME|FILE...] -o OUT.pt2",
		Short: "Lower partitions into delegate calls that obey the backend's contract",
		Long: "lower proposes partitions for the backend, turns each into a lowered module whose\n" +
			"placeholders the backend's contract accepts, and writes the program with its\n" +
			"modules as a PT2 archive. It prints the cut report: every symbolic value that\n" +
			"crossed a cut, its expression, where it went and the policy that handled it.\n\n" +
			"Policies: auto (the profile's policy_order, by default rederive, hoist, pass, box,\n" +
			"exclude), rederive, hoist, pass, box, exclude, fail; each hands a value the contract\n" +
			"takes over the way it says, except fail, which takes only plain scalars.\n" +
			"--group keeps nodes together in one module (or none of them delegated), as\n" +
			"partition --group does; the report says what became of each group.\n\n" +
			"Lowering goes in rounds: when a policy must leave nodes to the parent, the\n" +
			"partitions are proposed again without them. --explain prints each round, and\n" +
			"--json lists them as \"rounds\".\n\n" +
			"--specialize s53=16,32,128 (one flag per symbol) lowers the program once more at\n" +
			"each binding of the cross product of the values listed, with its sizes constant\n" +
			"(as seam specialize writes it), for backends that compile for static shapes. The\n" +
			"lowered program dispatches at run time on the values its inputs bind: a binding in\n" +
			"the set runs its specialization's delegate calls, any other the general path (the\n" +
			"program lowered as it is), and seam run says which. Identical modules are stored once.\n\n" +

			"Several backends, separated by commas, are tried in priority order (as ONNX\n" +
			"Runtime tries its execution providers): the first takes the partitions it can,\n" +
			"the next partitions what remains in the parent, and so on; the report says\n" +
			"which backend took which nodes.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			profs, err := backend.ResolveList(backendName)
			if err != nil {
				return err
			}
			policy, err := lower.ParsePolicy(policyName)
			if err != nil {
				return err
			}
			a, err := pt2.Open(args[0])
			if err != nil {
				return err
			}
			defer a.Close()
			in, err := a.Lowered()
			if err != nil {
				return &pt2.Error{File: args[0], Err: err}
			}
			if err := checkLowerInput(args[0], in); err != nil {
				return err
			}
			names := make([]string, len(profs))
			for i, prof := range profs {
				warnUnmatched(cmd, prof, in.Main, args[0])
				names[i] = prof.Name
			}
			if out == "" {
				warnf(cmd, "no -o OUT.pt2: the cut report only, nothing written")
			}
			opt := delegate.Options{Policy: policy}
			for _, g := range groups {
				opt.Groups = append(opt.Groups, strings.Split(g, ","))
			}
			if len(specs) > 0 {
				if len(profs) > 1 {
					return fmt.Errorf("--specialize lowers for one backend, not the list %s", backendName)
				}
				return lowerSpecialized(cmd, args[0], a, in.Main, profs[0], opt, specs, out, asJSON, explain)
			}
			res, err := delegate.Backends(in.Main, profs, opt)
			if err != nil {
				return err
			}
			if out != "" {
				if err := pt2.WriteFile(out, pt2.FromLowered(res.Lowered, a)); err != nil {
					return err
				}
			}
			rep := res.Report(inspectOptions(), strings.Join(names, ","), policy)
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			if explain {
				if err := rep.WriteRounds(cmd.OutOrStdout()); err != nil {
					return err
				}
			}
			if err := rep.WriteText(cmd.OutOrStdout()); err != nil {
				return err
			}
			if out != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "\nwrote %s\n", out)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&backendName, "backend", "", "built-in profile name or profile file, or several separated by commas in priority order (required)")
	cmd.Flags().StringVar(&policyName, "policy", "auto", "policy for symbolic values crossing a cut")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the lowered program to this .pt2 file")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON (with the rounds)")
	cmd.Flags().BoolVar(&explain, "explain", false, "print each round of proposals first: what it delegated, and what lowering excluded from it and why")
	cmd.Flags().StringArrayVar(&groups, "group", nil, "node names (comma-separated) that must stay together in one module, or none of them delegated; repeatable")
	cmd.Flags().StringArrayVar(&specs, "specialize", nil, "SYMBOL=V1,V2,...: lower once more at each of these values (the cross product over the flags), dispatched at run time; repeatable, one flag per symbol")
	_ = cmd.MarkFlagRequired("backend")
	return cmd
}

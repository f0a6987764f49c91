package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/sym"
)

// maxSpecializations bounds the cross product --specialize asks for: each
// binding is one more lowering and one more program in the archive.
const maxSpecializations = 1024

// lowerSpecialized is seam lower --specialize: the general path and one
// lowering per binding, in one archive that dispatches between them.
func lowerSpecialized(cmd *cobra.Command, file string, a *pt2.Archive, p *ir.Program, prof *backend.Profile,
	opt delegate.Options, specs []string, out string, asJSON, explain bool) error {
	binds, err := parseSpecializations(specs)
	if err != nil {
		return err
	}
	if prof.DynamicShapes {
		warnf(cmd, "%s takes dynamic shapes: specializing gains it only what folding sizes does", prof.Name)
	}
	res, err := delegate.Specialize(p, prof, opt, binds)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if out != "" {
		if err := pt2.WriteFile(out, pt2.FromLowered(res.Lowered, a)); err != nil {
			return err
		}
	}
	policy := opt.Policy
	rep := res.Report(inspectOptions(), prof.Name, policy)
	w := cmd.OutOrStdout()
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if explain {
		if err := rep.WriteRounds(w); err != nil {
			return err
		}
		for _, s := range rep.Specializations {
			fmt.Fprintf(w, "specialization %s:\n", s.Bind)
			r := *rep.Report
			r.Rounds = s.Rounds
			if err := r.WriteRounds(w); err != nil {
				return err
			}
		}
	}
	if err := rep.WriteText(w); err != nil {
		return err
	}
	if out != "" {
		fmt.Fprintf(w, "\nwrote %s\n", out)
	}
	return nil
}

// parseSpecializations reads the --specialize flags, SYMBOL=V1,V2,...
// each, into the cross product of their values, the first flag's symbol
// varying slowest.
func parseSpecializations(flags []string) ([]sym.Bindings, error) {
	type axis struct {
		name   string
		values []int64
	}
	var axes []axis
	seen := map[string]bool{}
	total := 1
	for _, text := range flags {
		name, list, ok := strings.Cut(text, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.TrimSpace(list) == "" {
			return nil, fmt.Errorf("--specialize %q: want SYMBOL=V1,V2,..., such as s53=16,32,128", text)
		}
		if seen[name] {
			return nil, fmt.Errorf("--specialize %q: %s is given twice; list all its values in one flag", text, name)
		}
		seen[name] = true
		ax := axis{name: name}
		have := map[int64]bool{}
		for _, v := range strings.Split(list, ",") {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("--specialize %q: %q is not an integer", text, strings.TrimSpace(v))
			}
			if !have[n] {
				have[n] = true
				ax.values = append(ax.values, n)
			}
		}
		if total *= len(ax.values); total > maxSpecializations {
			return nil, fmt.Errorf("--specialize: more than %d specializations asked for; each is one more lowering and program", maxSpecializations)
		}
		axes = append(axes, ax)
	}
	binds := []sym.Bindings{{}}
	for _, ax := range axes {
		var next []sym.Bindings
		for _, b := range binds {
			for _, v := range ax.values {
				c := sym.Bindings{ax.name: v}
				for k, x := range b {
					c[k] = x
				}
				next = append(next, c)
			}
		}
		binds = next
	}
	return binds, nil
}

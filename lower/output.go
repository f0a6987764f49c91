package lower

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/verify"
)

// Report is what `seam lower --json` prints.
type Report struct {
	// Backend names the backend, or the backends in priority order
	// separated by commas (delegate.Backends).
	Backend string `json:"backend"`
	Policy  string `json:"policy"`
	// Backends says how much of the program each backend took, in
	// priority order.
	Backends  []BackendShare `json:"backends"`
	Modules   []ModuleReport `json:"modules"`
	Crossings []Crossing     `json:"crossings"`
	Dropped   []string       `json:"dropped"`
	Removed   []string       `json:"removed"`
	Groups    []Group        `json:"groups,omitempty"`
	// Rounds are the proposals lowering went through, the lowered one
	// last (seam lower --explain prints them).
	Rounds []Round `json:"rounds"`
}

// BackendShare is what one backend took: its modules and the nodes in
// them (Module.NodeCount).
type BackendShare struct {
	Backend string   `json:"backend"`
	Modules []string `json:"modules"`
	Nodes   int      `json:"nodes"`
}

// ModuleReport describes one lowered module's inputs and outputs.
type ModuleReport struct {
	Name    string          `json:"name"`
	Backend string          `json:"backend"`
	Graph   string          `json:"graph,omitempty"`
	Nodes   []string        `json:"nodes"`
	Inputs  []inspect.Value `json:"inputs"`
	Outputs []inspect.Value `json:"outputs"`
	// Sizes says what the module's inputs tell about its symbols: the
	// symbols they determine, and the sizes it is given only as wholes
	// (s0*s1 with neither s0 nor s1), each with its range.
	Sizes []GivenSize `json:"sizes"`
}

// GivenSize is a symbol a module's inputs determine, or a size they give
// it only as a whole.
type GivenSize struct {
	Expr  string `json:"expr"`
	Range string `json:"range"`
	// Whole: the module is given the size, not its symbols, and needs no
	// more (verify checks that no size it makes needs them on their own).
	Whole bool `json:"whole"`
	// From names the inputs that carry it (`x dim 0`, or a SymInt input).
	From []string `json:"from"`
}

// Report summarises the result for people and scripts.
func (r *Result) Report(opt inspect.Options, backendName string, policy Policy) *Report {
	rep := &Report{Backend: backendName, Policy: policy.String(), Modules: []ModuleReport{},
		Crossings: r.Crossings, Dropped: r.Dropped, Removed: r.Removed, Groups: r.Groups, Rounds: r.Rounds}
	if rep.Crossings == nil {
		rep.Crossings = []Crossing{}
	}
	if rep.Dropped == nil {
		rep.Dropped = []string{}
	}
	if rep.Removed == nil {
		rep.Removed = []string{}
	}
	if rep.Rounds == nil {
		rep.Rounds = []Round{}
	}
	for _, name := range strings.Split(backendName, ",") {
		rep.Backends = append(rep.Backends, BackendShare{Backend: name, Modules: []string{}})
	}
	for _, m := range r.Modules {
		i := slices.IndexFunc(rep.Backends, func(b BackendShare) bool { return b.Backend == m.Delegate.Backend })
		if i < 0 {
			i = len(rep.Backends)
			rep.Backends = append(rep.Backends, BackendShare{Backend: m.Delegate.Backend})
		}
		rep.Backends[i].Modules = append(rep.Backends[i].Modules, m.Name)
		rep.Backends[i].Nodes += m.NodeCount()
		s := inspect.Summarize(m.Program, opt)
		rep.Modules = append(rep.Modules, ModuleReport{
			Name: m.Name, Backend: m.Delegate.Backend, Graph: m.Graph, Nodes: m.Nodes,
			Inputs: s.Inputs, Outputs: s.Outputs, Sizes: givenSizes(m.Program),
		})
	}
	return rep
}

// givenSizes describes what a module's user inputs tell about its
// symbols (verify.GivenSizes, sym.Know): each symbol they determine, in
// the order determined, and each size they give only as a whole.
func givenSizes(p *ir.Program) []GivenSize {
	var users []string
	for _, s := range p.UserInputs() {
		users = append(users, s.PlaceholderName())
	}
	given := verify.GivenSizes(p.Graph, users, nil)
	ranges := verify.Ranges(p)
	know := sym.Know(verify.Exprs(given), ranges)
	out := []GivenSize{}
	for _, name := range know.Symbols() {
		gs := GivenSize{Expr: name, Range: sym.Sym(name).Range(ranges).String(), From: []string{}}
		for _, g := range given {
			if slices.Contains(g.Expr.Symbols(), name) {
				gs.From = append(gs.From, g.String())
				break
			}
		}
		out = append(out, gs)
	}
	index := map[string]int{}
	for _, i := range know.Units() {
		g := given[i]
		text := g.Expr.String()
		if j, ok := index[text]; ok {
			out[j].From = append(out[j].From, g.String())
			continue
		}
		index[text] = len(out)
		out = append(out, GivenSize{Expr: text, Range: g.Expr.Range(ranges).String(), Whole: true, From: []string{g.String()}})
	}
	return out
}

// WriteText prints the cut report.
func (rep *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "lowered for %s (policy %s): %d modules\n", rep.Backend, rep.Policy, len(rep.Modules))
	several := len(rep.Backends) > 1
	if several {
		for _, b := range rep.Backends {
			fmt.Fprintf(tw, "  %s:\t%d nodes in %d modules\t%s\n", b.Backend, b.Nodes, len(b.Modules), listOrDash(b.Modules))
		}
	}
	for _, m := range rep.Modules {
		where := ""
		if m.Graph != "" {
			where = " in " + m.Graph
		}
		if several {
			where += " (" + m.Backend + ")"
		}
		fmt.Fprintf(tw, "\n%s%s: %d nodes, %s\n", m.Name, where, len(m.Nodes), nodeSpan(m.Nodes))
		// Owned weights are compiled in, not passed: one line says which.
		owned := map[string]int{}
		var kinds []string
		for _, v := range m.Inputs {
			if v.Kind != "user_input" {
				if owned[v.Kind] == 0 {
					kinds = append(kinds, v.Kind)
				}
				owned[v.Kind]++
			}
		}
		if len(kinds) > 0 {
			var parts []string
			for _, k := range kinds {
				plural := "s"
				if owned[k] == 1 {
					plural = ""
				}
				parts = append(parts, fmt.Sprintf("%d %s%s", owned[k], k, plural))
			}
			fmt.Fprintf(tw, "  owns %s\n", strings.Join(parts, ", "))
		}
		fmt.Fprintln(tw, "  inputs:")
		for _, v := range m.Inputs {
			if v.Kind == "user_input" {
				fmt.Fprintf(tw, "    %s\t%s\t%s\n", v.Name, v.Type, v.Annotation)
			}
		}
		var syms, wholes []string
		for _, g := range m.Sizes {
			text := fmt.Sprintf("%s in %s (%s)", g.Expr, g.Range, strings.Join(g.From, ", "))
			if g.Whole {
				wholes = append(wholes, text)
			} else {
				syms = append(syms, text)
			}
		}
		if len(syms) > 0 {
			fmt.Fprintf(tw, "  symbols: %s\n", strings.Join(syms, "; "))
		}
		if len(wholes) > 0 {
			fmt.Fprintf(tw, "  sizes given as wholes: %s\n", strings.Join(wholes, "; "))
		}
		fmt.Fprintln(tw, "  outputs:")
		for _, v := range m.Outputs {
			kind := ""
			if v.Kind != "user_output" {
				kind = " (" + v.Kind + " " + v.Target + ")"
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s%s\n", v.Name, v.Type, v.Annotation, kind)
		}
	}
	if len(rep.Crossings) == 0 {
		fmt.Fprintln(tw, "\nno symbolic value crosses a cut")
	} else {
		fmt.Fprintln(tw, "\nsymbolic values crossing a cut:")
		fmt.Fprintln(tw, "  value\texpr\tfrom\tto\tpolicy\tadded\tdropped")
		for _, c := range rep.Crossings {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Value, c.Expr, c.From, c.To, c.Policy,
				listOrDash(c.Added), listOrDash(c.Dropped))
		}
	}
	if len(rep.Dropped) > 0 {
		fmt.Fprintf(tw, "\nleft to the parent by the policy: %s\n", strings.Join(rep.Dropped, ", "))
	}
	if len(rep.Removed) > 0 {
		fmt.Fprintf(tw, "no longer needed in the parent: %s\n", strings.Join(rep.Removed, ", "))
	}
	if len(rep.Groups) > 0 {
		fmt.Fprintln(tw, "\ngroups:")
		for _, g := range rep.Groups {
			if g.Kept {
				fmt.Fprintf(tw, "  %s: kept together in %s\n", strings.Join(g.Nodes, ", "), g.Module)
			} else {
				fmt.Fprintf(tw, "  %s: not kept: %s\n", strings.Join(g.Nodes, ", "), g.Reason)
			}
		}
	}
	return tw.Flush()
}

// WriteRounds prints the rounds of proposals: what each delegated, and
// what lowering excluded from it and why.
func (rep *Report) WriteRounds(w io.Writer) error {
	bw := &errWriter{w: w}
	for i, r := range rep.Rounds {
		bw.printf("round %d (%s): %d partitions, %d nodes delegated", i+1, r.Backend, r.Partitions, r.Delegated)
		if len(r.Excluded) == 0 {
			bw.printf("; lowered as proposed\n")
			continue
		}
		n := 0
		for _, e := range r.Excluded {
			n += len(e.Dropped)
		}
		bw.printf("; %d nodes excluded:\n", n)
		for _, e := range r.Excluded {
			where := ""
			if e.Graph != "" {
				where = " in " + e.Graph
			}
			why := append(slices.Clone(e.Why), e.Detail)
			bw.printf("  %s%s: %s %s (%s) from %s to %s: %s\n", listOrDash(e.Dropped), where,
				e.Type, e.Value, e.Expr, e.From, e.To, strings.Join(why, "; "))
		}
	}
	if len(rep.Rounds) > 0 {
		bw.printf("\n")
	}
	return bw.err
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

func nodeSpan(nodes []string) string {
	switch len(nodes) {
	case 0:
		return "none"
	case 1:
		return nodes[0]
	}
	return nodes[0] + " .. " + nodes[len(nodes)-1]
}

func listOrDash(xs []string) string {
	if len(xs) == 0 {
		return "-"
	}
	const max = 4
	if len(xs) > max {
		return strings.Join(xs[:max], ", ") + fmt.Sprintf(" (+%d)", len(xs)-max)
	}
	return strings.Join(xs, ", ")
}

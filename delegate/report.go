package delegate

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/sym"
)

// Report is what `seam lower --specialize` prints: the general path's cut
// report, how much of the program it delegates, and the dispatch table,
// one entry per specialization.
type Report struct {
	*lower.Report
	// Delegated of Nodes nodes are delegated on the general path.
	Delegated       int                    `json:"delegated"`
	Nodes           int                    `json:"nodes"`
	Specializations []SpecializationReport `json:"specializations"`
}

// SpecializationReport is one entry of the dispatch table: the binding,
// and what its lowering delegates.
type SpecializationReport struct {
	Bind sym.Bindings `json:"bind"`
	// Delegated of Nodes nodes of the specialized program are delegated.
	Delegated int                  `json:"delegated"`
	Nodes     int                  `json:"nodes"`
	Modules   []lower.ModuleReport `json:"modules"`
	// Reused names the modules stored once for this specialization and an
	// earlier one or the general path.
	Reused    []string         `json:"reused"`
	Crossings []lower.Crossing `json:"crossings"`
	// Groups says what became of each group (without the nodes
	// specializing removed).
	Groups []lower.Group `json:"groups,omitempty"`
	Rounds []lower.Round `json:"rounds"`
}

// Report summarises the lowerings for people and scripts.
func (s *Specialized) Report(opt inspect.Options, backendName string, policy lower.Policy) *Report {
	rep := &Report{Report: s.General.Report(opt, backendName, policy), Specializations: []SpecializationReport{}}
	rep.Delegated, rep.Nodes = delegated(s.General), countNodes(s.Program)
	for _, sp := range s.Specializations {
		r := sp.Result.Report(opt, backendName, policy)
		sr := SpecializationReport{Bind: sp.Bind, Delegated: delegated(sp.Result), Nodes: countNodes(sp.Specialized.Program),
			Modules: r.Modules, Reused: []string{}, Crossings: r.Crossings, Groups: r.Groups, Rounds: r.Rounds}
		for _, from := range ir.SortedKeys(sp.Reused) {
			if name := sp.Reused[from]; !slices.Contains(sr.Reused, name) {
				sr.Reused = append(sr.Reused, name)
			}
		}
		rep.Specializations = append(rep.Specializations, sr)
	}
	return rep
}

// delegated counts the nodes a lowering's modules took over.
func delegated(r *lower.Result) int {
	n := 0
	for _, m := range r.Modules {
		n += len(m.Nodes)
	}
	return n
}

// countNodes counts a program's nodes, nested graphs' included.
func countNodes(p *ir.Program) int {
	n := 0
	_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
		n += len(g.Nodes)
		return nil
	})
	return n
}

// WriteText prints the general path's cut report, then the dispatch table.
func (rep *Report) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintln(w, "general path (a binding no specialization has):"); err != nil {
		return err
	}
	if err := rep.Report.WriteText(w); err != nil {
		return err
	}
	bw := &strings.Builder{}
	fmt.Fprintf(bw, "\ndispatch (%d specializations):\n", len(rep.Specializations))
	stored := map[string]bool{}
	for _, s := range rep.Specializations {
		fmt.Fprintf(bw, "  %s: %d of %d nodes delegated in %s\n", s.Bind, s.Delegated, s.Nodes, moduleList(s.Modules, s.Reused))
		for _, m := range s.Modules {
			stored[m.Name] = true
		}
	}
	for _, m := range rep.Modules {
		stored[m.Name] = true
	}
	fmt.Fprintf(bw, "  otherwise: the general path, %d of %d nodes delegated in %s\n", rep.Delegated, rep.Nodes, moduleList(rep.Modules, nil))
	fmt.Fprintf(bw, "%d modules stored\n", len(stored))
	_, err := io.WriteString(w, bw.String())
	return err
}

// moduleList names modules with their node counts, marking those stored
// once for several lowerings.
func moduleList(ms []lower.ModuleReport, reused []string) string {
	if len(ms) == 0 {
		return "no module"
	}
	parts := make([]string, len(ms))
	for i, m := range ms {
		shared := ""
		if slices.Contains(reused, m.Name) {
			shared = ", reused"
		}
		parts[i] = fmt.Sprintf("%s (%d nodes%s)", m.Name, len(m.Nodes), shared)
	}
	return strings.Join(parts, ", ")
}

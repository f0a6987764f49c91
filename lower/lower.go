package lower

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/sym"
)

// Proposer partitions a graph for a profile, leaving out the nodes
// opt.Exclude names and keeping opt.Groups together (partition.ProposeGraph).
type Proposer func(g *ir.Graph, p *backend.Profile, opt partition.GraphOptions) (*partition.Plan, error)

// Options configure lowering.
type Options struct {
	Policy Policy
	// Groups are node names of the top-level graph that must end up in one
	// lowered module together, or none of them delegated (as `seam
	// partition --group` asks); Result.Groups says what became of each.
	Groups [][]string
	// Propose partitions each graph; nil uses partition.ProposeGraph.
	Propose Proposer
}

// Module is a lowered module: a partition as a program of its own, and the
// backend that runs it.
type Module struct {
	Name           string
	Backend        string
	CompileOptions map[string]string
	Program        *ir.Program
	// Nodes names the nodes of the original graph the module took over.
	Nodes []string
	// Graph names the graph the partition was cut from: "" for the top
	// level, else the path of a nested graph (`cond.true_graph_0`).
	Graph string
	// Profile is the backend's contract in its file form (JSON).
	Profile []byte
}

// Crossing reports one symbolic value that crossed a cut and what was
// done about it.
type Crossing struct {
	Value string `json:"value"`
	// Type is sym_int, sym_bool or sym_float.
	Type string `json:"type"`
	// Expr is the value's expression as annotations print it (`s53`).
	Expr string `json:"expr"`
	// From and To name the regions: a lowered module, or "parent".
	From   string `json:"from"`
	To     string `json:"to"`
	Policy string `json:"policy"`
	// Added names the nodes lowering created for this crossing (in the
	// module or the parent); Dropped the nodes excluded from a partition.
	Added   []string `json:"added"`
	Dropped []string `json:"dropped"`
	// Detail says why, in a sentence.
	Detail string `json:"detail,omitempty"`
}

// Result is a lowered program.
type Result struct {
	// Program is the parent: the original program with each partition
	// replaced by a delegate call.
	Program *ir.Program
	Modules []*Module
	// Crossings lists every symbolic value that crossed a cut.
	Crossings []Crossing
	// Dropped lists the nodes a policy excluded from partitions.
	Dropped []string
	// Removed lists scalar nodes of the parent that no longer had a use
	// once every module recomputed their values inside.
	Removed []string
	// Groups reports each of Options.Groups.
	Groups []Group
}

// Group reports one group of nodes asked to stay together.
type Group struct {
	Nodes []string `json:"nodes"`
	// Kept: the group is whole in Module.
	Kept   bool   `json:"kept"`
	Module string `json:"module,omitempty"`
	// Reason says why a group was not kept.
	Reason string `json:"reason,omitempty"`
}

// Module finds a lowered module by name.
func (r *Result) Module(name string) (*Module, bool) {
	for _, m := range r.Modules {
		if m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// Error is a refusal: lowering could not satisfy the contract.
type Error struct {
	// Value, Producer and Consumer name what could not cross, where set.
	Value, Producer, Consumer string
	// Why says, per policy tried, why it could not take the value across.
	Why []string
	Msg string
}

func (e *Error) Error() string { return e.Msg }

// Lower builds the lowered program for profile prof. The input program is
// not modified.
func Lower(p *ir.Program, prof *backend.Profile, opt Options) (*Result, error) {
	if opt.Propose == nil {
		opt.Propose = partition.ProposeGraph
	}
	if err := checkProfileName(prof); err != nil {
		return nil, err
	}
	lw := &lowerer{prof: prof, opt: opt, res: &Result{Program: p.Clone()}}
	lw.names = newNamer()
	if err := lw.lowerGraph("", lw.res.Program.Graph, lw.res.Program); err != nil {
		return nil, err
	}
	if err := lw.check(); err != nil {
		return nil, err
	}
	return lw.res, nil
}

type lowerer struct {
	prof  *backend.Profile
	opt   Options
	res   *Result
	names *namer
	exprs map[string]*sym.Expr
	// symRanges caches the program's ranges (see ranges).
	symRanges map[string]sym.Range
	// modules counts module names handed out.
	modules  int
	profJSON []byte
}

// lowerGraph lowers one graph in place: first the graphs nested in nodes
// that stay in it, then the graph itself. prog is set for the top-level
// graph, whose placeholders have specs and weights.
func (lw *lowerer) lowerGraph(path string, g *ir.Graph, prog *ir.Program) error {
	lw.names.reserveGraph(g)
	if lw.prof.FullGraph {
		if err := lw.checkFullGraph(path, g); err != nil {
			return err
		}
	}
	gc := newGraphCut(lw, path, g, prog)
	excluded := map[string]bool{}
	var groups [][]string
	if path == "" {
		groups = lw.opt.Groups
	}
	for {
		proposal, err := lw.opt.Propose(g, lw.prof, partition.GraphOptions{Exclude: excluded, Groups: groups})
		if err != nil {
			return err
		}
		plan := gc.analyze(proposal.Partitions)
		dec, err := gc.decide(plan)
		if err != nil {
			return err
		}
		if len(dec.exclude) == 0 {
			if lw.prof.FullGraph {
				if err := gc.checkAllDelegated(plan); err != nil {
					return err
				}
			}
			lw.res.Dropped = append(lw.res.Dropped, sortedSet(excluded)...)
			// Groups are told from the graph as proposed, before it is
			// rewritten; their modules are named by build.
			reports, parts := gc.groups(groups, proposal, excluded)
			if err := gc.build(plan, dec, excluded); err != nil {
				return err
			}
			for i, k := range parts {
				if k >= 0 {
					reports[i].Module = plan.label[k]
				}
			}
			lw.res.Groups = append(lw.res.Groups, reports...)
			break
		}
		for _, n := range dec.exclude {
			excluded[n] = true
		}
		gc.excludedReports = append(gc.excludedReports, dec.crossings...)
	}
	// Nested graphs of nodes that stayed in this graph are lowered too.
	for _, n := range g.Nodes {
		for _, sub := range n.SubGraphs() {
			p := n.Name + "." + sub.Name
			if path != "" {
				p = path + "." + p
			}
			if err := lw.lowerGraph(p, sub.Graph, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFullGraph lists every node the backend cannot run, with the nodes
// that consume what it makes (in full-graph mode a refused sym_size is a
// refused cut before its consumers).
func (lw *lowerer) checkFullGraph(path string, g *ir.Graph) error {
	users := map[string][]string{}
	for _, n := range g.Nodes {
		n.ForEachInputRef(func(v string) { users[v] = append(users[v], n.Name) })
	}
	var bad []string
	for _, n := range g.Nodes {
		v := lw.prof.Supports(g, n)
		if v.OK() {
			continue
		}
		line := fmt.Sprintf("  %s (%s): %s", n.Name, n.OpName(), v)
		var consumers []string
		n.ForEachOutputRef(func(o string) { consumers = append(consumers, users[o]...) })
		if len(consumers) > 0 {
			line += "; consumed by " + listOrDash(slices.Compact(consumers))
		}
		bad = append(bad, line)
	}
	if len(bad) == 0 {
		return nil
	}
	where := "the graph"
	if path != "" {
		where = "graph " + path
	}
	return &Error{Msg: fmt.Sprintf("full_graph: %s cannot go to %s as a whole; %d unsupported nodes:\n%s",
		where, lw.prof.Name, len(bad), strings.Join(bad, "\n"))}
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// checkAllDelegated: in full-graph mode every node must end up in one
// partition.
func (gc *graphCut) checkAllDelegated(p *plan) error {
	var left []string
	for i, n := range gc.g.Nodes {
		if p.part[i] < 0 {
			left = append(left, n.Name)
		}
	}
	if len(left) == 0 && len(p.parts) <= 1 {
		return nil
	}
	return &Error{Msg: fmt.Sprintf("full_graph: the graph does not go to %s as one partition (%d partitions; left out: %s)",
		gc.lw.prof.Name, len(p.parts), strings.Join(left, ", "))}
}

// profileJSON is the profile in its file form, recorded with each module.
func (lw *lowerer) profileJSON() []byte {
	if lw.profJSON == nil {
		if b, err := json.Marshal(lw.prof); err == nil {
			lw.profJSON = b
		}
	}
	return lw.profJSON
}

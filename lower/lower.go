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

// Options configure lowering.
type Options struct {
	Policy Policy
	// Excluded are the exclusions earlier rounds made: the plan was
	// proposed without their nodes. Lowering reports them among the
	// crossings and names them when a group loses a member to them.
	Excluded []Exclusion
}

// Module is a lowered module: a partition as a program of its own, its
// delegate record, and where it came from.
type Module struct {
	Name string
	*ir.LoweredModule
	// Nodes names the nodes of the original graph the module took over.
	Nodes []string
	// Graph names the graph the partition was cut from: "" for the top
	// level, else the path of a nested graph (`cond.true_graph_0`).
	Graph string
}

// NodeCount is how many nodes of the graph it was cut from the module
// took: its Nodes, and the nodes of the graphs they run (a delegated cond
// takes its branches). With several backends, a later one's graph is the
// parent an earlier one left, which holds the nodes lowering added there
// (a box, a hoisted scalar op) besides the program's.
func (m *Module) NodeCount() int {
	took := map[string]bool{}
	for _, n := range m.Nodes {
		took[n] = true
	}
	count := 0
	for _, n := range m.Program.Graph.Nodes {
		if !took[n.Name] {
			continue
		}
		count++
		for _, sub := range n.SubGraphs() {
			_ = sub.Graph.Walk(func(_ string, g *ir.Graph) error { count += len(g.Nodes); return nil })
		}
	}
	return count
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

// Exclusion is a crossing the policy resolved by leaving nodes to the
// parent (Crossing.Dropped): the next proposal must leave them out of its
// partitions (partition.GraphOptions.Exclude, ExcludeNames).
type Exclusion struct {
	// Graph is the path of the nodes' graph, "" for the top level.
	Graph string `json:"graph,omitempty"`
	Crossing
	// Why says why each way tried before exclude could not take the
	// value across.
	Why []string `json:"why,omitempty"`
}

// ExcludeNames are the nodes exclusions leave to the parent, as
// partition.GraphOptions.Exclude names them, added to set (made when nil).
func ExcludeNames(set map[string]bool, exclusions []Exclusion) map[string]bool {
	if set == nil {
		set = map[string]bool{}
	}
	for _, e := range exclusions {
		for _, n := range e.Dropped {
			set[ir.PathName(e.Graph, n)] = true
		}
	}
	return set
}

// Round is one proposal a lowering went through: its backend, how much it
// delegated, and what lowering had to exclude from it (nothing, for the
// proposal that was lowered).
type Round struct {
	Backend    string      `json:"backend"`
	Partitions int         `json:"partitions"`
	Delegated  int         `json:"delegated"`
	Excluded   []Exclusion `json:"excluded"`
}

// Result is a lowered program and what lowering did to make it.
type Result struct {
	// Lowered is the parent (the original program with each partition
	// replaced by a delegate call) and every module it calls.
	Lowered *ir.Lowered
	// Modules are the modules this lowering made, in the order made.
	Modules []*Module
	// Crossings lists every symbolic value that crossed a cut, the ones
	// earlier rounds excluded included.
	Crossings []Crossing
	// Dropped lists the nodes a policy excluded from partitions.
	Dropped []string
	// Removed lists scalar nodes of the parent that no longer had a use
	// once every module recomputed their values inside.
	Removed []string
	// Groups reports each group the plan was asked to keep together.
	Groups []Group
	// Rounds are the proposals that led here, the lowered one last; the
	// driver that proposed them fills it (package delegate).
	Rounds []Round
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

// Module finds a module this lowering made by name.
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

// Lower lowers the partitions of plan, a proposal for in's main program
// (partition.ProposeProgram), for profile prof: each partition becomes a
// lowered module and a delegate call in its place, in every graph the
// plan covers. Modules in already has are kept. The input is not
// modified.
//
// When the policy resolves a crossing by leaving nodes to the parent,
// nothing is lowered: Lower returns the exclusions, and the caller
// proposes again without their nodes and lowers that plan with
// Options.Excluded holding every exclusion so far (package delegate runs
// these rounds).
func Lower(in *ir.Lowered, plan *partition.Plan, prof *backend.Profile, opt Options) (*Result, []Exclusion, error) {
	if err := checkProfileName(prof); err != nil {
		return nil, nil, err
	}
	main := in.Main.Clone()
	lw := &lowerer{prof: prof, opt: opt, main: main, names: newNamer(),
		res: &Result{Lowered: &ir.Lowered{Main: main, Modules: map[string]*ir.LoweredModule{}}}}
	for name, m := range in.Modules {
		lw.res.Lowered.Modules[name] = m
		lw.names.used[name] = true
	}
	lw.names.reserveGraph(main.Graph)
	cuts, err := lw.cuts(in.Main, plan)
	if err != nil {
		return nil, nil, err
	}
	var excluded []Exclusion
	for _, gc := range cuts {
		if err := gc.decideAll(); err != nil {
			return nil, nil, err
		}
		excluded = append(excluded, gc.dec.exclusions...)
	}
	if len(excluded) > 0 {
		return nil, excluded, nil
	}
	for _, gc := range cuts {
		if err := gc.lower(); err != nil {
			return nil, nil, err
		}
	}
	if err := lw.preprocess(); err != nil {
		return nil, nil, err
	}
	if err := lw.check(); err != nil {
		return nil, nil, err
	}
	return lw.res, nil, nil
}

type lowerer struct {
	prof *backend.Profile
	opt  Options
	// main is the parent being rewritten: a copy of the input's.
	main  *ir.Program
	res   *Result
	names *namer
	exprs map[string]*sym.Expr
	// symRanges caches the program's ranges (see ranges).
	symRanges map[string]sym.Range
	// modules counts module names handed out.
	modules  int
	profJSON []byte
}

// cuts pairs every graph plan covers, parents first, with its copy in
// lw.main. A plan made for another program is refused.
func (lw *lowerer) cuts(orig *ir.Program, plan *partition.Plan) ([]*graphCut, error) {
	origs, copies := map[string]*ir.Graph{}, map[string]*ir.Graph{}
	collect := func(m map[string]*ir.Graph) func(string, *ir.Graph) error {
		return func(path string, g *ir.Graph) error { m[path] = g; return nil }
	}
	_ = orig.Graph.Walk(collect(origs))
	_ = lw.main.Graph.Walk(collect(copies))
	var cuts []*graphCut
	var err error
	plan.Walk(func(pl *partition.Plan) {
		if err != nil {
			return
		}
		if origs[pl.Path] != pl.Graph || pl.Graph == nil {
			err = fmt.Errorf("lower: the plan for graph %q was not proposed for this program", pl.Path)
			return
		}
		var prog *ir.Program
		if pl.Path == "" {
			prog = lw.main
		}
		cuts = append(cuts, newGraphCut(lw, pl, copies[pl.Path], prog))
	})
	return cuts, err
}

// decideAll decides how every symbolic value crossing the graph's cuts
// crosses.
func (gc *graphCut) decideAll() error {
	dec, err := gc.decide()
	if err != nil {
		return err
	}
	gc.dec = dec
	return nil
}

// lower rewrites the graph: each partition becomes a module and a call.
func (gc *graphCut) lower() error {
	if gc.lw.prof.FullGraph {
		if err := gc.checkAllDelegated(); err != nil {
			return err
		}
	}
	excluded := gc.excludedNodes()
	gc.lw.res.Dropped = append(gc.lw.res.Dropped, sortedSet(excluded)...)
	// Groups are told from the graph as proposed, before it is rewritten;
	// their modules are named by build.
	reports, parts := gc.groups(excluded)
	if err := gc.build(); err != nil {
		return err
	}
	for i, k := range parts {
		if k >= 0 {
			reports[i].Module = gc.label[k]
		}
	}
	gc.lw.res.Groups = append(gc.lw.res.Groups, reports...)
	return nil
}

// excludedNodes are the graph's nodes earlier rounds excluded.
func (gc *graphCut) excludedNodes() map[string]bool {
	out := map[string]bool{}
	for _, e := range gc.earlier {
		for _, n := range e.Dropped {
			out[n] = true
		}
	}
	return out
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
func (gc *graphCut) checkAllDelegated() error {
	var left []string
	for i, n := range gc.g.Nodes {
		if gc.plan.PartitionOf(i) < 0 {
			left = append(left, n.Name)
		}
	}
	if len(left) == 0 && len(gc.plan.Partitions) <= 1 {
		return nil
	}
	return &Error{Msg: fmt.Sprintf("full_graph: the graph does not go to %s as one partition (%d partitions; left out: %s)",
		gc.lw.prof.Name, len(gc.plan.Partitions), strings.Join(left, ", "))}
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

package partition

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/internal/memo"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/ops"
)

// GraphOptions refine a proposal.
type GraphOptions struct {
	// Exclude names nodes that must stay out of partitions (a lowering
	// policy excluded them): nodes of the graph by name, and for
	// ProposeProgram nodes of nested graphs by their graph's path and name
	// (ir.PathName: cond.true_graph_0.add).
	Exclude map[string]bool
	// Groups are node names (of the top-level graph, for ProposeProgram)
	// that must end up in one partition together, or none of them
	// delegated.
	Groups [][]string
}

// ProposeGraph proposes partitions of one graph for a backend. A
// full_graph profile turns any unsupported node into an error listing
// every such node with its reason (FullGraphError).
func ProposeGraph(g *ir.Graph, prof *backend.Profile, opt GraphOptions) (*Plan, error) {
	return proposeGraph("", g, prof, opt)
}

func proposeGraph(path string, g *ir.Graph, prof *backend.Profile, opt GraphOptions) (*Plan, error) {
	du := g.DefUse()
	d, req, refused, err := graphRequest(path, g, du, prof, opt)
	if err != nil {
		return nil, err
	}
	res, err := Propose(d, req)
	if err != nil {
		return nil, err
	}
	plan := &Plan{Graph: g, Path: path, Uses: du, Partitions: make([][]int, len(res.Partitions)), PartOf: res.PartitionOf,
		reasons: res.Reasons, refused: refused, excluded: opt.Exclude}
	// The partitions' node lists share one array.
	all := make([]int, 0, len(g.Nodes))
	for k, part := range res.Partitions {
		start := len(all)
		for _, i := range part {
			all = append(all, int(i))
		}
		plan.Partitions[k] = all[start:len(all):len(all)]
	}
	for i, o := range res.Groups {
		plan.Groups = append(plan.Groups, Group{Nodes: slices.Clone(opt.Groups[i]), GroupOutcome: o})
	}
	plan.Boundaries = boundaries(plan)
	return plan, nil
}

// GraphRequest states a graph and a backend as the partitioner's problem:
// the dependency DAG, and which nodes are supported (with the backend's
// verdict on each), count as compute, and must stay together. A full_graph
// profile with an unsupported node is an error listing every such node.
func GraphRequest(g *ir.Graph, prof *backend.Profile, opt GraphOptions) (*DAG, *Request, []backend.Verdict, error) {
	d, req, refused, err := graphRequest("", g, g.DefUse(), prof, opt)
	if err != nil {
		return nil, nil, nil, err
	}
	verdicts := make([]backend.Verdict, len(g.Nodes))
	for _, r := range refused {
		verdicts[r.node] = r.Verdict
	}
	return d, req, verdicts, nil
}

// refusal is the backend's verdict on a node it does not support.
type refusal struct {
	node int
	backend.Verdict
}

// graphRequest is GraphRequest with the backend's refusals only, in node
// order: a large graph's nodes are mostly supported.
func graphRequest(path string, g *ir.Graph, du *ir.DefUse, prof *backend.Profile, opt GraphOptions) (*DAG, *Request, []refusal, error) {
	n := len(g.Nodes)
	d := &DAG{Preds: make([][]int32, n)}
	// With single-node partitions allowed nothing is dropped; without, a
	// partition needs two compute nodes (views, scalar ops and checks do
	// not count).
	req := &Request{Supported: make([]bool, n), Compute: make([]bool, n)}
	if !prof.SingleNodePartitions {
		req.MinCompute = 2
	}
	var refused []refusal
	judge := prof.Indexed(g, du)
	// A node has at most as many predecessors as values it reads: one
	// array holds them all.
	preds := make([]int32, 0, du.ReadCount())
	// Each op's class, once: thousands of nodes share each op.
	compute := memo.New(func(target string) bool {
		c := ops.ClassOf(target)
		return c == ops.Compute || c == ops.Control
	})
	for i, node := range g.Nodes {
		reads := du.Reads(i)
		start := len(preds)
		for _, v := range reads {
			if val := du.Value(v); val.Defined && val.Producer >= 0 && val.Producer < i && !slices.Contains(preds[start:], int32(val.Producer)) {
				preds = append(preds, int32(val.Producer))
			}
		}
		if len(preds) > start {
			d.Preds[i] = preds[start:len(preds):len(preds)]
		}
		v := judge.Supports(i)
		if !v.OK() {
			refused = append(refused, refusal{i, v})
		}
		req.Supported[i] = v.OK() && !opt.Exclude[node.Name]
		req.Compute[i] = compute.Get(node.Target)
	}
	if prof.FullGraph {
		if err := fullGraph(path, g, du, prof, refused); err != nil {
			return nil, nil, nil, err
		}
	}
	if len(opt.Groups) > 0 {
		index := make(map[string]int32, n)
		for i, node := range g.Nodes {
			index[node.Name] = int32(i)
		}
		for _, grp := range opt.Groups {
			var ids []int32
			for _, name := range grp {
				i, ok := index[name]
				if !ok {
					return nil, nil, nil, fmt.Errorf("group names node %q, which the graph does not have", name)
				}
				ids = append(ids, i)
			}
			req.Groups = append(req.Groups, ids)
		}
	}
	return d, req, refused, nil
}

// FullGraphError is a full_graph backend that cannot take a whole graph:
// every node it refuses, with its reason and the nodes that consume what
// it makes (a refused sym_size is a refused cut before its consumers).
type FullGraphError struct {
	// Graph is the graph's path, "" for the top level.
	Graph   string
	Backend string
	// Nodes has one line per unsupported node.
	Nodes []string
}

func (e *FullGraphError) Error() string {
	where := "the graph"
	if e.Graph != "" {
		where = "graph " + e.Graph
	}
	return fmt.Sprintf("full_graph: %s cannot go to %s as a whole; %d unsupported nodes:\n%s",
		where, e.Backend, len(e.Nodes), strings.Join(e.Nodes, "\n"))
}

func fullGraph(path string, g *ir.Graph, du *ir.DefUse, prof *backend.Profile, refused []refusal) error {
	e := &FullGraphError{Graph: path, Backend: prof.Name}
	for _, r := range refused {
		n := g.Nodes[r.node]
		line := fmt.Sprintf("  %s (%s): %s", n.Name, n.OpName(), r.Verdict)
		var consumers []string
		n.ForEachOutputRef(func(o string) {
			for _, u := range du.Users(o) {
				consumers = append(consumers, g.Nodes[u].Name)
			}
		})
		if consumers = slices.Compact(consumers); len(consumers) > 0 {
			line += "; consumed by " + listFew(consumers)
		}
		e.Nodes = append(e.Nodes, line)
	}
	if len(e.Nodes) == 0 {
		return nil
	}
	return e
}

// listFew joins up to four names and counts the rest.
func listFew(xs []string) string {
	const max = 4
	if len(xs) > max {
		return strings.Join(xs[:max], ", ") + fmt.Sprintf(" (+%d)", len(xs)-max)
	}
	return strings.Join(xs, ", ")
}

// ProposeProgram proposes partitions for a program's graph and, for nodes
// left to the parent, for the graphs nested in them (cond branches).
// Groups apply to the top-level graph; Exclude names nodes of any graph
// (ir.PathName).
func ProposeProgram(p *ir.Program, prof *backend.Profile, opt GraphOptions) (*Plan, error) {
	return proposeNested("", p.Graph, prof, opt)
}

func proposeNested(path string, g *ir.Graph, prof *backend.Profile, opt GraphOptions) (*Plan, error) {
	own := GraphOptions{Exclude: map[string]bool{}}
	if path == "" {
		own.Groups = opt.Groups
	}
	if len(opt.Exclude) > 0 {
		for _, n := range g.Nodes {
			if opt.Exclude[ir.PathName(path, n.Name)] {
				own.Exclude[n.Name] = true
			}
		}
	}
	plan, err := proposeGraph(path, g, prof, own)
	if err != nil {
		if path != "" {
			if _, whole := err.(*FullGraphError); !whole {
				return nil, fmt.Errorf("graph %s: %w", path, err)
			}
		}
		return nil, err
	}
	for i, node := range g.Nodes {
		if plan.PartOf[i] >= 0 {
			continue
		}
		for _, sub := range node.SubGraphs() {
			nested, err := proposeNested(ir.SubgraphPath(path, node.Name, sub.Name), sub.Graph, prof, opt)
			if err != nil {
				return nil, err
			}
			plan.Nested = append(plan.Nested, nested)
		}
	}
	return plan, nil
}

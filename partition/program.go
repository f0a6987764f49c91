package partition

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/ops"
)

// GraphOptions refine a proposal for one graph.
type GraphOptions struct {
	// Exclude names nodes that must stay out of partitions (a lowering
	// policy excluded them).
	Exclude map[string]bool
	// Groups are node names that must end up in one partition together,
	// or none of them delegated.
	Groups [][]string
}

// Plan is a proposal for one graph of a program.
type Plan struct {
	Graph *ir.Graph
	// Path names a nested graph ("cond.true_graph_0"); "" is the top level.
	Path string
	// Partitions hold indices into Graph.Nodes, ascending.
	Partitions [][]int
	// Verdicts says for every node whether it is delegated, and why not.
	Verdicts []NodeVerdict
	// Nested are the plans of graphs nested in nodes left to the parent.
	Nested []*Plan
	// Groups reports, per GraphOptions.Groups entry, what became of it.
	Groups []GroupOutcome
}

// NodeVerdict is why a node is or is not in a partition.
type NodeVerdict struct {
	Node   string
	Target string
	// Partition is the node's partition, or -1.
	Partition int
	// Reason is "delegated", or a backend refusal (op not included, op
	// excluded, excluded by name, dtype refused, dynamic size refused), or
	// a partitioning one (partition too small, group refused, excluded by
	// policy).
	Reason string
	Detail string
}

// IsCompute reports whether a node counts towards a partition's size:
// views and scalar (symbolic) ops do not, nor checks that compute nothing.
func IsCompute(target string) bool {
	op := ir.OpName(target)
	if strings.HasPrefix(op, "aten.sym_") || strings.HasPrefix(op, "aten._assert_") {
		return false
	}
	s, ok := ops.Lookup(op)
	if !ok {
		return !strings.HasPrefix(op, "_operator.") && !strings.HasPrefix(op, "math.") && !strings.HasPrefix(op, "torch.sym_")
	}
	return s.Kind != ops.Python && !s.IsView()
}

// ProposeGraph proposes partitions of one graph for a backend. A
// full_graph profile turns any unsupported node into an error listing
// every such node with its reason.
func ProposeGraph(g *ir.Graph, prof *backend.Profile, opt GraphOptions) (*Plan, error) {
	d, req, verdicts, err := GraphRequest(g, prof, opt)
	if err != nil {
		return nil, err
	}
	n := len(g.Nodes)
	res, err := Propose(d, req)
	if err != nil {
		return nil, err
	}
	plan := &Plan{Graph: g, Partitions: make([][]int, len(res.Partitions)), Verdicts: make([]NodeVerdict, n), Groups: res.Groups}
	for k, part := range res.Partitions {
		plan.Partitions[k] = make([]int, len(part))
		for j, i := range part {
			plan.Partitions[k][j] = int(i)
		}
	}
	for i, node := range g.Nodes {
		v := NodeVerdict{Node: node.Name, Target: node.OpName(), Partition: int(res.PartitionOf[i]), Reason: res.Reasons[i].String()}
		switch {
		case !verdicts[i].OK():
			v.Reason, v.Detail = verdicts[i].Reason.String(), verdicts[i].Detail
		case opt.Exclude[node.Name]:
			v.Reason = "excluded by policy"
		}
		plan.Verdicts[i] = v
	}
	return plan, nil
}

// GraphRequest states a graph and a backend as the partitioner's problem:
// the dependency DAG, and which nodes are supported (with the backend's
// verdict on each), count as compute, and must stay together. A full_graph
// profile with an unsupported node is an error listing every such node.
func GraphRequest(g *ir.Graph, prof *backend.Profile, opt GraphOptions) (*DAG, *Request, []backend.Verdict, error) {
	n := len(g.Nodes)
	d := &DAG{Preds: make([][]int32, n)}
	// With single-node partitions allowed nothing is dropped; without, a
	// partition needs two compute nodes (views and scalar ops do not count).
	req := &Request{Supported: make([]bool, n), Compute: make([]bool, n)}
	if !prof.SingleNodePartitions {
		req.MinCompute = 2
	}
	producer := make(map[string]int32, n)
	verdicts := make([]backend.Verdict, n)
	var unsupported []string
	for i, node := range g.Nodes {
		seen := map[int32]bool{}
		node.ForEachInputRef(func(v string) {
			if p, ok := producer[v]; ok && !seen[p] {
				seen[p] = true
				d.Preds[i] = append(d.Preds[i], p)
			}
		})
		node.ForEachOutputRef(func(v string) { producer[v] = int32(i) })
		verdicts[i] = prof.Supports(g, node)
		req.Supported[i] = verdicts[i].OK() && !opt.Exclude[node.Name]
		req.Compute[i] = IsCompute(node.Target)
		if !verdicts[i].OK() {
			unsupported = append(unsupported, fmt.Sprintf("  %s (%s): %s", node.Name, node.OpName(), verdicts[i]))
		}
	}
	if prof.FullGraph && len(unsupported) > 0 {
		return nil, nil, nil, fmt.Errorf("full_graph: %s cannot take the whole graph; %d unsupported nodes:\n%s",
			prof.Name, len(unsupported), strings.Join(unsupported, "\n"))
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
	return d, req, verdicts, nil
}

// ProposeProgram proposes partitions for a program's graph and, for nodes
// left to the parent, for the graphs nested in them (cond branches). The
// options apply to the top-level graph.
func ProposeProgram(p *ir.Program, prof *backend.Profile, opt GraphOptions) (*Plan, error) {
	return proposeNested("", p.Graph, prof, opt)
}

func proposeNested(path string, g *ir.Graph, prof *backend.Profile, opt GraphOptions) (*Plan, error) {
	plan, err := ProposeGraph(g, prof, opt)
	if err != nil {
		if path != "" {
			return nil, fmt.Errorf("graph %s: %w", path, err)
		}
		return nil, err
	}
	plan.Path = path
	for i, node := range g.Nodes {
		if plan.Verdicts[i].Partition >= 0 {
			continue
		}
		for _, sub := range node.SubGraphs() {
			sp := node.Name + "." + sub.Name
			if path != "" {
				sp = path + "." + sp
			}
			nested, err := proposeNested(sp, sub.Graph, prof, GraphOptions{})
			if err != nil {
				return nil, err
			}
			plan.Nested = append(plan.Nested, nested)
		}
	}
	return plan, nil
}

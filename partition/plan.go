package partition

import (
	"cmp"
	"slices"

	"github.com/seam-rt/seam/ir"
)

// Plan is a proposal for one graph of a program, and for the graphs
// nested in the nodes it leaves to the parent.
type Plan struct {
	Graph *ir.Graph
	// Path names a nested graph ("cond.true_graph_0", ir.SubgraphPath);
	// "" is the top level.
	Path string
	// Uses indexes the graph's values as the plan was made.
	Uses *ir.DefUse
	// Partitions hold indices into Graph.Nodes, ascending; partitions are
	// ordered by their first node.
	Partitions [][]int
	// Boundaries says, per partition, what crosses its cut.
	Boundaries []Boundary
	// PartOf gives each node's partition (an index into Partitions), -1
	// for a node left to the parent. Verdict says why.
	PartOf []int32
	// Nested are the plans of graphs nested in nodes left to the parent,
	// in node order, depth first.
	Nested []*Plan
	// Groups reports, per GraphOptions.Groups entry, what became of it.
	Groups []Group

	// What Verdict says a node's verdict from, kept as the proposal made
	// it: per node, the partitioner's reason; the backend's refusals, in
	// node order; the nodes a policy excluded, by name.
	reasons  []Reason
	refused  []refusal
	excluded map[string]bool
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

// Group is one group of nodes asked to stay together, and what became of
// it.
type Group struct {
	Nodes []string
	GroupOutcome
}

// Boundary is what crosses one partition's cut.
type Boundary struct {
	// Inputs are the values the partition uses but does not define, in
	// order of first use.
	Inputs []BoundaryValue
	// Outputs are the values it defines that anything outside it uses
	// (a node of another region, or the graph's outputs), in order of
	// definition.
	Outputs []BoundaryValue
}

// BoundaryValue is one value crossing a cut.
type BoundaryValue struct {
	Name string
	// Type is the value's kind by the graph's tables: a tensor, a
	// symbolic scalar (sym_int, sym_bool, sym_float) or a custom object.
	Type ir.ValueType
	// Producer is the node defining it, -1 for a graph input.
	Producer int
	// Users are the nodes outside the partition that use it, ascending;
	// GraphOutput says whether the graph's outputs do (outputs only).
	Users       []int
	GraphOutput bool
}

// Symbolic reports a symbolic scalar: what most backends cannot take.
func (v BoundaryValue) Symbolic() bool {
	return v.Type == ir.ValueSymInt || v.Type == ir.ValueSymBool || v.Type == ir.ValueSymFloat
}

// PartitionOf is node i's partition, or -1.
func (p *Plan) PartitionOf(i int) int { return int(p.PartOf[i]) }

// Verdict says whether node i is delegated, and why not. It is made when
// asked for: a plan of a large graph holds no string per node (a report
// asks only about the nodes left to the parent).
func (p *Plan) Verdict(i int) NodeVerdict {
	node := p.Graph.Nodes[i]
	v := NodeVerdict{Node: node.Name, Target: node.OpName(), Partition: int(p.PartOf[i]), Reason: p.reasons[i].String()}
	k, refused := slices.BinarySearchFunc(p.refused, i, func(r refusal, i int) int { return cmp.Compare(r.node, i) })
	switch {
	case refused:
		v.Reason, v.Detail = p.refused[k].Reason.String(), p.refused[k].Detail
	case p.excluded[node.Name]:
		v.Reason = "excluded by policy"
	}
	return v
}

// Walk calls fn for p and every nested plan, parents first.
func (p *Plan) Walk(fn func(*Plan)) {
	fn(p)
	for _, n := range p.Nested {
		n.Walk(fn)
	}
}

// boundaries computes what crosses each partition's cut, once per plan,
// from the def-use index's value numbers.
func boundaries(p *Plan) []Boundary {
	out := make([]Boundary, len(p.Partitions))
	du := p.Uses
	// seen[v] is 1 + the last partition that listed v as an input.
	seen := make([]int32, du.Values())
	for k, nodes := range p.Partitions {
		b := &out[k]
		for _, i := range nodes {
			for _, v := range du.Reads(i) {
				val := du.Value(v)
				if seen[v] == int32(k+1) || !val.Defined || (val.Producer >= 0 && p.PartitionOf(val.Producer) == k) {
					continue
				}
				seen[v] = int32(k + 1)
				b.Inputs = append(b.Inputs, BoundaryValue{Name: val.Name, Type: du.Type(v), Producer: val.Producer})
			}
			for _, v := range du.Defines(i) {
				val := du.Value(v)
				var outside []int
				for _, u := range du.UsersOf(v) {
					if p.PartitionOf(u) != k {
						outside = append(outside, u)
					}
				}
				if len(outside) > 0 || val.GraphOutput {
					b.Outputs = append(b.Outputs, BoundaryValue{Name: val.Name, Type: du.Type(v), Producer: i, Users: outside, GraphOutput: val.GraphOutput})
				}
			}
		}
	}
	return out
}

package report

import (
	"cmp"
	"slices"
	"sync"

	"github.com/seam-rt/seam/partition"
)

// Report is a partition plan described for a backend: partitions with their
// boundaries, and the nodes left to the parent program with the reason.
type Report struct {
	Model       string        `json:"model,omitempty"`
	Backend     string        `json:"backend"`
	Summary     Summary       `json:"summary"`
	Partitions  []Partition   `json:"partitions"`
	Unsupported []Unsupported `json:"unsupported"`

	// graphs hold the structure the pictures draw, one per planned graph,
	// top level first, made by the first picture drawn (see models).
	graphs    []*graphModel
	drawn     sync.Once
	drawFrom  *builder
	drawnPlan *partition.Plan
	// judged: symbolic values carry the contract's judgement.
	judged bool
}

// models is the structure the pictures draw. It is made when a picture
// is asked for: a text or JSON report of a large graph needs none of its
// items and edges, which are most of the report's making.
func (r *Report) models() []*graphModel {
	r.drawn.Do(func() {
		if r.drawFrom != nil {
			r.drawFrom.addModels(r.drawnPlan, true, 0)
			r.drawFrom, r.drawnPlan = nil, nil
		}
	})
	return r.graphs
}

// Summary counts what a reader looks at first.
type Summary struct {
	// Graphs counts the planned graphs: the top level and the graphs nested
	// in nodes left to the parent (cond branches).
	Graphs      int `json:"graphs"`
	Nodes       int `json:"nodes"`
	Delegated   int `json:"delegated"`
	Partitions  int `json:"partitions"`
	Unsupported int `json:"unsupported"`
	// SymbolicInputs counts partition inputs that are symbolic scalars
	// (SymInt, SymBool, SymFloat): the placeholders a tensor-only backend
	// cannot receive.
	SymbolicInputs  int `json:"symbolic_inputs"`
	SymbolicOutputs int `json:"symbolic_outputs"`
}

// Partition is one delegate call: its nodes in graph order and the values
// that cross its boundary.
type Partition struct {
	// ID is unique in the report; nested graphs' partitions follow the top
	// level's.
	ID int `json:"id"`
	// Graph is the path of a nested graph ("cond.true_graph_0"), "" at the
	// top level.
	Graph   string   `json:"graph,omitempty"`
	Nodes   []string `json:"nodes"`
	Inputs  []Value  `json:"inputs"`
	Outputs []Value  `json:"outputs"`
}

// Value is one value crossing a partition boundary.
type Value struct {
	Name string `json:"name"`
	// Type is the value's table: tensor, sym_int, sym_bool, sym_float,
	// custom_obj, or unknown.
	Type       string `json:"type"`
	Annotation string `json:"annotation"`
	// Symbolic is true for sym_int, sym_bool and sym_float values.
	Symbolic bool `json:"symbolic"`
	// From says where an input comes from: a placeholder kind of the
	// program's signature (user_input, parameter, buffer, tensor_constant,
	// ...), graph_input for a nested graph's placeholder, "node" for a node
	// of the parent program, or "partition N".
	From string `json:"from,omitempty"`
	// Producer names the node that makes an input, when a node does.
	Producer string `json:"producer,omitempty"`
	// To says where an output goes, each once, in order of first use:
	// "node" (the parent program), "partition N", or a graph output kind
	// (user_output, buffer_mutation, ..., graph_output when nested).
	To []string `json:"to,omitempty"`
	// Users names the nodes outside the partition that use an output.
	Users []string `json:"users,omitempty"`
	// Accepted says, for a symbolic value, whether the backend's contract
	// takes it as a placeholder (a plain scalar, or a rank-0 tensor);
	// Policy what lowering would do with it (rederive, hoist, pass, box,
	// exclude, or refused) and PolicyDetail why. Set when the report was
	// built with a judge.
	Accepted     *bool  `json:"accepted,omitempty"`
	Policy       string `json:"policy,omitempty"`
	PolicyDetail string `json:"policy_detail,omitempty"`
}

// Unsupported is a node left to the parent program.
type Unsupported struct {
	Node   string `json:"node"`
	Target string `json:"target"`
	// Reason is the backend's refusal (op not included, op excluded,
	// excluded by name, dtype refused, dynamic size refused) or the
	// partitioner's (partition too small, group refused, excluded by
	// policy).
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
	Graph  string `json:"graph,omitempty"`
}

// isSymbolic reports whether a value type is a symbolic scalar.
func isSymbolic(typ string) bool {
	return typ == "sym_int" || typ == "sym_bool" || typ == "sym_float"
}

// reasonOrder lists reasons the way a reader looks for them: the backend's
// refusals first, then the partitioner's choices.
var reasonOrder = []string{
	"op not included", "op excluded", "excluded by name", "dtype refused", "dynamic size refused",
	"partition too small", "group refused", "excluded by policy",
}

// ReasonGroup is the unsupported nodes that share one reason.
type ReasonGroup struct {
	Reason string
	Nodes  []Unsupported
}

// ByReason groups the unsupported nodes by reason: known reasons in a fixed
// order, others after them alphabetically; nodes keep graph order.
func (r *Report) ByReason() []ReasonGroup {
	idx := map[string]int{}
	var groups []ReasonGroup
	for _, u := range r.Unsupported {
		i, ok := idx[u.Reason]
		if !ok {
			i = len(groups)
			idx[u.Reason] = i
			groups = append(groups, ReasonGroup{Reason: u.Reason})
		}
		groups[i].Nodes = append(groups[i].Nodes, u)
	}
	rank := func(reason string) int {
		for i, r := range reasonOrder {
			if r == reason {
				return i
			}
		}
		return len(reasonOrder)
	}
	slices.SortStableFunc(groups, func(a, b ReasonGroup) int {
		if c := cmp.Compare(rank(a.Reason), rank(b.Reason)); c != 0 {
			return c
		}
		return cmp.Compare(a.Reason, b.Reason)
	})
	return groups
}

// SymbolicInput is a symbolic value some partition receives.
type SymbolicInput struct {
	Partition int
	Graph     string
	Value     Value
}

// SymbolicInputs lists every symbolic partition input, partition by
// partition: the report's headline.
func (r *Report) SymbolicInputs() []SymbolicInput {
	var out []SymbolicInput
	for _, p := range r.Partitions {
		for _, v := range p.Inputs {
			if v.Symbolic {
				out = append(out, SymbolicInput{Partition: p.ID, Graph: p.Graph, Value: v})
			}
		}
	}
	return out
}

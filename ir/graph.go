package ir

import (
	"cmp"
	"slices"
)

// Graph is a list of nodes in execution order with its inputs (placeholders),
// outputs and the metadata of every value it names.
type Graph struct {
	Inputs               []Argument             `json:"inputs"`
	Outputs              []Argument             `json:"outputs"`
	Nodes                []*Node                `json:"nodes"`
	TensorValues         map[string]*TensorMeta `json:"tensor_values"`
	SymIntValues         map[string]SymInt      `json:"sym_int_values"`
	SymBoolValues        map[string]SymBool     `json:"sym_bool_values"`
	IsSingleTensorReturn bool                   `json:"is_single_tensor_return"`
	CustomObjValues      map[string]CustomObj   `json:"custom_obj_values"`
	SymFloatValues       map[string]SymFloat    `json:"sym_float_values"`
}

// CustomObj is a TorchBind script object value.
type CustomObj struct {
	Name     string `json:"name"`
	ClassFQN string `json:"class_fqn"`
}

// ArgumentKind says how a NamedArgument was passed.
type ArgumentKind int

// Argument passing kinds.
const (
	KindUnknown    ArgumentKind = 0
	KindPositional ArgumentKind = 1
	KindKeyword    ArgumentKind = 2
)

// NamedArgument is one argument of a node: the schema argument name (empty
// for positional arguments of higher-order ops), its value and how it was
// passed.
type NamedArgument struct {
	Name string       `json:"name"`
	Arg  Argument     `json:"arg"`
	Kind ArgumentKind `json:"kind"`
}

// Node is one call. Outputs holds one Argument per return of the op:
// multi-output ops list each output (named after the FX getitem that used
// it, or `<node>_unused_<i>`), a Tensor[] return is one ArgTensors.
type Node struct {
	Target                  string          `json:"target"`
	Inputs                  []NamedArgument `json:"inputs"`
	Outputs                 []Argument      `json:"outputs"`
	Metadata                Metadata        `json:"metadata"`
	IsHOPSingleTensorReturn *bool           `json:"is_hop_single_tensor_return"`
	Name                    string          `json:"name"`
}

// Input returns the argument with the given schema name.
func (n *Node) Input(name string) (*Argument, bool) {
	for i := range n.Inputs {
		if n.Inputs[i].Name == name {
			return &n.Inputs[i].Arg, true
		}
	}
	return nil, false
}

// OpName is the target without the `torch.ops.` prefix (`aten.add.Tensor`,
// `_operator.gt`), as backend profiles and reports name ops.
func (n *Node) OpName() string { return OpName(n.Target) }

// OpName strips the `torch.ops.` prefix from a serialized target.
func OpName(target string) string {
	const p = "torch.ops."
	if len(target) > len(p) && target[:len(p)] == p {
		return target[len(p):]
	}
	return target
}

// ForEachInputRef calls fn for every value name the node's inputs refer to.
func (n *Node) ForEachInputRef(fn func(name string)) {
	for i := range n.Inputs {
		n.Inputs[i].Arg.ForEachRef(fn)
	}
}

// ForEachOutputRef calls fn for every value name the node defines.
func (n *Node) ForEachOutputRef(fn func(name string)) {
	for i := range n.Outputs {
		n.Outputs[i].ForEachRef(fn)
	}
}

// OutputNames lists the values the node defines, in order.
func (n *Node) OutputNames() []string {
	var out []string
	n.ForEachOutputRef(func(s string) { out = append(out, s) })
	return out
}

// SubGraphs lists the nested graphs among the node's inputs.
func (n *Node) SubGraphs() []*GraphArgument {
	var gs []*GraphArgument
	for i := range n.Inputs {
		if a := &n.Inputs[i].Arg; a.Kind == ArgGraph && a.Graph() != nil {
			gs = append(gs, a.Graph())
		}
	}
	return gs
}

// InputNames lists the placeholder names of the graph, in order (constant
// inputs have none and are skipped).
func (g *Graph) InputNames() []string {
	var out []string
	for i := range g.Inputs {
		g.Inputs[i].ForEachRef(func(s string) { out = append(out, s) })
	}
	return out
}

// ValueType classifies a value name by the table that describes it.
type ValueType uint8

// Value types, named as `seam inspect --json` names them.
const (
	ValueUnknown ValueType = iota
	ValueTensor
	ValueSymInt
	ValueSymBool
	ValueSymFloat
	ValueCustomObj
)

func (t ValueType) String() string {
	switch t {
	case ValueTensor:
		return "tensor"
	case ValueSymInt:
		return "sym_int"
	case ValueSymBool:
		return "sym_bool"
	case ValueSymFloat:
		return "sym_float"
	case ValueCustomObj:
		return "custom_obj"
	}
	return "unknown"
}

// TypeOf says which value table names the value.
func (g *Graph) TypeOf(name string) ValueType {
	if _, ok := g.TensorValues[name]; ok {
		return ValueTensor
	}
	if _, ok := g.SymIntValues[name]; ok {
		return ValueSymInt
	}
	if _, ok := g.SymBoolValues[name]; ok {
		return ValueSymBool
	}
	if _, ok := g.SymFloatValues[name]; ok {
		return ValueSymFloat
	}
	if _, ok := g.CustomObjValues[name]; ok {
		return ValueCustomObj
	}
	return ValueUnknown
}

// Walk calls fn for g and every graph nested in it, depth first, parents
// before children. path names the nested graph from the top (for errors).
func (g *Graph) Walk(fn func(path string, g *Graph) error) error {
	return g.walk("", fn, nil)
}

// walk is Walk, not looking through the nodes of a graph for nested ones
// when flat (when set) says it has none.
func (g *Graph) walk(path string, fn func(string, *Graph) error, flat func(*Graph) bool) error {
	if err := fn(path, g); err != nil {
		return err
	}
	if flat != nil && flat(g) {
		return nil
	}
	for _, n := range g.Nodes {
		for _, sub := range n.SubGraphs() {
			if sub.Graph != nil {
				if err := sub.Graph.walk(SubgraphPath(path, n.Name, sub.Name), fn, flat); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// PathName names a node (or value) of the graph at path: its name at the
// top level (path ""), `path.name` in a nested graph. Nested graphs are
// named so too (SubgraphPath).
func PathName(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// SubgraphPath names the graph nested in node as its argument subgraph,
// where node is in the graph at path parent: `cond.true_graph_0` below
// the top level, `cond.true_graph_0.cond_1.false_graph_0` one level
// deeper. Walk, plans, reports, lowering and the runtime name nested
// graphs this way.
func SubgraphPath(parent, node, subgraph string) string {
	return PathName(PathName(parent, node), subgraph)
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// SortedKeys returns a map's keys in order, for deterministic output.
func SortedKeys[K cmp.Ordered, V any](m map[K]V) []K { return sortedKeys(m) }

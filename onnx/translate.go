package onnx

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
)

// Opset is the ONNX opset translations target; IRVersion the model format.
const (
	Opset     = 18
	IRVersion = 10
)

// Producer names seam in the models it writes.
const Producer = "seam"

// NodeError is one node that could not be translated.
type NodeError struct {
	// Graph is "" for the top level, else the path of a nested graph.
	Graph  string
	Node   string
	Target string
	Reason string
}

func (e NodeError) String() string {
	return fmt.Sprintf("%s (%s): %s", ir.PathName(e.Graph, e.Node), ir.OpName(e.Target), e.Reason)
}

// UntranslatableError lists every node of a program that has no ONNX
// translation, and any input or output that cannot be an ONNX value.
type UntranslatableError struct {
	Nodes []NodeError
	Other []string
}

func (e *UntranslatableError) Error() string {
	var b strings.Builder
	n := len(e.Nodes) + len(e.Other)
	fmt.Fprintf(&b, "cannot translate to ONNX: %d problem", n)
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString(":")
	for _, o := range e.Other {
		b.WriteString("\n  " + o)
	}
	for _, ne := range e.Nodes {
		b.WriteString("\n  " + ne.String())
	}
	return b.String()
}

// Role says what an ONNX graph input or output stands for.
type Role uint8

// Roles of graph inputs and outputs.
const (
	// UserValue is a user input or output of the program.
	UserValue Role = iota
	// BufferState is a buffer the program mutates: an input whose default
	// (an initializer) is the saved value, and an output with its new value.
	BufferState
)

// Port is one graph input or output and what it stands for.
type Port struct {
	Name string
	Role Role
	// Value is the program's placeholder or output value name.
	Value string
	// Target is the buffer's state-dict name for BufferState.
	Target string
	// Kind is the program value's type (tensor, sym_int, ...).
	Kind ir.ValueType
}

// Translation is a translated program.
type Translation struct {
	Model   *Model
	Inputs  []Port
	Outputs []Port
}

// Translate translates a program into an ONNX model. The graph's inputs
// are the user inputs in signature order, then one per mutated buffer;
// its outputs the user outputs in order, then each mutated buffer's new
// value. Parameters, buffers and constants become initializers.
func Translate(p *ir.Program) (*Translation, error) {
	t := newTranslator(p)
	tr, err := t.program()
	if err != nil {
		return nil, err
	}
	if len(t.errs.Nodes) > 0 || len(t.errs.Other) > 0 {
		return nil, &t.errs
	}
	return tr, nil
}

// translator carries the state of one translation.
type translator struct {
	prog *ir.Program
	top  *Graph
	// used holds every ONNX name in the model: names are unique across
	// subgraphs too, so a branch never shadows a value of its parent.
	used   map[string]bool
	consts map[string]string
	// uses counts the references to each program value, across nested
	// graphs, to tell an output nobody reads from one that must be made.
	uses map[string]int
	// defs counts the graphs that define each name: a value defined in two
	// (a branch reusing its parent's names) is renamed in the nested one.
	defs map[string]int
	errs UntranslatableError
}

func newTranslator(p *ir.Program) *translator {
	t := &translator{prog: p, top: &Graph{Name: "main_graph"}, used: map[string]bool{}, consts: map[string]string{}, uses: map[string]int{}, defs: map[string]int{}}
	_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
		for _, n := range g.Nodes {
			n.ForEachInputRef(func(v string) { t.uses[v]++ })
		}
		for i := range g.Outputs {
			g.Outputs[i].ForEachRef(func(v string) { t.uses[v]++ })
		}
		for _, n := range g.Nodes {
			n.ForEachOutputRef(func(v string) { t.used[v] = true; t.defs[v]++ })
		}
		for _, v := range g.InputNames() {
			t.used[v] = true
			t.defs[v]++
		}
		return nil
	})
	return t
}

// fresh returns a name no value of the model has.
func (t *translator) fresh(base string) string {
	if base == "" {
		base = "v"
	}
	name := base
	for i := 1; t.used[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	t.used[name] = true
	return name
}

// scope maps a graph's values to ONNX names; a nested graph's scope falls
// back to its parent's, as ONNX subgraphs read outer values by name.
type scope struct {
	parent *scope
	path   string
	ig     *ir.Graph
	g      *Graph
	names  map[string]string
	// memo holds values made once and reused by later nodes of this graph
	// and its branches: a size list built from scalars, keyed by its parts.
	memo map[string]string
}

func (s *scope) recall(key string) (string, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.memo[key]; ok {
			return v, true
		}
	}
	return "", false
}

func (s *scope) remember(key, v string) {
	if s.memo == nil {
		s.memo = map[string]string{}
	}
	s.memo[key] = v
}

func (s *scope) lookup(v string) (string, bool) {
	for ; s != nil; s = s.parent {
		if n, ok := s.names[v]; ok {
			return n, true
		}
	}
	return "", false
}

func (t *translator) program() (*Translation, error) {
	p := t.prog
	if len(p.Signature.Inputs) != len(p.Graph.Inputs) {
		return nil, fmt.Errorf("the graph has %d inputs but its signature %d", len(p.Graph.Inputs), len(p.Signature.Inputs))
	}
	top := &scope{ig: p.Graph, g: t.top, names: map[string]string{}}
	tr := &Translation{}
	t.programInputs(top, tr)
	t.graph(top)
	t.programOutputs(top, tr)
	tr.Model = &Model{
		IRVersion:    IRVersion,
		OpsetImports: []OpsetID{{Version: Opset}},
		ProducerName: Producer,
		Graph:        t.top,
	}
	return tr, nil
}

// programInputs makes the user inputs graph inputs (in signature order),
// the weights initializers (named by their state-dict names where free),
// and each mutated buffer an input after the user ones, defaulting to its
// initializer.
func (t *translator) programInputs(top *scope, tr *Translation) {
	p, g := t.prog, t.prog.Graph
	mutated := map[string]bool{}
	for _, o := range p.Signature.Outputs {
		if o.Kind == ir.OutputBufferMutation {
			mutated[o.Target] = true
		}
	}
	var state []Port
	var stateInfo []*ValueInfo
	for i, s := range p.Signature.Inputs {
		name := s.PlaceholderName()
		switch s.Kind {
		case ir.InputUser:
			if name == "" { // a constant user input: nothing to feed
				continue
			}
			vi, err := t.valueInfo(g, name, name)
			if err != nil {
				t.errs.Other = append(t.errs.Other, fmt.Sprintf("input %s: %v", name, err))
				continue
			}
			top.names[name] = name
			t.top.Inputs = append(t.top.Inputs, vi)
			tr.Inputs = append(tr.Inputs, Port{Name: name, Role: UserValue, Value: name, Kind: g.TypeOf(name)})
		case ir.InputParameter, ir.InputBuffer, ir.InputTensorConstant:
			mut := mutated[s.Target] && s.Kind == ir.InputBuffer
			if t.uses[name] == 0 && !mut {
				continue // a weight nothing reads (a tied one, a pooler left unused)
			}
			init, err := t.weight(s.Target, name)
			if err != nil {
				t.errs.Other = append(t.errs.Other, fmt.Sprintf("input %s (%s): %v", name, s.Target, err))
				continue
			}
			top.names[name] = init.Name
			t.top.Initializers = append(t.top.Initializers, init)
			if mut {
				vi, err := t.valueInfo(g, name, init.Name)
				if err != nil {
					t.errs.Other = append(t.errs.Other, fmt.Sprintf("buffer %s: %v", s.Target, err))
					continue
				}
				state = append(state, Port{Name: init.Name, Role: BufferState, Value: name, Target: s.Target, Kind: ir.ValueTensor})
				stateInfo = append(stateInfo, vi)
			}
		case ir.InputConstant:
			if s.Name != "" && t.uses[s.Name] > 0 {
				a := g.Inputs[i]
				c, err := t.literal(&a)
				if err != nil {
					t.errs.Other = append(t.errs.Other, fmt.Sprintf("constant input %s: %v", s.Name, err))
					continue
				}
				top.names[s.Name] = c
			}
		default:
			t.errs.Other = append(t.errs.Other, fmt.Sprintf("input %s: %s inputs have no ONNX form", name, s.Kind))
		}
	}
	tr.Inputs = append(tr.Inputs, state...)
	t.top.Inputs = append(t.top.Inputs, stateInfo...)
}

// programOutputs makes the user outputs graph outputs in order, then each
// mutated buffer's new value.
func (t *translator) programOutputs(top *scope, tr *Translation) {
	p, g := t.prog, t.prog.Graph
	outs := t.outputs(top, g.Outputs)
	var state []Port
	var stateInfo []*ValueInfo
	for i, o := range p.Signature.Outputs {
		if i >= len(outs) || outs[i] == nil {
			continue
		}
		switch o.Kind {
		case ir.OutputUser:
			t.top.Outputs = append(t.top.Outputs, outs[i])
			tr.Outputs = append(tr.Outputs, Port{Name: outs[i].Name, Role: UserValue, Value: o.Arg.Name, Kind: g.TypeOf(o.Arg.Name)})
		case ir.OutputBufferMutation:
			outs[i].Metadata = append(outs[i].Metadata, StringPair{"seam.buffer_mutation", o.Target})
			state = append(state, Port{Name: outs[i].Name, Role: BufferState, Value: o.Arg.Name, Target: o.Target, Kind: ir.ValueTensor})
			stateInfo = append(stateInfo, outs[i])
		default:
			t.errs.Other = append(t.errs.Other, fmt.Sprintf("output %s: %s outputs have no ONNX form", o.Arg.Name, o.Kind))
		}
	}
	tr.Outputs = append(tr.Outputs, state...)
	t.top.Outputs = append(t.top.Outputs, stateInfo...)
}

// outputs makes each graph output a value of its own, named after the
// program value where that name is free (a graph input, an initializer or
// a value returned twice gets an Identity).
func (t *translator) outputs(s *scope, args []ir.Argument) []*ValueInfo {
	vis := make([]*ValueInfo, len(args))
	taken := map[string]bool{}
	for i := range args {
		a := &args[i]
		var src string
		if a.Name == "" || a.Kind == ir.ArgNone {
			if a.Kind == ir.ArgNone || a.Kind == ir.ArgTensor {
				t.errs.Other = append(t.errs.Other, fmt.Sprintf("output %d is None, which ONNX cannot return", i))
				continue
			}
			c, err := t.literal(a)
			if err != nil {
				t.errs.Other = append(t.errs.Other, fmt.Sprintf("output %d: %v", i, err))
				continue
			}
			src = c
		} else {
			n, ok := s.lookup(a.Name)
			if !ok {
				t.errs.Other = append(t.errs.Other, fmt.Sprintf("output %s is not computed by the graph", a.Name))
				continue
			}
			src = n
		}
		name := src
		if t.isGraphInputOrInit(name) || taken[name] || s.parent != nil && !t.definedIn(s, name) {
			name = t.fresh(a.Name + "_out")
			if a.Name == "" {
				name = t.fresh(fmt.Sprintf("output_%d", i))
			}
			s.g.Nodes = append(s.g.Nodes, &Node{OpType: "Identity", Inputs: []string{src}, Outputs: []string{name}, Name: name})
		}
		taken[name] = true
		vi, err := t.valueInfo(s.ig, a.Name, name)
		if err != nil {
			vi = &ValueInfo{Name: name}
		}
		vis[i] = vi
	}
	return vis
}

func (t *translator) isGraphInputOrInit(name string) bool {
	for _, in := range t.top.Inputs {
		if in.Name == name {
			return true
		}
	}
	for _, init := range t.top.Initializers {
		if init.Name == name {
			return true
		}
	}
	return false
}

// definedIn reports whether a node of the scope's own graph makes name
// (a subgraph output must be made inside the subgraph).
func (t *translator) definedIn(s *scope, name string) bool {
	for _, n := range s.g.Nodes {
		for _, o := range n.Outputs {
			if o == name {
				return true
			}
		}
	}
	return false
}

// graph translates the nodes of one graph into s.g.
func (t *translator) graph(s *scope) {
	for _, n := range s.ig.Nodes {
		t.node(s, n)
	}
}

// valueInfo describes a program value as an ONNX graph input or output.
func (t *translator) valueInfo(g *ir.Graph, value, name string) (*ValueInfo, error) {
	return valueInfo(g, value, name)
}

// valueInfo describes a program value of graph g as the graph input or
// output named name.
func valueInfo(g *ir.Graph, value, name string) (*ValueInfo, error) {
	switch g.TypeOf(value) {
	case ir.ValueTensor:
		m := g.TensorValues[value]
		dt, err := dataType(m.DType)
		if err != nil {
			return nil, err
		}
		shape := make([]Dim, len(m.Sizes))
		for i, s := range m.Sizes {
			shape[i] = dim(s)
		}
		return &ValueInfo{Name: name, Type: &TensorType{ElemType: dt, Shape: shape, HasShape: true}}, nil
	case ir.ValueSymInt, ir.ValueSymBool, ir.ValueSymFloat:
		return &ValueInfo{Name: name, Type: &TensorType{ElemType: scalarType(g.TypeOf(value)), Shape: []Dim{}, HasShape: true}}, nil
	case ir.ValueUnknown:
		if value == "" {
			return &ValueInfo{Name: name}, nil
		}
	}
	return nil, fmt.Errorf("%s is a %s, which has no ONNX form", value, g.TypeOf(value))
}

// dim is a size as an ONNX dimension: a symbol's name for a bare symbol,
// the expression's text for a compound one (2*s0).
func dim(s ir.SymInt) Dim {
	if s.Expr == nil {
		return Known(s.Int)
	}
	e, err := sym.Parse(s.Expr.Expr)
	if err != nil {
		return Symbolic(s.Expr.Expr)
	}
	return Symbolic(e.String())
}

// scalarType is the element type of a symbolic scalar's rank-0 tensor, as
// the dynamo exporter makes them.
func scalarType(t ir.ValueType) DataType {
	switch t {
	case ir.ValueSymBool:
		return Bool
	case ir.ValueSymFloat:
		return Float
	}
	return Int64
}

var dataTypes = map[ir.ScalarType]DataType{
	ir.Float32: Float, ir.Float64: Double, ir.Float16: Float16, ir.BFloat16: BFloat16,
	ir.Int64: Int64, ir.Int32: Int32, ir.Int16: Int16, ir.Int8: Int8, ir.Uint8: Uint8,
	ir.Bool: Bool, ir.Uint16: Uint16, ir.Complex64: Complex64, ir.Complex128: Complex128,
}

// dataType maps a program dtype to an ONNX element type.
func dataType(t ir.ScalarType) (DataType, error) {
	if d, ok := dataTypes[t]; ok && d != Complex64 && d != Complex128 {
		return d, nil
	}
	return Undefined, fmt.Errorf("dtype %s has no ONNX element type seam translates", t.Short())
}

// weight reads a parameter, buffer or constant as an initializer.
func (t *translator) weight(fqn, placeholder string) (*Tensor, error) {
	w, ok := t.prog.Weight(fqn)
	if !ok {
		return nil, fmt.Errorf("the program has no weight %s", fqn)
	}
	if w.UsePickle || w.Meta == nil {
		return nil, fmt.Errorf("pickled weights (tensor subclasses, custom objects) have no ONNX form")
	}
	m := w.Meta
	dt, err := dataType(m.DType)
	if err != nil {
		return nil, err
	}
	sizes, strides := make([]int, len(m.Sizes)), make([]int, len(m.Strides))
	dims := make([]int64, len(m.Sizes))
	for i, s := range m.Sizes {
		if s.Expr != nil {
			return nil, fmt.Errorf("a weight with a symbolic size")
		}
		sizes[i], dims[i] = int(s.Int), s.Int
	}
	for i, s := range m.Strides {
		strides[i] = int(s.Int)
	}
	data, err := w.ReadAll()
	if err != nil {
		return nil, err
	}
	var raw []byte
	if n := tensor.Numel(sizes); n > 0 {
		x, err := tensor.FromBytes(tensor.DType(m.DType), sizes, strides, int(m.StorageOffset.Int), data)
		if err != nil {
			return nil, err
		}
		raw, err = contiguousBytes(x)
		if err != nil {
			return nil, err
		}
	}
	name := fqn
	if t.used[name] || name == "" {
		name = t.fresh(placeholder)
	}
	t.used[name] = true
	return &Tensor{Name: name, DataType: dt, Dims: dims, RawData: raw}, nil
}

// contiguousBytes is a tensor's elements in row-major order.
func contiguousBytes(x *tensor.Tensor) ([]byte, error) {
	c, err := tensor.Contiguous(x)
	if err != nil {
		return nil, err
	}
	es := c.DType().Size()
	b := c.Storage().Bytes()
	return b[c.Offset()*es : (c.Offset()+c.Numel())*es], nil
}

// node translates one node, recording it as untranslatable on failure.
// The outputs of a failed node are still named, so that its consumers are
// translated (and judged) on their own.
func (t *translator) node(s *scope, n *ir.Node) {
	c, err := t.newCall(s, n)
	if err == nil {
		fn, ok := table[n.OpName()]
		if !ok {
			err = errNoTranslation
			if why, ok := untranslatable[n.OpName()]; ok {
				err = errors.New(why)
			}
		} else {
			err = fn(c)
		}
	}
	if err != nil {
		t.errs.Nodes = append(t.errs.Nodes, NodeError{Graph: s.path, Node: n.Name, Target: n.Target, Reason: err.Error()})
		n.ForEachOutputRef(func(v string) {
			if _, ok := s.names[v]; !ok {
				s.names[v] = t.fresh(v)
			}
		})
	}
}

var errNoTranslation = errors.New("no ONNX translation for this op")

// untranslatable says why some ops have no translation.
var untranslatable = map[string]string{
	"aten.sym_stride.int":             "ONNX tensors have no strides",
	"aten.sym_storage_offset.default": "ONNX tensors have no storage offsets",
	"aten.nonzero.default":            "its output size depends on the data",
	"higher_order.while_loop":         "while_loop is not translated (ONNX Loop would be its form)",
}

// Ops lists the targets (without `torch.ops.`) that have a translation.
func Ops() []string {
	out := make([]string, 0, len(table))
	for k := range table {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

package onnx

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/value"
)

// call is one node being translated: its arguments bound to the op's
// schema (defaults filled in), and what it has emitted so far.
type call struct {
	t      *translator
	s      *scope
	n      *ir.Node
	schema *ops.Schema
	args   []ir.Argument // in schema order; positional order without a schema
	k      int           // ONNX nodes emitted, for their names
}

var errSymbolic = errors.New("needs a constant here, got a symbolic value")

func (t *translator) newCall(s *scope, n *ir.Node) (*call, error) {
	c := &call{t: t, s: s, n: n}
	sch, ok := ops.Lookup(n.Target)
	if !ok {
		for i := range n.Inputs {
			c.args = append(c.args, n.Inputs[i].Arg)
		}
		return c, nil
	}
	c.schema = sch
	c.args = make([]ir.Argument, len(sch.Args))
	set := make([]bool, len(sch.Args))
	pos := 0
	for i := range n.Inputs {
		in := &n.Inputs[i]
		idx := -1
		if in.Name != "" {
			if j, ok := sch.ArgIndex(in.Name); ok {
				idx = j
			} else if in.Kind == ir.KindKeyword {
				return nil, fmt.Errorf("%s has no argument %q", sch.Target(), in.Name)
			}
		}
		if idx < 0 {
			for pos < len(sch.Args) && set[pos] {
				pos++
			}
			if pos >= len(sch.Args) {
				if len(sch.Args) > 0 && sch.Args[len(sch.Args)-1].Type.Variadic {
					c.args = append(c.args, in.Arg)
					continue
				}
				return nil, fmt.Errorf("too many arguments for %s", sch.Target())
			}
			idx = pos
		}
		if set[idx] {
			return nil, fmt.Errorf("argument %q given twice", sch.Args[idx].Name)
		}
		c.args[idx], set[idx] = in.Arg, true
	}
	for i, a := range sch.Args {
		if set[i] || a.Type.Variadic {
			continue
		}
		if !a.HasDefault && !a.Type.Optional {
			return nil, fmt.Errorf("missing argument %q", a.Name)
		}
		c.args[i] = defaultArg(a.Default)
	}
	return c, nil
}

// defaultArg is a schema default as an argument.
func defaultArg(v value.Value) ir.Argument {
	switch v.Kind() {
	case value.Int:
		return ir.IntArg(v.Int())
	case value.Double:
		return ir.FloatArg(v.Double())
	case value.Bool:
		return ir.BoolArg(v.Bool())
	case value.IntList:
		return ir.IntsArg(append([]int64{}, v.Ints()...))
	case value.String:
		return ir.StringArg(v.Str())
	case value.ScalarType:
		return ir.ScalarTypeArg(ir.ScalarType(v.ScalarType()))
	}
	return ir.NoneArg()
}

// arg finds an argument by schema name (or position, as "#0", without a schema).
func (c *call) arg(name string) *ir.Argument {
	if c.schema != nil {
		if i, ok := c.schema.ArgIndex(name); ok && i < len(c.args) {
			return &c.args[i]
		}
	}
	var i int
	if _, err := fmt.Sscanf(name, "#%d", &i); err == nil && i >= 0 && i < len(c.args) {
		return &c.args[i]
	}
	return &ir.Argument{Kind: ir.ArgNone}
}

func (c *call) isNone(name string) bool {
	a := c.arg(name)
	return a.Kind == ir.ArgNone || (a.Kind == ir.ArgOptionalTensor && a.Name == "")
}

// value looks a program value up in the scopes.
func (c *call) value(v string) (string, error) {
	if n, ok := c.s.lookup(v); ok {
		return n, nil
	}
	return "", fmt.Errorf("value %s is not defined before its use", v)
}

// tensor is the ONNX name of a tensor argument.
func (c *call) tensor(name string) (string, error) {
	a := c.arg(name)
	if (a.Kind != ir.ArgTensor && a.Kind != ir.ArgOptionalTensor) || a.Name == "" {
		return "", fmt.Errorf("argument %s: want a tensor, got %s", name, a.Kind)
	}
	return c.value(a.Name)
}

// meta is a tensor argument's metadata.
func (c *call) meta(name string) (*ir.TensorMeta, error) {
	a := c.arg(name)
	m, ok := c.s.ig.TensorValues[a.Name]
	if !ok || m == nil {
		return nil, fmt.Errorf("argument %s: tensor %q has no metadata", name, a.Name)
	}
	return m, nil
}

// rank is a tensor argument's rank.
func (c *call) rank(name string) (int, error) {
	m, err := c.meta(name)
	if err != nil {
		return 0, err
	}
	return len(m.Sizes), nil
}

func (c *call) int(name string) (int64, error) {
	a := c.arg(name)
	switch a.Kind {
	case ir.ArgInt:
		return a.Int, nil
	case ir.ArgSymInt:
		if a.Name != "" {
			return 0, fmt.Errorf("argument %s: %w", name, errSymbolic)
		}
		return a.Int, nil
	case ir.ArgBool:
		if a.Bool {
			return 1, nil
		}
		return 0, nil
	case ir.ArgInts:
		if len(a.Ints) == 1 {
			return a.Ints[0], nil
		}
	}
	return 0, fmt.Errorf("argument %s: want an int, got %s", name, a.Kind)
}

func (c *call) ints(name string) ([]int64, error) {
	v, symbolic, ok := c.arg(name).IntList()
	switch {
	case symbolic:
		return nil, fmt.Errorf("argument %s: %w", name, errSymbolic)
	case !ok:
		return nil, fmt.Errorf("argument %s: want a list of ints, got %s", name, c.arg(name).Kind)
	}
	return v, nil
}

func (c *call) float(name string) (float64, error) {
	a := c.arg(name)
	switch a.Kind {
	case ir.ArgFloat:
		return a.Float, nil
	case ir.ArgInt:
		return float64(a.Int), nil
	case ir.ArgSymFloat, ir.ArgSymInt:
		if a.Name != "" {
			return 0, fmt.Errorf("argument %s: %w", name, errSymbolic)
		}
		if a.Kind == ir.ArgSymInt {
			return float64(a.Int), nil
		}
		return a.Float, nil
	}
	return 0, fmt.Errorf("argument %s: want a float, got %s", name, a.Kind)
}

func (c *call) bool(name string) (bool, error) {
	a := c.arg(name)
	switch a.Kind {
	case ir.ArgBool:
		return a.Bool, nil
	case ir.ArgSymBool:
		if a.Name == "" {
			return a.Bool, nil
		}
		return false, fmt.Errorf("argument %s: %w", name, errSymbolic)
	case ir.ArgNone:
		return false, nil
	}
	return false, fmt.Errorf("argument %s: want a bool, got %s", name, a.Kind)
}

func (c *call) str(name string) (string, bool) {
	a := c.arg(name)
	return a.Str, a.Kind == ir.ArgString
}

// dtype is a ScalarType argument, false when None.
func (c *call) dtype(name string) (DataType, bool, error) {
	a := c.arg(name)
	if a.Kind != ir.ArgScalarType {
		return Undefined, false, nil
	}
	dt, err := dataType(ir.ScalarType(a.Int))
	return dt, true, err
}

// dim normalises a dim argument against a rank.
func (c *call) dim(name string, rank int) (int64, error) {
	d, err := c.int(name)
	if err != nil {
		return 0, err
	}
	return wrapDim(d, rank)
}

func wrapDim(d int64, rank int) (int64, error) {
	r := int64(rank)
	if r == 0 {
		r = 1 // a scalar takes dim 0 and -1, as in torch
	}
	if d < -r || d >= r {
		return 0, fmt.Errorf("dim %d out of range for rank %d", d, rank)
	}
	if d < 0 {
		d += r
	}
	return d, nil
}

// tensorDim reads a tensor argument, its rank, and a dim argument
// normalised against that rank.
func (c *call) tensorDim(tensorArg, dimArg string) (string, int, int64, error) {
	x, err := c.tensor(tensorArg)
	if err != nil {
		return "", 0, 0, err
	}
	r, err := c.rank(tensorArg)
	if err != nil {
		return "", 0, 0, err
	}
	d, err := c.dim(dimArg, r)
	return x, r, d, err
}

// inOutType reads arguments (tensors or numbers) cast to output 0's type,
// in which elementwise ops compute.
func (c *call) inOutType(names ...string) ([]string, DataType, error) {
	dt, err := c.outType(0)
	if err != nil {
		return nil, 0, err
	}
	out := make([]string, len(names))
	for i, n := range names {
		o, err := c.operand(n)
		if err != nil {
			return nil, 0, err
		}
		out[i] = c.as(o, dt)
	}
	return out, dt, nil
}

// intValue is an int argument (literal or SymInt) as a rank-0 INT64 value.
func (c *call) intValue(name string) (string, error) {
	return c.scalarInt(c.arg(name), name)
}

func (c *call) scalarInt(a *ir.Argument, what string) (string, error) {
	switch a.Kind {
	case ir.ArgInt:
		return c.t.i64(a.Int), nil
	case ir.ArgSymInt:
		if a.Name == "" {
			return c.t.i64(a.Int), nil
		}
		v, err := c.value(a.Name)
		if err != nil {
			return "", err
		}
		return c.castTo(v, c.typeOf(a.Name), Int64), nil
	case ir.ArgTensor:
		// A rank-0 integer tensor where an int is expected.
		v, err := c.value(a.Name)
		if err != nil {
			return "", err
		}
		return c.castTo(v, c.typeOf(a.Name), Int64), nil
	}
	return "", fmt.Errorf("%s: want an int, got %s", what, a.Kind)
}

// sizes is an int list argument (constants and SymInts) as a 1-D INT64
// tensor: a constant when every element is, else a Concat.
func (c *call) sizes(name string) (string, error) {
	a := c.arg(name)
	switch a.Kind {
	case ir.ArgInts:
		return c.t.i64s(a.Ints...), nil
	case ir.ArgInt:
		return c.t.i64s(a.Int), nil
	case ir.ArgSymInts:
	default:
		return "", fmt.Errorf("argument %s: want a list of ints, got %s", name, a.Kind)
	}
	static := true
	lits := make([]int64, len(a.List))
	for i, e := range a.List {
		if e.Name != "" {
			static = false
		}
		lits[i] = e.Int
	}
	if static {
		return c.t.i64s(lits...), nil
	}
	// Runs of constants become one constant each, symbols a [1] each; a
	// list made before (views of one shape recur) is made once.
	var parts []string
	var run []int64
	flush := func() {
		if len(run) > 0 {
			parts = append(parts, c.t.i64s(run...))
			run = nil
		}
	}
	for i := range a.List {
		e := &a.List[i]
		if e.Name == "" {
			run = append(run, e.Int)
			continue
		}
		flush()
		v, err := c.scalarInt(e, name)
		if err != nil {
			return "", err
		}
		key := "[1]" + v
		u, ok := c.s.recall(key)
		if !ok {
			u = c.op("Reshape", []string{v, c.t.i64s(1)})
			c.s.remember(key, u)
		}
		parts = append(parts, u)
	}
	flush()
	if len(parts) == 1 {
		return parts[0], nil
	}
	key := "concat" + strings.Join(parts, ",")
	if v, ok := c.s.recall(key); ok {
		return v, nil
	}
	v := c.op("Concat", parts, attrInt("axis", 0))
	c.s.remember(key, v)
	return v, nil
}

// typeOf is the ONNX element type of a program value.
func (c *call) typeOf(v string) DataType {
	g := c.s.ig
	switch g.TypeOf(v) {
	case ir.ValueTensor:
		if dt, err := dataType(g.TensorValues[v].DType); err == nil {
			return dt
		}
	case ir.ValueSymInt, ir.ValueSymBool, ir.ValueSymFloat:
		return scalarType(g.TypeOf(v))
	}
	return Undefined
}

// tensors is a list of tensors ("" for a None element of Tensor?[]).
func (c *call) tensors(name string) ([]string, []*ir.TensorMeta, error) {
	a := c.arg(name)
	if a.Kind != ir.ArgTensors && a.Kind != ir.ArgOptionalTensors {
		return nil, nil, fmt.Errorf("argument %s: want a list of tensors, got %s", name, a.Kind)
	}
	names := make([]string, len(a.List))
	metas := make([]*ir.TensorMeta, len(a.List))
	for i, e := range a.List {
		if e.Name == "" {
			continue
		}
		v, err := c.value(e.Name)
		if err != nil {
			return nil, nil, err
		}
		names[i], metas[i] = v, c.s.ig.TensorValues[e.Name]
	}
	return names, metas, nil
}

// out is the ONNX name of output j (of an op returning one tensor or
// scalar per output).
func (c *call) out(j int) string {
	if j >= len(c.n.Outputs) {
		return c.t.fresh(fmt.Sprintf("%s_unused_%d", c.n.Name, j))
	}
	return c.define(&c.n.Outputs[j], fmt.Sprintf("%s_unused_%d", c.n.Name, j))
}

func (c *call) define(a *ir.Argument, fallback string) string {
	if a.Name == "" {
		return c.t.fresh(fallback)
	}
	if n, ok := c.s.names[a.Name]; ok {
		return n
	}
	// Names are the program's, made unique across nested graphs.
	name := a.Name
	if c.s.parent != nil && c.t.defs[a.Name] > 1 {
		name = c.t.fresh(a.Name)
	}
	c.s.names[a.Name] = name
	return name
}

// outs is the ONNX names of a Tensor[] output.
func (c *call) outs(j int) ([]string, error) {
	if j >= len(c.n.Outputs) || c.n.Outputs[j].Kind != ir.ArgTensors {
		return nil, fmt.Errorf("output %d is not a list of tensors", j)
	}
	l := c.n.Outputs[j].List
	out := make([]string, len(l))
	for i := range l {
		out[i] = c.define(&l[i], fmt.Sprintf("%s_%d", c.n.Name, i))
	}
	return out, nil
}

// used reports whether output j is read by anything.
func (c *call) used(j int) bool {
	if j >= len(c.n.Outputs) {
		return false
	}
	n := 0
	c.n.Outputs[j].ForEachRef(func(v string) { n += c.t.uses[v] })
	return n > 0
}

// outMeta is the metadata of tensor output j.
func (c *call) outMeta(j int) (*ir.TensorMeta, error) {
	if j < len(c.n.Outputs) {
		if m, ok := c.s.ig.TensorValues[c.n.Outputs[j].Name]; ok && m != nil {
			return m, nil
		}
	}
	return nil, fmt.Errorf("output %d has no tensor metadata", j)
}

// outType is the ONNX element type of output j.
func (c *call) outType(j int) (DataType, error) {
	if j < len(c.n.Outputs) {
		if dt := c.typeOf(c.n.Outputs[j].Name); dt != Undefined {
			return dt, nil
		}
	}
	return Undefined, fmt.Errorf("output %d has no type seam can translate", j)
}

// category orders element types as type promotion does.
type category uint8

const (
	catBool category = iota
	catInt
	catFloat
)

func categoryOf(dt DataType) category {
	switch dt {
	case Bool:
		return catBool
	case Float, Double, Float16, BFloat16:
		return catFloat
	}
	return catInt
}

// operand is a value taking part in elementwise arithmetic: a tensor, or a
// Python number (wrapped: a literal or a symbolic scalar), which promotes
// as PyTorch promotes scalars.
type operand struct {
	name    string // "" for a literal not yet made
	dt      DataType
	rank    int
	wrapped bool
	lit     float64
	litInt  int64
	isInt   bool
}

// operand reads an argument that may be a tensor or a number.
func (c *call) operand(name string) (operand, error) {
	return c.operandOf(c.arg(name), name)
}

func (c *call) operandOf(a *ir.Argument, what string) (operand, error) {
	switch a.Kind {
	case ir.ArgTensor, ir.ArgOptionalTensor:
		if a.Name == "" {
			return operand{}, fmt.Errorf("%s: None where a tensor is needed", what)
		}
		v, err := c.value(a.Name)
		if err != nil {
			return operand{}, err
		}
		m := c.s.ig.TensorValues[a.Name]
		if m == nil {
			return operand{}, fmt.Errorf("%s: tensor %s has no metadata", what, a.Name)
		}
		dt, err := dataType(m.DType)
		if err != nil {
			return operand{}, err
		}
		return operand{name: v, dt: dt, rank: len(m.Sizes)}, nil
	case ir.ArgInt:
		return operand{dt: Int64, wrapped: true, litInt: a.Int, lit: float64(a.Int), isInt: true}, nil
	case ir.ArgBool:
		b := int64(0)
		if a.Bool {
			b = 1
		}
		return operand{dt: Bool, wrapped: true, litInt: b, lit: float64(b), isInt: true}, nil
	case ir.ArgFloat:
		return operand{dt: Float, wrapped: true, lit: a.Float}, nil
	case ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool:
		if a.Name == "" {
			switch a.Kind {
			case ir.ArgSymInt:
				return operand{dt: Int64, wrapped: true, litInt: a.Int, lit: float64(a.Int), isInt: true}, nil
			case ir.ArgSymFloat:
				return operand{dt: Float, wrapped: true, lit: a.Float}, nil
			}
			return c.operandOf(&ir.Argument{Kind: ir.ArgBool, Bool: a.Bool}, what)
		}
		v, err := c.value(a.Name)
		if err != nil {
			return operand{}, err
		}
		return operand{name: v, dt: c.typeOf(a.Name), wrapped: true}, nil
	}
	return operand{}, fmt.Errorf("%s: want a tensor or a number, got %s", what, a.Kind)
}

// as makes the operand a value of element type dt.
func (c *call) as(o operand, dt DataType) string {
	if o.name == "" {
		if o.isInt && categoryOf(dt) != catFloat {
			return c.t.scalar(dt, float64(o.litInt), o.litInt)
		}
		return c.t.scalar(dt, o.lit, int64(o.lit))
	}
	return c.castTo(o.name, o.dt, dt)
}

// promote is PyTorch's result type for operands: dimensioned tensors
// decide, then zero-dim tensors, then Python numbers, each tier winning
// only with a higher category (bool < int < float) than the tiers above.
func promote(os ...operand) DataType {
	tiers := [3]DataType{}
	has := [3]bool{}
	for _, o := range os {
		k := 0
		switch {
		case o.wrapped:
			k = 2
		case o.rank == 0:
			k = 1
		}
		if !has[k] {
			tiers[k], has[k] = o.dt, true
		} else {
			tiers[k] = promoteTypes(tiers[k], o.dt)
		}
	}
	if has[2] {
		// A Python number promotes as its category's default type.
		switch categoryOf(tiers[2]) {
		case catFloat:
			tiers[2] = Float
		case catInt:
			tiers[2] = Int64
		}
	}
	result, set := Undefined, false
	for k := 0; k < 3; k++ {
		if !has[k] {
			continue
		}
		if !set || categoryOf(tiers[k]) > categoryOf(result) {
			result, set = tiers[k], true
		}
	}
	return result
}

// promoteTypes is torch.promote_types for two element types.
func promoteTypes(a, b DataType) DataType {
	if a == b {
		return a
	}
	ca, cb := categoryOf(a), categoryOf(b)
	if ca != cb {
		if ca > cb {
			return a
		}
		return b
	}
	if ca == catFloat {
		if a == Double || b == Double {
			return Double
		}
		if (a == Float16 && b == BFloat16) || (a == BFloat16 && b == Float16) {
			return Float
		}
		if a == Float || b == Float {
			return Float
		}
		return a
	}
	if (a == Uint8 && b == Int8) || (a == Int8 && b == Uint8) {
		return Int16
	}
	if intSize(a) >= intSize(b) {
		return a
	}
	return b
}

func intSize(dt DataType) int {
	switch dt {
	case Int8, Uint8:
		return 1
	case Int16, Uint16:
		return 2
	case Int32, Uint32:
		return 4
	}
	return 8
}

// castTo converts v from one element type to another (no node when equal).
func (c *call) castTo(v string, from, to DataType) string {
	if from == to {
		return v
	}
	return c.op("Cast", []string{v}, attrInt("to", int64(to)))
}

// op emits one ONNX node with a fresh output and returns the output.
func (c *call) op(opType string, inputs []string, attrs ...*Attribute) string {
	return c.opN(opType, inputs, 1, attrs...)[0]
}

// opN emits a node with n fresh outputs.
func (c *call) opN(opType string, inputs []string, n int, attrs ...*Attribute) []string {
	outs := make([]string, n)
	for i := range outs {
		outs[i] = c.t.fresh(fmt.Sprintf("%s_%s", c.n.Name, opType))
	}
	c.emit(opType, inputs, outs, attrs...)
	return outs
}

// emit appends a node writing the given outputs.
func (c *call) emit(opType string, inputs, outputs []string, attrs ...*Attribute) {
	name := c.n.Name
	if c.k > 0 {
		name = fmt.Sprintf("%s/%d", c.n.Name, c.k)
	}
	c.k++
	var as []*Attribute
	for _, a := range attrs {
		if a != nil {
			as = append(as, a)
		}
	}
	c.s.g.Nodes = append(c.s.g.Nodes, &Node{OpType: opType, Inputs: inputs, Outputs: outputs, Name: name, Attrs: as})
}

// to emits a node whose single output is out (a program value's name).
func (c *call) to(out, opType string, inputs []string, attrs ...*Attribute) error {
	c.emit(opType, inputs, []string{out}, attrs...)
	return nil
}

func attrInt(name string, v int64) *Attribute { return &Attribute{Name: name, Type: AttrInt, I: v} }
func attrInts(name string, v ...int64) *Attribute {
	return &Attribute{Name: name, Type: AttrInts, Ints: append([]int64{}, v...)}
}
func attrFloat(name string, v float64) *Attribute {
	return &Attribute{Name: name, Type: AttrFloat, F: float32(v)}
}
func attrString(name, v string) *Attribute {
	return &Attribute{Name: name, Type: AttrString, S: []byte(v)}
}
func attrGraph(name string, g *Graph) *Attribute {
	return &Attribute{Name: name, Type: AttrGraph, G: g}
}

// maxInt64 is an open slice end.
const maxInt64 = math.MaxInt64

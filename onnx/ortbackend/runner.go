package ortbackend

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Runner runs a translated program (its ONNX bytes) in ONNX Runtime on
// seam's values. Before every run it binds the program's symbols from the
// inputs' sizes and checks them (ONNX Runtime does not check that two
// inputs sharing a dim_param agree). Safe for concurrent use.
type Runner struct {
	session *ort.Session
	inputs  []port
	outputs []port
	// nUser counts the user inputs (the first inputs); the rest are
	// mutable buffer state, which may be left to their defaults.
	nUser  int
	ranges map[string]sym.Range
}

// port is one graph input or output with what seam knows of it.
type port struct {
	name string
	elem onnx.DataType
	rank int
	// kind is what the program value is: a tensor, or a symbolic scalar
	// carried in a rank-0 tensor.
	kind ir.ValueType
	// dims are a tensor input's sizes (nil entries static), and where
	// names each for binding errors.
	dims   []*sym.Expr
	static []int64
	where  []string
	expr   *sym.Expr // a SymInt input's expression
}

// Options configure a runner.
type Options struct {
	// Threads is ONNX Runtime's intra-op thread count (0: one per core).
	Threads int
}

// NewRunner loads model (the bytes onnx.Translation.Model.Marshal gave
// for prog) into a session. prog supplies the inputs' symbolic sizes and
// the symbols' ranges.
func NewRunner(lib *ort.Library, model []byte, prog *ir.Program, opt Options) (*Runner, error) {
	ins, outs, err := onnx.GraphIO(model)
	if err != nil {
		return nil, fmt.Errorf("reading the model's inputs and outputs: %w", err)
	}
	r := &Runner{ranges: map[string]sym.Range{}}
	for name, rc := range prog.RangeConstraints {
		r.ranges[name] = sym.IntRangeBounds(rc.Min, rc.Max)
	}
	g := prog.Graph
	users := map[string]bool{}
	for _, s := range prog.UserInputs() {
		users[s.Arg.Name] = true
	}
	for _, vi := range ins {
		p, err := newPort(vi)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", vi.Name, err)
		}
		if users[vi.Name] {
			r.nUser++
			if err := p.describe(g, vi.Name); err != nil {
				return nil, err
			}
		}
		r.inputs = append(r.inputs, p)
	}
	for i, p := range r.inputs[:r.nUser] {
		if !users[p.name] {
			return nil, fmt.Errorf("input %d (%s) follows the buffer state; user inputs come first", i, p.name)
		}
	}
	for _, vi := range outs {
		p, err := newPort(vi)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", vi.Name, err)
		}
		r.outputs = append(r.outputs, p)
	}
	names := func(ps []port) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.name
		}
		return out
	}
	r.session, err = lib.NewSession(model, names(r.inputs), names(r.outputs), ort.SessionOptions{IntraOpThreads: opt.Threads, InterOpThreads: 1})
	if err != nil {
		return nil, err
	}
	return r, nil
}

func newPort(vi *onnx.ValueInfo) (port, error) {
	if vi.Type == nil || !vi.Type.HasShape {
		return port{}, fmt.Errorf("no tensor type with a shape")
	}
	if _, ok := dtypeOf[vi.Type.ElemType]; !ok {
		return port{}, fmt.Errorf("element type %s is not one seam has", vi.Type.ElemType)
	}
	return port{name: vi.Name, elem: vi.Type.ElemType, rank: len(vi.Type.Shape), kind: ir.ValueTensor}, nil
}

// describe records what the program says of a user input: its kind and
// its symbolic sizes.
func (p *port) describe(g *ir.Graph, name string) error {
	p.kind = g.TypeOf(name)
	switch p.kind {
	case ir.ValueTensor:
		m := g.TensorValues[name]
		p.dims = make([]*sym.Expr, len(m.Sizes))
		p.static = make([]int64, len(m.Sizes))
		p.where = make([]string, len(m.Sizes))
		for d, s := range m.Sizes {
			p.where[d] = fmt.Sprintf("input %s dim %d", name, d)
			p.static[d] = s.Int
			if s.Expr != nil {
				e, err := sym.Parse(s.Expr.Expr)
				if err != nil {
					return fmt.Errorf("input %s dim %d: %w", name, d, err)
				}
				p.dims[d] = e
			}
		}
	case ir.ValueSymInt:
		if s := g.SymIntValues[name]; s.Expr != nil {
			e, err := sym.Parse(s.Expr.Expr)
			if err != nil {
				return fmt.Errorf("input %s: %w", name, err)
			}
			p.expr = e
		}
	}
	return nil
}

// InputNames lists the graph's inputs: the user inputs, then the buffers.
func (r *Runner) InputNames() []string {
	out := make([]string, len(r.inputs))
	for i, p := range r.inputs {
		out[i] = p.name
	}
	return out
}

// NumUserInputs is how many of the inputs are user inputs.
func (r *Runner) NumUserInputs() int { return r.nUser }

// Close releases the session.
func (r *Runner) Close() { r.session.Close() }

// Run runs the model: inputs are the user inputs in order, optionally
// followed by every buffer's state; outputs are every graph output (user
// outputs, then new buffer states), scalars as Int, Double or Bool.
func (r *Runner) Run(inputs []value.Value) ([]value.Value, error) {
	ins := r.inputs
	if len(inputs) == r.nUser {
		ins = r.inputs[:r.nUser]
	} else if len(inputs) != len(r.inputs) {
		return nil, fmt.Errorf("the model takes %d user inputs (and %d buffers), got %d values", r.nUser, len(r.inputs)-r.nUser, len(inputs))
	}
	if err := r.bind(inputs); err != nil {
		return nil, err
	}
	feeds := make([]ort.Tensor, len(ins))
	for i, p := range ins {
		t, err := p.feed(inputs[i])
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", p.name, err)
		}
		feeds[i] = t
	}
	made := make([]*tensor.Tensor, len(r.outputs))
	alloc := func(j int, typ ort.ElementType, shape []int64) ([]byte, error) {
		dt, ok := dtypeOf[onnx.DataType(typ)]
		if !ok {
			return nil, fmt.Errorf("element type %d", typ)
		}
		sizes := make([]int, len(shape))
		for i, s := range shape {
			sizes[i] = int(s)
		}
		t, err := tensor.New(dt, sizes...)
		if err != nil {
			return nil, err
		}
		made[j] = t
		es := dt.Size()
		return t.Storage().Bytes()[t.Offset()*es : (t.Offset()+t.Numel())*es], nil
	}
	outs, err := r.session.Run(feeds, alloc)
	if err != nil {
		return nil, err
	}
	vals := make([]value.Value, len(outs))
	for j := range outs {
		vals[j] = value.FromTensor(made[j])
	}
	return vals, nil
}

// bind binds every symbol of the user inputs' sizes (and SymInt inputs)
// and checks each against its range and the other sources.
func (r *Runner) bind(inputs []value.Value) error {
	b := sym.NewBinder(r.ranges)
	for i, p := range r.inputs[:r.nUser] {
		v := inputs[i]
		switch p.kind {
		case ir.ValueTensor:
			t, err := v.AsTensor()
			if err != nil {
				return fmt.Errorf("input %s: want a tensor, got %s", p.name, v.Kind())
			}
			if t.Dim() != len(p.dims) {
				return fmt.Errorf("input %s: %d dims, want %d", p.name, t.Dim(), len(p.dims))
			}
			for d, e := range p.dims {
				actual := int64(t.Size(d))
				if e == nil {
					if actual != p.static[d] {
						return fmt.Errorf("input %s: dim %d is %d, want %d", p.name, d, actual, p.static[d])
					}
					continue
				}
				if err := b.Bind(e, actual, p.where[d]); err != nil {
					return fmt.Errorf("input %s: %w", p.name, err)
				}
			}
		case ir.ValueSymInt:
			n, err := v.AsInt()
			if err != nil {
				return fmt.Errorf("input %s: want an int (SymInt), got %s", p.name, v.Kind())
			}
			if p.expr != nil {
				if err := b.Bind(p.expr, n, "input "+p.name); err != nil {
					return fmt.Errorf("input %s: %w", p.name, err)
				}
			}
		}
	}
	_, err := b.Finish()
	return err
}

// feed turns a value into the tensor ONNX Runtime takes for this port.
func (p *port) feed(v value.Value) (ort.Tensor, error) {
	var t *tensor.Tensor
	switch v.Kind() {
	case value.Tensor:
		t = v.Tensor()
	case value.Int:
		t = tensor.Scalar(v.Int())
	case value.Double:
		t = tensor.Scalar(v.Double())
	case value.Bool:
		t = tensor.Scalar(v.Bool())
	default:
		return ort.Tensor{}, fmt.Errorf("a %s has no ONNX form", v.Kind())
	}
	want := dtypeOf[p.elem]
	if t.DType() != want {
		if v.Kind() == value.Tensor {
			return ort.Tensor{}, fmt.Errorf("a %s tensor where the model takes %s", t.DType(), want)
		}
		// A Python number takes the element type of its rank-0 tensor.
		c, err := tensor.New(want)
		if err != nil {
			return ort.Tensor{}, err
		}
		if err := tensor.Copy(c, t); err != nil {
			return ort.Tensor{}, err
		}
		t = c
	}
	if t.Dim() != p.rank {
		return ort.Tensor{}, fmt.Errorf("%d dims where the model takes %d", t.Dim(), p.rank)
	}
	if !t.IsContiguous() {
		c, err := tensor.Contiguous(t)
		if err != nil {
			return ort.Tensor{}, err
		}
		t = c
	}
	es := t.DType().Size()
	shape := make([]int64, t.Dim())
	for i, s := range t.Sizes() {
		shape[i] = int64(s)
	}
	return ort.Tensor{Type: ort.ElementType(p.elem), Shape: shape, Data: t.Storage().Bytes()[t.Offset()*es : (t.Offset()+t.Numel())*es]}, nil
}

// dtypeOf maps the element types seam passes to its dtypes.
var dtypeOf = map[onnx.DataType]tensor.DType{
	onnx.Float: tensor.Float32, onnx.Double: tensor.Float64, onnx.Float16: tensor.Float16, onnx.BFloat16: tensor.BFloat16,
	onnx.Int64: tensor.Int64, onnx.Int32: tensor.Int32, onnx.Int16: tensor.Int16, onnx.Int8: tensor.Int8,
	onnx.Uint8: tensor.Uint8, onnx.Bool: tensor.Bool,
}

package ortbackend_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort"
	"github.com/seam-rt/seam/onnx/ort/orttest"
	"github.com/seam-rt/seam/onnx/ortbackend"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Each translation is checked against seam's own kernels (which the
// kernels' tests check against PyTorch): a one-node program runs in seam's
// runtime, its outputs give the program its output metadata, and the
// translated program must compute the same in ONNX Runtime.

// a is one named argument of a case: a *tensor.Tensor (a user input),
// []*tensor.Tensor, optTensors, an int, float64, bool, string, []int64,
// nil (None), an ir.ScalarType, or a symbolic user input (symInt,
// symFloat, symBool).
type a struct {
	name string
	v    any
}

type (
	symInt     int64
	symFloat   float64
	symBool    bool
	optTensors []*tensor.Tensor // nil entries are None
)

type opCase struct {
	name   string
	target string
	args   []a
	// outs is the output count; list outputs a Tensor[] of that many.
	outs int
	list bool
	// ref, when set, is an equivalent op with a seam kernel that gives
	// the expected outputs (for ops seam's runtime runs only decomposed).
	ref *opCase
	// want gives the expected outputs by hand instead.
	want []*tensor.Tensor
	// shapeOnly compares dtypes and shapes only (empty's contents are
	// unspecified).
	shapeOnly bool
	// noOutput: the op returns nothing (a check); the program returns its
	// first input.
	noOutput bool
}

var rng = rand.New(rand.NewPCG(1, 2))

// randn is a float32 tensor of values in [-2, 2).
func randn(sizes ...int) *tensor.Tensor {
	n := tensor.Numel(sizes)
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.Float64()*4 - 2)
	}
	t, _ := tensor.FromSlice(v, sizes...)
	return t
}

// positive is a float32 tensor of values in [0.5, 2.5).
func positive(sizes ...int) *tensor.Tensor {
	n := tensor.Numel(sizes)
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.Float64()*2 + 0.5)
	}
	t, _ := tensor.FromSlice(v, sizes...)
	return t
}

// ints is an int64 tensor of values in [lo, hi).
func ints(lo, hi int64, sizes ...int) *tensor.Tensor {
	n := tensor.Numel(sizes)
	v := make([]int64, n)
	for i := range v {
		v[i] = lo + rng.Int64N(hi-lo)
	}
	t, _ := tensor.FromSlice(v, sizes...)
	return t
}

func bools(sizes ...int) *tensor.Tensor {
	n := tensor.Numel(sizes)
	v := make([]bool, n)
	for i := range v {
		v[i] = rng.IntN(2) == 1
	}
	t, _ := tensor.FromSlice(v, sizes...)
	return t
}

func f32s(v []float32, sizes ...int) *tensor.Tensor {
	t, err := tensor.FromSlice(v, sizes...)
	if err != nil {
		panic(err)
	}
	return t
}

// build makes the one-node program of a case, and its inputs.
func (c *opCase) build() (*ir.Program, []value.Value) {
	g := &ir.Graph{TensorValues: map[string]*ir.TensorMeta{}, SymIntValues: map[string]ir.SymInt{},
		SymFloatValues: map[string]ir.SymFloat{}, SymBoolValues: map[string]ir.SymBool{}}
	p := &ir.Program{Graph: g}
	var inputs []value.Value
	addInput := func(name string, t *tensor.Tensor) {
		m := &ir.TensorMeta{DType: ir.ScalarType(t.DType())}
		for _, s := range t.Sizes() {
			m.Sizes = append(m.Sizes, ir.IntSym(int64(s)))
		}
		g.TensorValues[name] = m
		g.Inputs = append(g.Inputs, ir.TensorArg(name))
		p.Signature.Inputs = append(p.Signature.Inputs, ir.InputSpec{Kind: ir.InputUser, Arg: ir.TensorArg(name)})
		inputs = append(inputs, value.FromTensor(t))
	}
	n := &ir.Node{Name: "op", Target: "torch.ops." + c.target}
	for _, arg := range c.args {
		var x ir.Argument
		switch v := arg.v.(type) {
		case *tensor.Tensor:
			addInput("in_"+arg.name, v)
			x = ir.TensorArg("in_" + arg.name)
		case []*tensor.Tensor:
			x = ir.Argument{Kind: ir.ArgTensors}
			for i, t := range v {
				name := fmt.Sprintf("in_%s_%d", arg.name, i)
				addInput(name, t)
				x.List = append(x.List, ir.TensorArg(name))
			}
		case optTensors:
			x = ir.Argument{Kind: ir.ArgOptionalTensors}
			for i, t := range v {
				e := ir.Argument{Kind: ir.ArgOptionalTensor}
				if t != nil {
					e.Name = fmt.Sprintf("in_%s_%d", arg.name, i)
					addInput(e.Name, t)
				}
				x.List = append(x.List, e)
			}
		case symInt, symFloat, symBool:
			name := "in_" + arg.name
			expr := &ir.SymExpr{Expr: fmt.Sprintf("Symbol('s_%s', integer=True)", arg.name)}
			switch v := v.(type) {
			case symInt:
				g.SymIntValues[name] = ir.SymInt{Expr: expr}
				x = ir.SymIntRef(name)
				inputs = append(inputs, value.FromInt(int64(v)))
			case symFloat:
				g.SymFloatValues[name] = ir.SymFloat{Expr: &ir.SymExpr{Expr: "Symbol('f_" + arg.name + "')"}}
				x = ir.SymFloatRef(name)
				inputs = append(inputs, value.FromDouble(float64(v)))
			case symBool:
				g.SymBoolValues[name] = ir.SymBool{Expr: &ir.SymExpr{Expr: "Symbol('b_" + arg.name + "')"}}
				x = ir.SymBoolRef(name)
				inputs = append(inputs, value.FromBool(bool(v)))
			}
			g.Inputs = append(g.Inputs, x)
			p.Signature.Inputs = append(p.Signature.Inputs, ir.InputSpec{Kind: ir.InputUser, Arg: x})
		case int:
			x = ir.IntArg(int64(v))
		case float64:
			x = ir.FloatArg(v)
		case bool:
			x = ir.BoolArg(v)
		case string:
			x = ir.StringArg(v)
		case []int64:
			x = ir.IntsArg(v)
		case ir.ScalarType:
			x = ir.ScalarTypeArg(v)
		case nil:
			x = ir.NoneArg()
		default:
			panic(fmt.Sprintf("argument %s: %T", arg.name, arg.v))
		}
		n.Inputs = append(n.Inputs, ir.NamedArgument{Name: arg.name, Arg: x, Kind: ir.KindPositional})
	}
	outs := max(c.outs, 1)
	if c.noOutput {
		g.Nodes = []*ir.Node{n}
		g.Outputs = []ir.Argument{g.Inputs[0]}
		p.Signature.Outputs = []ir.OutputSpec{{Kind: ir.OutputUser, Arg: g.Inputs[0]}}
		return p, inputs
	}
	if c.list {
		l := ir.Argument{Kind: ir.ArgTensors}
		for j := 0; j < outs; j++ {
			l.List = append(l.List, ir.TensorArg(fmt.Sprintf("out_%d", j)))
		}
		n.Outputs = []ir.Argument{l}
		g.Outputs = l.List
	} else {
		for j := 0; j < outs; j++ {
			n.Outputs = append(n.Outputs, ir.TensorArg(fmt.Sprintf("out_%d", j)))
		}
		g.Outputs = n.Outputs
	}
	g.Nodes = []*ir.Node{n}
	for _, o := range g.Outputs {
		p.Signature.Outputs = append(p.Signature.Outputs, ir.OutputSpec{Kind: ir.OutputUser, Arg: o})
	}
	return p, inputs
}

// reference runs a case's program in seam's runtime.
func reference(t *testing.T, c *opCase) []value.Value {
	if c.want != nil {
		var vs []value.Value
		for _, w := range c.want {
			vs = append(vs, value.FromTensor(w))
		}
		return vs
	}
	rc := c
	if c.ref != nil {
		rc = c.ref
	}
	p, in := rc.build()
	prog, err := runtime.Load(p, runtime.Options{})
	if err != nil {
		t.Fatalf("seam runtime: %v", err)
	}
	outs, err := prog.Run(context.Background(), in)
	if err != nil {
		t.Fatalf("seam runtime: %v", err)
	}
	return outs
}

func runCase(t *testing.T, lib *ort.Library, c *opCase) {
	ref := reference(t, c)
	p, in := c.build()
	g := p.Graph
	if !c.noOutput {
		// The outputs' metadata, as export would have recorded it.
		for j, w := range ref {
			name := fmt.Sprintf("out_%d", j)
			switch w.Kind() {
			case value.Int:
				g.SymIntValues[name] = ir.SymInt{Expr: &ir.SymExpr{Expr: "Symbol('r', integer=True)"}}
			case value.Double:
				g.SymFloatValues[name] = ir.SymFloat{Expr: &ir.SymExpr{Expr: "Symbol('r')"}}
			case value.Bool:
				g.SymBoolValues[name] = ir.SymBool{Expr: &ir.SymExpr{Expr: "Symbol('r')"}}
			default:
				x := w.Tensor()
				m := &ir.TensorMeta{DType: ir.ScalarType(x.DType())}
				for _, s := range x.Sizes() {
					m.Sizes = append(m.Sizes, ir.IntSym(int64(s)))
				}
				g.TensorValues[name] = m
			}
		}
	}
	tr, err := onnx.Translate(p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ortbackend.NewRunner(lib, tr.Model.Marshal(), p, ortbackend.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(ref) {
		t.Fatalf("%d outputs, want %d", len(got), len(ref))
	}
	for j := range ref {
		g := got[j].Tensor()
		if ref[j].Kind() != value.Tensor {
			// A scalar comes back as a rank-0 tensor of its ONNX type.
			w, _ := runtime.OutputTensor(ref[j])
			if g.Dim() != 0 || math.Abs(g.Float()-w.Float()) > 1e-5+1e-4*math.Abs(w.Float()) {
				t.Errorf("output %d is %v, want %v", j, g, ref[j])
			}
			continue
		}
		want := ref[j].Tensor()
		if g.DType() != want.DType() || !g.SameShape(want) {
			t.Errorf("output %d is %s, want %s", j, g.Type(), want.Type())
			continue
		}
		if c.shapeOnly {
			continue
		}
		if _, err := tensor.AllClose(g, want, 1e-4, 1e-5); err != nil {
			t.Errorf("output %d: %v", j, err)
		}
	}
}

// signed numerators and divisors in every sign combination, for the
// ops whose rounding depends on signs.
func numerators() *tensor.Tensor {
	t, _ := tensor.FromSlice([]int64{-7, -6, -1, 0, 1, 5, 7, 9, -9, 8}, 10)
	return t
}

func divisors() *tensor.Tensor {
	t, _ := tensor.FromSlice([]int64{2, -3, 3, -2, -4, -3, 2, -4, 4, 3}, 10)
	return t
}

func opCases() []opCase {
	x := randn(2, 3, 4)
	img := randn(2, 4, 6, 6)
	unary := func(op string, in *tensor.Tensor) opCase {
		return opCase{name: op, target: "aten." + op + ".default", args: []a{{"self", in}}}
	}
	var cs []opCase
	for _, op := range []string{"exp", "sin", "cos", "tanh", "sigmoid", "erf", "neg", "abs", "relu", "silu",
		"hardswish", "hardsigmoid", "floor", "ceil", "round", "sign", "atan", "sinh", "expm1", "isnan"} {
		cs = append(cs, unary(op, x))
	}
	for _, op := range []string{"log", "sqrt", "rsqrt", "reciprocal", "log1p", "log2"} {
		cs = append(cs, unary(op, positive(3, 5)))
	}
	cs = append(cs,
		unary("abs", ints(-5, 5, 7)), unary("neg", ints(-5, 5, 7)), unary("relu", ints(-5, 5, 7)),
		unary("logical_not", bools(6)), unary("bitwise_not", bools(6)), unary("bitwise_not", ints(-9, 9, 6)),
		unary("sin", ints(-3, 3, 4)), // an int input computes in float
		opCase{name: "gelu", target: "aten.gelu.default", args: []a{{"self", x}}},
		opCase{name: "gelu_tanh", target: "aten.gelu.default", args: []a{{"self", x}, {"approximate", "tanh"}}},
		opCase{name: "leaky_relu", target: "aten.leaky_relu.default", args: []a{{"self", x}, {"negative_slope", 0.1}}},
		opCase{name: "elu", target: "aten.elu.default", args: []a{{"self", x}, {"alpha", 0.7}}},
		opCase{name: "hardtanh", target: "aten.hardtanh.default", args: []a{{"self", x}, {"min_val", -0.5}, {"max_val", 1.5}}},
		opCase{name: "clamp", target: "aten.clamp.default", args: []a{{"self", x}, {"min", -0.5}, {"max", 1.0}}},
		opCase{name: "clamp_min_only", target: "aten.clamp.default", args: []a{{"self", x}, {"min", 0.25}}},
		opCase{name: "clamp_tensor", target: "aten.clamp.Tensor", args: []a{{"self", x}, {"min", randn(4)}, {"max", positive(3, 4)}}},
		opCase{name: "add_alpha", target: "aten.add.Tensor", args: []a{{"self", x}, {"other", randn(4)}, {"alpha", 2.5}}},
		opCase{name: "add_int_float", target: "aten.add.Tensor", args: []a{{"self", ints(-5, 5, 3, 4)}, {"other", 0.5}}},
		opCase{name: "add_bools", target: "aten.add.Tensor", args: []a{{"self", bools(5)}, {"other", bools(5)}}},
		opCase{name: "sub_scalar", target: "aten.sub.Tensor", args: []a{{"self", x}, {"other", 3}}},
		opCase{name: "rsub", target: "aten.rsub.Scalar", args: []a{{"self", x}, {"other", 1.0}}},
		opCase{name: "mul_broadcast", target: "aten.mul.Tensor", args: []a{{"self", x}, {"other", randn(3, 1)}}},
		opCase{name: "div_ints", target: "aten.div.Tensor", args: []a{{"self", ints(-9, 9, 6)}, {"other", ints(1, 4, 6)}}},
		opCase{name: "div_floor_ints", target: "aten.div.Tensor_mode", args: []a{{"self", numerators()}, {"other", divisors()}, {"rounding_mode", "floor"}}},
		opCase{name: "div_trunc_ints", target: "aten.div.Tensor_mode", args: []a{{"self", numerators()}, {"other", divisors()}, {"rounding_mode", "trunc"}}},
		opCase{name: "div_floor", target: "aten.div.Tensor_mode", args: []a{{"self", x}, {"other", positive(4)}, {"rounding_mode", "floor"}}},
		opCase{name: "div_trunc", target: "aten.div.Tensor_mode", args: []a{{"self", x}, {"other", positive(4)}, {"rounding_mode", "trunc"}}},
		opCase{name: "floor_divide", target: "aten.floor_divide.default", args: []a{{"self", numerators()}, {"other", divisors()}}},
		opCase{name: "remainder_ints", target: "aten.remainder.Tensor", args: []a{{"self", numerators()}, {"other", divisors()}}},
		opCase{name: "remainder", target: "aten.remainder.Scalar", args: []a{{"self", x}, {"other", 0.7}}},
		opCase{name: "fmod", target: "aten.fmod.Scalar", args: []a{{"self", x}, {"other", 0.7}}},
		opCase{name: "pow_2", target: "aten.pow.Tensor_Scalar", args: []a{{"self", x}, {"exponent", 2.0}}},
		opCase{name: "pow_half", target: "aten.pow.Tensor_Scalar", args: []a{{"self", positive(5)}, {"exponent", 0.5}}},
		opCase{name: "pow_1.7", target: "aten.pow.Tensor_Scalar", args: []a{{"self", positive(5)}, {"exponent", 1.7}}},
		opCase{name: "pow_tensor", target: "aten.pow.Tensor_Tensor", args: []a{{"self", positive(5)}, {"exponent", randn(5)}}},
		opCase{name: "pow_int", target: "aten.pow.Tensor_Scalar", args: []a{{"self", ints(-3, 3, 5)}, {"exponent", 3}}},
		opCase{name: "maximum", target: "aten.maximum.default", args: []a{{"self", x}, {"other", randn(4)}}},
		opCase{name: "minimum", target: "aten.minimum.default", args: []a{{"self", x}, {"other", randn(4)}}},
	)
	for _, op := range []string{"eq", "ne", "lt", "le", "gt", "ge"} {
		cs = append(cs,
			opCase{name: op, target: "aten." + op + ".Tensor", args: []a{{"self", ints(0, 3, 6)}, {"other", ints(0, 3, 6)}}},
			opCase{name: op + "_scalar", target: "aten." + op + ".Scalar", args: []a{{"self", x}, {"other", 0.1}}},
			opCase{name: op + "_int_float", target: "aten." + op + ".Scalar", args: []a{{"self", ints(0, 5, 6)}, {"other", 2.5}}})
	}
	cs = append(cs,
		opCase{name: "logical_and", target: "aten.logical_and.default", args: []a{{"self", ints(0, 2, 6)}, {"other", bools(6)}}},
		opCase{name: "logical_or", target: "aten.logical_or.default", args: []a{{"self", bools(6)}, {"other", bools(6)}}},
		opCase{name: "logical_xor", target: "aten.logical_xor.default", args: []a{{"self", x}, {"other", bools(4)}}},
		opCase{name: "bitwise_and", target: "aten.bitwise_and.Tensor", args: []a{{"self", bools(6)}, {"other", bools(6)}}},
		opCase{name: "bitwise_or_ints", target: "aten.bitwise_or.Tensor", args: []a{{"self", ints(0, 16, 6)}, {"other", ints(0, 16, 6)}}},
		opCase{name: "bitwise_xor_ints", target: "aten.bitwise_xor.Scalar", args: []a{{"self", ints(0, 16, 6)}, {"other", 5}}},
		opCase{name: "where", target: "aten.where.self", args: []a{{"condition", bools(3, 4)}, {"self", x}, {"other", randn(4)}}},
		opCase{name: "masked_fill", target: "aten.masked_fill.Scalar", args: []a{{"self", x}, {"mask", bools(3, 4)}, {"value", -1e9}}},
		opCase{name: "mm", target: "aten.mm.default", args: []a{{"self", randn(3, 5)}, {"mat2", randn(5, 2)}}},
		opCase{name: "bmm", target: "aten.bmm.default", args: []a{{"self", randn(2, 3, 5)}, {"mat2", randn(2, 5, 2)}}},
		opCase{name: "matmul_broadcast", target: "aten.matmul.default", args: []a{{"self", randn(2, 3, 5)}, {"other", randn(5, 2)}}},
		opCase{name: "matmul_vector", target: "aten.matmul.default", args: []a{{"self", randn(3, 5)}, {"other", randn(5)}}},
		opCase{name: "addmm", target: "aten.addmm.default", args: []a{{"self", randn(2)}, {"mat1", randn(3, 5)}, {"mat2", randn(5, 2)}}},
		opCase{name: "addmm_scaled", target: "aten.addmm.default", args: []a{{"self", randn(3, 2)}, {"mat1", randn(3, 5)}, {"mat2", randn(5, 2)}, {"beta", 0.5}, {"alpha", 2.0}}},
		opCase{name: "addmm_beta0", target: "aten.addmm.default", args: []a{{"self", randn(3, 2)}, {"mat1", randn(3, 5)}, {"mat2", randn(5, 2)}, {"beta", 0}}},
		opCase{name: "addmm_ints", target: "aten.addmm.default", args: []a{{"self", ints(-3, 3, 2)}, {"mat1", ints(-3, 3, 3, 5)}, {"mat2", ints(-3, 3, 5, 2)}}},
		opCase{name: "baddbmm", target: "aten.baddbmm.default", args: []a{{"self", randn(2, 3, 2)}, {"batch1", randn(2, 3, 5)}, {"batch2", randn(2, 5, 2)}, {"beta", 0.5}, {"alpha", 1.5}}},
		opCase{name: "linear_2d", target: "aten.linear.default", args: []a{{"input", randn(3, 5)}, {"weight", randn(4, 5)}, {"bias", randn(4)}}},
		opCase{name: "linear_3d", target: "aten.linear.default", args: []a{{"input", randn(2, 3, 5)}, {"weight", randn(4, 5)}, {"bias", randn(4)}}},
		opCase{name: "linear_no_bias", target: "aten.linear.default", args: []a{{"input", randn(2, 3, 5)}, {"weight", randn(4, 5)}}},
		opCase{name: "conv_groups", target: "aten.convolution.default", args: []a{{"input", img}, {"weight", randn(6, 2, 3, 3)}, {"bias", randn(6)},
			{"stride", []int64{2, 1}}, {"padding", []int64{1, 0}}, {"dilation", []int64{1, 2}}, {"transposed", false}, {"output_padding", []int64{0, 0}}, {"groups", 2}}},
		opCase{name: "conv_depthwise", target: "aten.convolution.default", args: []a{{"input", img}, {"weight", randn(4, 1, 3, 3)}, {"bias", nil},
			{"stride", []int64{1, 1}}, {"padding", []int64{1, 1}}, {"dilation", []int64{1, 1}}, {"transposed", false}, {"output_padding", []int64{0, 0}}, {"groups", 4}}},
		opCase{name: "conv1d", target: "aten.convolution.default", args: []a{{"input", randn(2, 3, 9)}, {"weight", randn(4, 3, 3)}, {"bias", randn(4)},
			{"stride", []int64{2}}, {"padding", []int64{1}}, {"dilation", []int64{1}}, {"transposed", false}, {"output_padding", []int64{0}}, {"groups", 1}}},
	)
	return append(cs, moreCases()...)
}

func TestOpsAgainstKernels(t *testing.T) {
	lib := orttest.Library(t)
	for _, c := range opCases() {
		c := c
		t.Run(c.name, func(t *testing.T) { runCase(t, lib, &c) })
	}
}

// TestEveryTranslationIsTested: every op in the translation table (the
// backend's contract) is run in ONNX Runtime by a case above or by a
// fixture.
func TestEveryTranslationIsTested(t *testing.T) {
	tested := map[string]bool{}
	for _, c := range opCases() {
		tested[c.target] = true
	}
	for _, f := range allFixtures() {
		p := loadProgram(t, f.dir)
		_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
			for _, n := range g.Nodes {
				tested[n.OpName()] = true
			}
			return nil
		})
	}
	for _, op := range onnx.Ops() {
		if !tested[op] {
			t.Errorf("%s has a translation but no test", op)
		}
	}
}

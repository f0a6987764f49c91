package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// fusions are the exact rewrites (results keep their bits), folds those
// that read constant weights (and round differently).
var fusions, folds = []string{"gelu", "softmax", "hardact", "poolvalues", "convact"}, []string{"foldbn", "pack"}

// fused is the options that run the fusions or not.
func fused(on bool) Options {
	if on {
		return Options{}
	}
	return Options{Disable: fusions}
}

func loadFixture(t testing.TB, model string, fuse bool) *Program {
	t.Helper()
	return loadFixtureWith(t, model, fused(fuse))
}

func loadFixtureWith(t testing.TB, model string, opt Options) *Program {
	t.Helper()
	a, err := pt2.Open(fixtures.Model(model))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	prog, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(prog, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func caseInputs(t testing.TB, model, c string) []value.Value {
	t.Helper()
	return caseInputsIn(t, filepath.Join(fixtures.ModelDir(model), "io", c))
}

// caseInputsIn reads the inputs of the case folder dir.
func caseInputsIn(t testing.TB, dir string) []value.Value {
	t.Helper()
	rc, err := npy.ReadCase(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	var in []value.Value
	for _, x := range rc.Inputs {
		in = append(in, InputValue(x))
	}
	return in
}

// fusedOps counts the steps fusion made: gelu steps placed at a mul node,
// and scaled masked softmaxes (three arguments at a _softmax node).
func fusedOps(p *Program) (gelu, softmax int) {
	for _, st := range p.plan.steps {
		name := ir.OpName(st.node.Target)
		if name == "aten.mul.Tensor" && len(st.args) == 2 && st.args[1].kind == tmplLit && st.args[1].lit.Kind() == value.String {
			gelu++
		}
		if name == "aten._softmax.default" && len(st.args) == 3 && st.args[2].kind == tmplSlot {
			softmax++
		}
	}
	return gelu, softmax
}

// Fusion finds GPT-2's gelu_new and the attention softmax in the exported
// transformers and changes no output bit.
func TestFusionKeepsResults(t *testing.T) {
	for _, c := range []struct {
		model, cases  string
		gelu, softmax int
	}{
		{"gpt2_tiny", "case0 case3", 2, 2},
		{"bert_tiny", "case1 case3", 0, 2},
		{"gpt2_l12", "case1", 12, 12},
	} {
		fused, plain := loadFixture(t, c.model, true), loadFixture(t, c.model, false)
		g, s := fusedOps(fused)
		if g != c.gelu || s != c.softmax {
			t.Errorf("%s: fused %d gelu and %d softmax, want %d and %d", c.model, g, s, c.gelu, c.softmax)
		}
		if len(fused.plan.steps) != len(plain.plan.steps)-7*g-2*s {
			t.Errorf("%s: %d steps fused, %d unfused", c.model, len(fused.plan.steps), len(plain.plan.steps))
		}
		for _, cs := range strings.Fields(c.cases) {
			in := caseInputs(t, c.model, cs)
			want, err := plain.Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := fused.Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			for j := range want {
				if !tensor.Equal(got[j].Tensor(), want[j].Tensor()) {
					t.Errorf("%s %s: output %d differs with fusion (max diff %g)", c.model, cs, j,
						tensor.MaxAbsDiff(got[j].Tensor(), want[j].Tensor()))
				}
			}
		}
	}
}

// graphBuilder writes small programs of f32 values for plan tests.
type graphBuilder struct {
	g   *ir.Graph
	sig ir.Signature
}

func newGraph() *graphBuilder {
	return &graphBuilder{g: &ir.Graph{TensorValues: map[string]*ir.TensorMeta{}}}
}

func (b *graphBuilder) meta(name string, sizes ...int64) {
	m := &ir.TensorMeta{DType: ir.Float32}
	for _, s := range sizes {
		m.Sizes = append(m.Sizes, ir.IntSym(s))
	}
	b.g.TensorValues[name] = m
}

func (b *graphBuilder) input(name string, sizes ...int64) {
	b.meta(name, sizes...)
	b.g.Inputs = append(b.g.Inputs, ir.Argument{Kind: ir.ArgTensor, Name: name})
	b.sig.Inputs = append(b.sig.Inputs, ir.InputSpec{Kind: ir.InputUser, Arg: ir.Argument{Kind: ir.ArgTensor, Name: name}})
}

// node adds name = target(args...); an arg is a value name or a float64.
func (b *graphBuilder) node(name, target string, sizes []int64, args ...any) {
	n := &ir.Node{Name: name, Target: "torch.ops." + target, Outputs: []ir.Argument{{Kind: ir.ArgTensor, Name: name}}}
	for _, a := range args {
		var arg ir.Argument
		switch a := a.(type) {
		case string:
			arg = ir.Argument{Kind: ir.ArgTensor, Name: a}
		case float64:
			arg = ir.Argument{Kind: ir.ArgFloat, Float: a}
		case int:
			arg = ir.Argument{Kind: ir.ArgInt, Int: int64(a)}
		case bool:
			arg = ir.Argument{Kind: ir.ArgBool, Bool: a}
		case nil:
			arg = ir.Argument{Kind: ir.ArgNone}
		}
		n.Inputs = append(n.Inputs, ir.NamedArgument{Arg: arg, Kind: ir.KindPositional})
	}
	b.g.Nodes = append(b.g.Nodes, n)
	b.meta(name, sizes...)
}

func (b *graphBuilder) output(name string) {
	b.g.Outputs = append(b.g.Outputs, ir.Argument{Kind: ir.ArgTensor, Name: name})
	b.sig.Outputs = append(b.sig.Outputs, ir.OutputSpec{Kind: ir.OutputUser, Arg: ir.Argument{Kind: ir.ArgTensor, Name: name}})
}

func (b *graphBuilder) program() *ir.Program { return &ir.Program{Graph: b.g, Signature: b.sig} }

// geluNew adds GPT-2's gelu_new of x, naming values after prefix.
func (b *graphBuilder) geluNew(p, x string, sizes []int64) string {
	b.node(p+"half", "aten.mul.Tensor", sizes, x, 0.5)
	b.node(p+"cube", "aten.pow.Tensor_Scalar", sizes, x, 3.0)
	b.node(p+"k", "aten.mul.Tensor", sizes, p+"cube", 0.044715)
	b.node(p+"sum", "aten.add.Tensor", sizes, x, p+"k")
	b.node(p+"inner", "aten.mul.Tensor", sizes, p+"sum", 0.7978845608028654)
	b.node(p+"tanh", "aten.tanh.default", sizes, p+"inner")
	b.node(p+"u", "aten.add.Tensor", sizes, p+"tanh", 1.0)
	b.node(p+"out", "aten.mul.Tensor", sizes, p+"half", p+"u")
	return p + "out"
}

// Patterns whose intermediates are used elsewhere, whose constants differ
// or whose mask would grow the scores are left alone, and every program
// computes the same with fusion as without.
func TestFusionOnlyWhereSafe(t *testing.T) {
	s := []int64{3, 5}
	b := newGraph()
	b.input("x", 3, 5)
	b.input("mask", 5)
	b.input("wide", 2, 3, 5)
	b.output(b.geluNew("a_", "x", s)) // fused
	b.geluNew("b_", "x", s)           // b_tanh is also an output: kept
	b.output("b_out")
	b.output("b_tanh")
	b.node("c_half", "aten.mul.Tensor", s, "x", 0.25) // not gelu_new's 0.5
	b.node("c_cube", "aten.pow.Tensor_Scalar", s, "x", 3.0)
	b.node("c_k", "aten.mul.Tensor", s, "c_cube", 0.044715)
	b.node("c_sum", "aten.add.Tensor", s, "x", "c_k")
	b.node("c_inner", "aten.mul.Tensor", s, "c_sum", 0.7978845608028654)
	b.node("c_tanh", "aten.tanh.default", s, "c_inner")
	b.node("c_u", "aten.add.Tensor", s, "c_tanh", 1.0)
	b.node("c_out", "aten.mul.Tensor", s, "c_half", "c_u")
	b.output("c_out")
	b.node("d_m", "aten.mul.Tensor", s, "x", 0.125) // fused
	b.node("d_a", "aten.add.Tensor", s, "d_m", "mask")
	b.node("d_sm", "aten._softmax.default", s, "d_a", -1, false)
	b.output("d_sm")
	b.node("e_m", "aten.mul.Tensor", s, "x", 0.125) // the mask grows x: kept
	b.node("e_a", "aten.add.Tensor", []int64{2, 3, 5}, "e_m", "wide")
	b.node("e_sm", "aten._softmax.default", []int64{2, 3, 5}, "e_a", -1, false)
	b.output("e_sm")
	b.node("f_m", "aten.mul.Tensor", s, "x", 0.125) // f_m is also an output: kept
	b.node("f_a", "aten.add.Tensor", s, "f_m", "mask")
	b.node("f_sm", "aten._softmax.default", s, "f_a", 1, false)
	b.output("f_sm")
	b.output("f_m")
	b.node("g_m", "aten.mul.Tensor", s, "x", 0.125) // softmax over dim 0: kept
	b.node("g_a", "aten.add.Tensor", s, "g_m", "mask")
	b.node("g_sm", "aten._softmax.default", s, "g_a", 0, false)
	b.output("g_sm")

	load := func(fuse bool) *Program {
		p, err := Load(b.program(), fused(fuse))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	fused, plain := load(true), load(false)
	if g, sm := fusedOps(fused); g != 1 || sm != 1 {
		t.Fatalf("fused %d gelu and %d softmax, want 1 and 1", g, sm)
	}
	var in []value.Value
	for i, sizes := range [][]int{{3, 5}, {5}, {2, 3, 5}} {
		v := make([]float32, tensor.Numel(sizes))
		for j := range v {
			v[j] = float32((j*7+i*3)%11) - 5.5
		}
		x, _ := tensor.FromSlice(v, sizes...)
		in = append(in, value.FromTensor(x))
	}
	want, err := plain.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fused.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		if !tensor.Equal(got[j].Tensor(), want[j].Tensor()) {
			t.Errorf("output %d differs with fusion", j)
		}
	}
}

// A max pool whose indices nothing reads computes its values alone; one
// whose indices are an output keeps the full kernel, and both give the
// values they gave before.
func TestPoolValuesOnlyWithoutIndices(t *testing.T) {
	b := newGraph()
	b.input("x", 2, 3, 8, 10)
	ints := func(v ...int64) ir.NamedArgument {
		return ir.NamedArgument{Arg: ir.Argument{Kind: ir.ArgInts, Ints: v}, Kind: ir.KindPositional}
	}
	pool := func(name string, indices bool) {
		n := &ir.Node{Name: name, Target: "torch.ops.aten.max_pool2d_with_indices.default",
			Inputs:  []ir.NamedArgument{{Arg: ir.Argument{Kind: ir.ArgTensor, Name: "x"}, Kind: ir.KindPositional}, ints(2, 2)},
			Outputs: []ir.Argument{{Kind: ir.ArgTensor, Name: name + "_v"}, {Kind: ir.ArgTensor, Name: name + "_i"}}}
		b.g.Nodes = append(b.g.Nodes, n)
		b.meta(name+"_v", 2, 3, 4, 5)
		b.g.TensorValues[name+"_i"] = &ir.TensorMeta{DType: ir.Int64, Sizes: []ir.SymInt{ir.IntSym(2), ir.IntSym(3), ir.IntSym(4), ir.IntSym(5)}}
		b.output(name + "_v")
		if indices {
			b.g.Outputs = append(b.g.Outputs, ir.Argument{Kind: ir.ArgTensor, Name: name + "_i"})
			b.sig.Outputs = append(b.sig.Outputs, ir.OutputSpec{Kind: ir.OutputUser, Arg: ir.Argument{Kind: ir.ArgTensor, Name: name + "_i"}})
		}
	}
	pool("a", false)
	pool("b", true)
	load := func(opt Options) *Program {
		p, err := Load(b.program(), opt)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	fused, plain := load(Options{}), load(Options{Disable: []string{"poolvalues"}})
	for _, st := range fused.plan.steps {
		if want := map[string]string{"a": "aten.max_pool2d.default", "b": ""}[st.node.Name]; st.runs != want {
			t.Errorf("step %s runs %q, want %q", st.node.Name, st.runs, want)
		}
	}
	v := make([]float32, 2*3*8*10)
	for j := range v {
		v[j] = float32((j*7)%13) - 6
	}
	x, _ := tensor.FromSlice(v, 2, 3, 8, 10)
	in := []value.Value{value.FromTensor(x)}
	want, err := plain.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fused.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d outputs, want 3", len(got))
	}
	for j := range want {
		if !tensor.Equal(got[j].Tensor(), want[j].Tensor()) {
			t.Errorf("output %d differs with poolvalues", j)
		}
	}
}

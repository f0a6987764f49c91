package ortbackend_test

import (
	"context"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort/orttest"
	"github.com/seam-rt/seam/onnx/ortbackend"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

const (
	s0 = "Symbol('s0', positive=True, integer=True)"
	s1 = "Symbol('s1', positive=True, integer=True)"
	// s0 + s1, as export writes it.
	s01 = "Add(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, integer=True))"
)

// multiSymbolProgram has two symbols: x f32[s0, 4] and y f32[s1, 4] are
// joined into f32[s0 + s1, 4], reshaped by the sum of their sym_sizes,
// and an arange runs to that sum.
func multiSymbolProgram() *ir.Program {
	sz := func(exprs ...string) []ir.SymInt {
		var out []ir.SymInt
		for _, e := range exprs {
			switch e {
			case "2":
				out = append(out, ir.IntSym(2))
			case "4":
				out = append(out, ir.IntSym(4))
			default:
				out = append(out, ir.ExprSym(e))
			}
		}
		return out
	}
	g := &ir.Graph{
		TensorValues: map[string]*ir.TensorMeta{
			"x":      {DType: ir.Float32, Sizes: sz(s0, "4")},
			"y":      {DType: ir.Float32, Sizes: sz(s1, "4")},
			"joined": {DType: ir.Float32, Sizes: sz(s01, "4")},
			"pairs":  {DType: ir.Float32, Sizes: sz(s01, "2", "2")},
			"scaled": {DType: ir.Float32, Sizes: sz(s01, "2", "2")},
			"steps":  {DType: ir.Int64, Sizes: sz(s01)},
		},
		SymIntValues: map[string]ir.SymInt{"n0": ir.ExprSym(s0), "n1": ir.ExprSym(s1), "total": ir.ExprSym(s01)},
		Inputs:       []ir.Argument{ir.TensorArg("x"), ir.TensorArg("y")},
		Outputs:      []ir.Argument{ir.TensorArg("scaled"), ir.TensorArg("steps")},
	}
	node := func(name, target string, out ir.Argument, args ...ir.Argument) *ir.Node {
		n := &ir.Node{Name: name, Target: "torch.ops." + target, Outputs: []ir.Argument{out}}
		for _, a := range args {
			n.Inputs = append(n.Inputs, ir.NamedArgument{Arg: a, Kind: ir.KindPositional})
		}
		return n
	}
	g.Nodes = []*ir.Node{
		node("joined", "aten.cat.default", ir.TensorArg("joined"), ir.TensorsArg("x", "y"), ir.IntArg(0)),
		node("n0", "aten.sym_size.int", ir.SymIntRef("n0"), ir.TensorArg("x"), ir.IntArg(0)),
		node("n1", "aten.sym_size.int", ir.SymIntRef("n1"), ir.TensorArg("y"), ir.IntArg(0)),
		node("total", "_operator.add", ir.SymIntRef("total"), ir.SymIntRef("n0"), ir.SymIntRef("n1")),
		node("pairs", "aten.view.default", ir.TensorArg("pairs"), ir.TensorArg("joined"),
			ir.Argument{Kind: ir.ArgSymInts, List: []ir.Argument{ir.SymIntRef("total"), ir.SymIntLit(2), ir.SymIntLit(2)}}),
		node("scaled", "aten.mul.Tensor", ir.TensorArg("scaled"), ir.TensorArg("pairs"), ir.FloatArg(2)),
		node("steps", "aten.arange.start_step", ir.TensorArg("steps"), ir.IntArg(0), ir.SymIntRef("total")),
	}
	lo, hi := int64(2), int64(64)
	p := &ir.Program{Graph: g, RangeConstraints: map[string]ir.RangeConstraint{"s0": {Min: &lo, Max: &hi}, "s1": {Min: &lo, Max: &hi}}}
	for _, in := range g.Inputs {
		p.Signature.Inputs = append(p.Signature.Inputs, ir.InputSpec{Kind: ir.InputUser, Arg: in})
	}
	for _, out := range g.Outputs {
		p.Signature.Outputs = append(p.Signature.Outputs, ir.OutputSpec{Kind: ir.OutputUser, Arg: out})
	}
	return p
}

// TestMultiSymbolProgram: with two symbols, the export names both
// dim_params and writes the joined size's expression; exported and
// lowered, it computes what seam's kernels compute at sizes the trace
// never saw, and a size outside a symbol's range is refused.
func TestMultiSymbolProgram(t *testing.T) {
	lib := orttest.Library(t)
	p := multiSymbolProgram()
	tr, err := onnx.Translate(p)
	if err != nil {
		t.Fatal(err)
	}
	g := tr.Model.Graph
	if g.Inputs[0].Type.Shape[0] != onnx.Symbolic("s0") || g.Inputs[1].Type.Shape[0] != onnx.Symbolic("s1") {
		t.Errorf("inputs %v %v, want dim_params s0 and s1", g.Inputs[0].Type.Shape, g.Inputs[1].Type.Shape)
	}
	if got := g.Outputs[1].Type.Shape[0]; got != onnx.Symbolic("s0 + s1") {
		t.Errorf("steps has dim %v, want s0 + s1", got)
	}
	r, err := ortbackend.NewRunner(lib, tr.Model.Marshal(), p, ortbackend.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ref, err := runtime.Load(p, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prof, _ := backend.Builtin(ortbackend.Name)
	res, err := delegate.Program(p, prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lowered, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sizes := range [][2]int{{3, 5}, {2, 9}, {17, 4}} {
		in := []value.Value{value.FromTensor(randn(sizes[0], 4)), value.FromTensor(randn(sizes[1], 4))}
		want, err := ref.Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for name, run := range map[string]func([]value.Value) ([]value.Value, error){
			"exported": r.Run,
			"lowered":  func(in []value.Value) ([]value.Value, error) { return lowered.Run(context.Background(), in) },
		} {
			got, err := run(in)
			if err != nil {
				t.Fatalf("%s %v: %v", name, sizes, err)
			}
			for j := range want {
				if _, err := tensor.AllClose(got[j].Tensor(), want[j].Tensor(), 1e-4, 1e-5); err != nil {
					t.Errorf("%s %v: output %d: %v", name, sizes, j, err)
				}
			}
		}
	}
	if _, err := r.Run([]value.Value{value.FromTensor(randn(70, 4)), value.FromTensor(randn(3, 4))}); err == nil {
		t.Error("s0 = 70, outside [2, 64], was accepted")
	}
}

package runtime

import (
	"context"
	"testing"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// cloneProgram builds
//
//	y = a + b; v = view(y, [32]); c = clone(y)   (y dies, but v views it)
//	d = c + c; w = clone(d)                      (d dies, nothing else holds it)
//	out = w + view(v, [4, 8]); outputs (out, c)
//
// so that one clone must copy from a storage that stays alive and the
// other can take its input's storage.
func cloneProgram() *ir.Program {
	meta := func() *ir.TensorMeta {
		return &ir.TensorMeta{DType: ir.ScalarType(tensor.Float32), Sizes: []ir.SymInt{ir.IntSym(4), ir.IntSym(8)},
			Strides: []ir.SymInt{ir.IntSym(8), ir.IntSym(1)}}
	}
	t := func(name string) ir.Argument { return ir.Argument{Kind: ir.ArgTensor, Name: name} }
	in := func(args ...ir.Argument) []ir.NamedArgument {
		var out []ir.NamedArgument
		for _, a := range args {
			out = append(out, ir.NamedArgument{Arg: a, Kind: ir.KindPositional})
		}
		return out
	}
	node := func(name, target string, args ...ir.Argument) *ir.Node {
		return &ir.Node{Name: name, Target: "torch.ops." + target, Inputs: in(args...), Outputs: []ir.Argument{t(name)}}
	}
	ints := func(v ...int64) ir.Argument { return ir.Argument{Kind: ir.ArgInts, Ints: v} }
	g := &ir.Graph{
		Inputs:       []ir.Argument{t("a"), t("b")},
		TensorValues: map[string]*ir.TensorMeta{"a": meta(), "b": meta()},
		Nodes: []*ir.Node{
			node("y", "aten.add.Tensor", t("a"), t("b")),
			node("v", "aten.view.default", t("y"), ints(32)),
			node("c", "aten.clone.default", t("y")),
			node("d", "aten.add.Tensor", t("c"), t("c")),
			node("w", "aten.clone.default", t("d")),
			node("e", "aten.view.default", t("v"), ints(4, 8)),
			node("out", "aten.add.Tensor", t("w"), t("e")),
		},
		Outputs: []ir.Argument{t("out"), t("c")},
	}
	return &ir.Program{Graph: g, Signature: ir.Signature{
		Inputs:  []ir.InputSpec{{Kind: ir.InputUser, Arg: t("a")}, {Kind: ir.InputUser, Arg: t("b")}},
		Outputs: []ir.OutputSpec{{Kind: ir.OutputUser, Arg: t("out")}, {Kind: ir.OutputUser, Arg: t("c")}},
	}}
}

// A clone whose input dies takes the input's storage when nothing else
// views it and copies otherwise; either way the results are PyTorch's.
func TestCloneMove(t *testing.T) {
	p, err := Load(cloneProgram(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var moves int
	for _, s := range p.plan.steps {
		if s.move {
			moves++
		}
	}
	if moves != 2 {
		t.Fatalf("%d clones marked to move, want 2", moves)
	}
	a, b := make([]float32, 32), make([]float32, 32)
	for i := range a {
		a[i], b[i] = float32(i), float32(100*i)
	}
	ta, _ := tensor.FromSlice(a, 4, 8)
	tb, _ := tensor.FromSlice(b, 4, 8)
	for run := 0; run < 3; run++ {
		outs, err := p.Run(context.Background(), []value.Value{value.FromTensor(ta), value.FromTensor(tb)})
		if err != nil {
			t.Fatal(err)
		}
		out, c := tensor.Contig[float32](outs[0].Tensor()), tensor.Contig[float32](outs[1].Tensor())
		for i := range a {
			if y := a[i] + b[i]; out[i] != 3*y || c[i] != y {
				t.Fatalf("run %d [%d]: out %g c %g, want %g %g", run, i, out[i], c[i], 3*y, y)
			}
		}
		if outs[1].Tensor().Storage() == outs[0].Tensor().Storage() {
			t.Fatal("outputs share storage")
		}
	}
}

// moveCopy hands over the storage itself when its input held the only
// reference, and copies when a view keeps the storage alive.
func TestMoveCopyReusesStorage(t *testing.T) {
	f := newFrame(1)
	x, err := f.kctx.Pool.Empty(tensor.Float32, []int{3, 5})
	if err != nil {
		t.Fatal(err)
	}
	xs := tensor.Contig[float32](x)
	for i := range xs {
		xs[i] = float32(i)
	}
	stor := x.Storage()
	slots := []value.Value{value.FromTensor(x)}
	res, moved, err := f.moveCopy(slots, 0)
	if err != nil || !moved {
		t.Fatalf("moved %v, %v", moved, err)
	}
	if res.Tensor().Storage() != stor || slots[0].Tensor() != nil {
		t.Fatal("the only holder's storage was not reused")
	}
	// Now a view keeps the storage alive.
	y := res.Tensor()
	v, err := f.kctx.Pool.Header().View(y, []int{15})
	if err != nil {
		t.Fatal(err)
	}
	slots[0] = res
	res2, moved, err := f.moveCopy(slots, 0)
	if err != nil || !moved {
		t.Fatalf("moved %v, %v", moved, err)
	}
	if res2.Tensor().Storage() == stor {
		t.Fatal("a storage still viewed was handed over")
	}
	got, vs := tensor.Contig[float32](res2.Tensor()), tensor.Contig[float32](v)
	for i := range got {
		if got[i] != float32(i) || vs[i] != float32(i) {
			t.Fatalf("[%d] = %g (view %g)", i, got[i], vs[i])
		}
	}
	// A non-contiguous input is left to the kernel.
	pt, _ := f.kctx.Pool.Header().Transpose(res2.Tensor(), 0, 1)
	slots[0] = value.FromTensor(pt)
	if _, moved, _ := f.moveCopy(slots, 0); moved || slots[0].Tensor() != pt {
		t.Fatal("a transposed input was moved")
	}
}

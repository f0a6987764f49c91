package onnx_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/pt2"
)

func load(t testing.TB, path string) *ir.Program {
	t.Helper()
	a, err := pt2.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	p, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func translate(t testing.TB, model string) *onnx.Translation {
	t.Helper()
	tr, err := onnx.Translate(load(t, fixtures.Model(model)))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func input(t *testing.T, g *onnx.Graph, name string) *onnx.ValueInfo {
	t.Helper()
	for _, vi := range g.Inputs {
		if vi.Name == name {
			return vi
		}
	}
	t.Fatalf("no graph input %s", name)
	return nil
}

func nodesOf(g *onnx.Graph, opType string) []*onnx.Node {
	var out []*onnx.Node
	for _, n := range g.Nodes {
		if n.OpType == opType {
			out = append(out, n)
		}
	}
	return out
}

// TestSymbolicInputs: symbolic sizes are dim_params named by their
// symbols, a SymInt user input is a rank-0 INT64 tensor, and user inputs
// and outputs keep the signature's order.
func TestSymbolicInputs(t *testing.T) {
	tr := translate(t, "gpt2_tiny")
	g := tr.Model.Graph
	var names []string
	for _, vi := range g.Inputs {
		names = append(names, vi.Name)
	}
	if !slices.Equal(names, []string{"input_ids", "attention_mask"}) {
		t.Errorf("graph inputs %v, want the user inputs input_ids, attention_mask", names)
	}
	for _, name := range names {
		vi := input(t, g, name)
		if vi.Type.ElemType != onnx.Int64 || len(vi.Type.Shape) != 2 || vi.Type.Shape[0] != onnx.Known(1) || vi.Type.Shape[1] != onnx.Symbolic("s53") {
			t.Errorf("%s is %s%v, want INT64[1, s53]", name, vi.Type.ElemType, vi.Type.Shape)
		}
	}
	if len(g.Outputs) != 1 || g.Outputs[0].Type.Shape[1] != onnx.Symbolic("s53") {
		t.Errorf("outputs %v, want one logits output of length s53", g.Outputs)
	}

	tr = translate(t, "symint_input")
	g = tr.Model.Graph
	x, n := input(t, g, "x"), input(t, g, "n")
	if x.Type.ElemType != onnx.Float || x.Type.Shape[1] != onnx.Symbolic("s27") {
		t.Errorf("x is %s%v, want FLOAT[3, s27]", x.Type.ElemType, x.Type.Shape)
	}
	if n.Type.ElemType != onnx.Int64 || !n.Type.HasShape || len(n.Type.Shape) != 0 {
		t.Errorf("n is %s%v, want a rank-0 INT64 tensor", n.Type.ElemType, n.Type.Shape)
	}
	if tr.Inputs[1].Kind != ir.ValueSymInt {
		t.Errorf("port of n is a %s, want sym_int", tr.Inputs[1].Kind)
	}
	if len(g.Outputs) != 2 || g.Outputs[0].Type.Shape[1] != onnx.Symbolic("s86") {
		t.Errorf("outputs %v, want mul_3 [3, s86] and sum_1", g.Outputs)
	}
}

// TestSymSize: sym_size.int is Squeeze(Shape(x, start=d, end=d+1)), the
// view sized by it a Reshape of a Concat of constants and the unsqueezed
// size.
func TestSymSize(t *testing.T) {
	g := translate(t, "seed_like").Model.Graph
	var shape *onnx.Node
	for _, n := range nodesOf(g, "Shape") {
		if n.Inputs[0] == "attention_mask" {
			shape = n
		}
	}
	if shape == nil {
		t.Fatal("no Shape of attention_mask")
	}
	attrs := map[string]int64{}
	for _, a := range shape.Attrs {
		attrs[a.Name] = a.I
	}
	if attrs["start"] != 1 || attrs["end"] != 2 {
		t.Errorf("Shape attributes %v, want start 1, end 2", attrs)
	}
	squeezed := ""
	for _, n := range nodesOf(g, "Squeeze") {
		if n.Inputs[0] == shape.Outputs[0] {
			squeezed = n.Outputs[0]
		}
	}
	if squeezed != "sym_size_int_1" && !strings.HasPrefix(squeezed, "sym_size") {
		t.Fatalf("the size is %q, want the program's sym_size value", squeezed)
	}
	found := false
	for _, c := range nodesOf(g, "Concat") {
		for _, in := range c.Inputs {
			for _, r := range nodesOf(g, "Reshape") {
				if r.Outputs[0] == in && r.Inputs[0] == squeezed {
					found = true
				}
			}
		}
	}
	if !found {
		t.Error("no Concat builds a size from the unsqueezed sym_size")
	}
}

// TestSymFloat: a SymFloat is a rank-0 FLOAT computed in the graph.
func TestSymFloat(t *testing.T) {
	g := translate(t, "sym_float").Model.Graph
	var cast *onnx.Node
	for _, n := range nodesOf(g, "Cast") {
		for _, a := range n.Attrs {
			if a.Name == "to" && a.I == int64(onnx.Float) {
				cast = n
			}
		}
	}
	if cast == nil {
		t.Fatal("no Cast to FLOAT for torch.sym_float")
	}
	if len(nodesOf(g, "Div")) == 0 {
		t.Error("truediv is not computed in the graph")
	}
}

// TestCondIsIf: cond is an If whose branches read the operand from the
// enclosing graph.
func TestCondIsIf(t *testing.T) {
	g := translate(t, "cond").Model.Graph
	ifs := nodesOf(g, "If")
	if len(ifs) != 1 {
		t.Fatalf("%d If nodes, want 1", len(ifs))
	}
	branches := map[string]*onnx.Graph{}
	for _, a := range ifs[0].Attrs {
		branches[a.Name] = a.G
	}
	then, els := branches["then_branch"], branches["else_branch"]
	if then == nil || els == nil {
		t.Fatalf("If attributes %v", ifs[0].Attrs)
	}
	if len(nodesOf(then, "Sin")) != 1 || len(nodesOf(els, "Cos")) != 1 {
		t.Error("the branches are not sin+1 and cos-1")
	}
	if len(then.Inputs) != 0 || nodesOf(then, "Sin")[0].Inputs[0] != "x" {
		t.Error("the then branch does not read x from the enclosing graph")
	}
}

// TestWeightsAreInitializers: parameters and buffers are initializers
// named by their state-dict names; a mutated buffer is also an input
// (after the user inputs) and its new value an output (after theirs).
func TestWeightsAreInitializers(t *testing.T) {
	tr := translate(t, "buffer_mutation")
	g := tr.Model.Graph
	var inits []string
	for _, in := range g.Initializers {
		inits = append(inits, in.Name)
	}
	for _, want := range []string{"lin.weight", "lin.bias", "count"} {
		if !slices.Contains(inits, want) {
			t.Errorf("initializers %v lack %s", inits, want)
		}
	}
	if len(g.Inputs) != 2 || g.Inputs[0].Name != "x" || g.Inputs[1].Name != "count" {
		t.Errorf("inputs %v, want x then the buffer count", g.Inputs)
	}
	if len(tr.Outputs) != 2 || tr.Outputs[0].Role != onnx.UserValue || tr.Outputs[1].Role != onnx.BufferState || tr.Outputs[1].Target != "count" {
		t.Errorf("outputs %+v, want the user output then the new count", tr.Outputs)
	}
}

// TestUntranslatableListsEveryNode: a program with several ops that have
// no translation names them all, with their nodes, in one error.
func TestUntranslatableListsEveryNode(t *testing.T) {
	p := load(t, fixtures.Model("gpt2_tiny"))
	c := p.Clone()
	bad := map[string]bool{}
	for _, n := range c.Graph.Nodes {
		if n.Target == "torch.ops.aten.tanh.default" || n.Target == "torch.ops.aten.bmm.default" {
			n.Target = "torch.ops.aten.no_such_op.default"
			bad[n.Name] = true
		}
	}
	_, err := onnx.Translate(c)
	var ue *onnx.UntranslatableError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v, want an UntranslatableError", err)
	}
	got := map[string]bool{}
	for _, ne := range ue.Nodes {
		got[ne.Node] = true
	}
	if diff := cmp.Diff(bad, got); diff != "" {
		t.Errorf("nodes named (-want +got):\n%s", diff)
	}
	if !strings.Contains(err.Error(), "aten.no_such_op.default") || strings.Count(err.Error(), "\n") != len(bad) {
		t.Errorf("error text:\n%v", err)
	}
	// The program itself is untouched by translation.
	if _, err := onnx.Translate(p); err != nil {
		t.Errorf("the original program: %v", err)
	}
}

// TestTranslationIsDeterministic: the same program gives the same bytes.
func TestTranslationIsDeterministic(t *testing.T) {
	for _, m := range []string{"gpt2_tiny", "cond", "cnn"} {
		a, b := translate(t, m).Model.Marshal(), translate(t, m).Model.Marshal()
		if string(a) != string(b) {
			t.Errorf("%s: two translations differ", m)
		}
	}
}

// TestEveryOpHasASchema: translations read arguments by their schema
// names, so every op in the table must be in seam's op table.
func TestEveryOpHasASchema(t *testing.T) {
	for _, op := range onnx.Ops() {
		if _, ok := ops.Lookup(op); !ok {
			t.Errorf("%s is translated but has no schema in package ops", op)
		}
	}
}

// TestRoundTrip: decoding what Marshal wrote gives the model back, for
// every fixture, and GraphIO reads the same inputs and outputs.
func TestRoundTrip(t *testing.T) {
	paths := []string{}
	for _, m := range fixtures.Models() {
		paths = append(paths, fixtures.Model(m))
	}
	paths = append(paths, filepath.Join(fixtures.Dir(), "extra", "llama_tiny", "model.pt2"))
	for _, path := range paths {
		tr, err := onnx.Translate(load(t, path))
		if err != nil {
			t.Fatal(err)
		}
		data := tr.Model.Marshal()
		m, err := onnx.Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if again := m.Marshal(); !bytes.Equal(again, data) {
			t.Errorf("%s: decoding and encoding again changed %d bytes to %d", path, len(data), len(again))
		}
		if len(data) < 64<<10 { // cmp walks every byte of the weights: small models only
			if diff := cmp.Diff(tr.Model, m, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: round trip (-wrote +read):\n%s", path, diff)
			}
		}
		ins, outs, err := onnx.GraphIO(data)
		if err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(ins, m.Graph.Inputs, cmpopts.EquateEmpty()) || !cmp.Equal(outs, m.Graph.Outputs, cmpopts.EquateEmpty()) {
			t.Errorf("%s: GraphIO differs from the decoded graph", path)
		}
	}
}

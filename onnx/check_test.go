package onnx_test

import (
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/onnx"
)

// TestCheckIO: a program's translation checks against it; a model whose
// inputs or outputs differ from the program's in name, count, element
// type, rank or a static size does not, and the error says which.
func TestCheckIO(t *testing.T) {
	p := load(t, fixtures.Model("mlp"))
	tr, err := onnx.Translate(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := onnx.CheckIO(p, tr.Model.Marshal()); err != nil {
		t.Fatalf("its own translation: %v", err)
	}
	for _, c := range []struct {
		name   string
		change func(m *onnx.Model)
		want   string
	}{
		{"renamed input", func(m *onnx.Model) { m.Graph.Inputs[0].Name = "y" }, `input 0 is "y"`},
		{"element type", func(m *onnx.Model) { m.Graph.Inputs[0].Type.ElemType = onnx.Double }, "DOUBLE"},
		{"rank", func(m *onnx.Model) { m.Graph.Inputs[0].Type.Shape = m.Graph.Inputs[0].Type.Shape[:1] }, "where the program has"},
		{"static size", func(m *onnx.Model) {
			sh := m.Graph.Inputs[0].Type.Shape
			sh[len(sh)-1].Value++
		}, "dim 1"},
		{"extra input", func(m *onnx.Model) { m.Graph.Inputs = append(m.Graph.Inputs, m.Graph.Inputs[0]) }, "takes 2 inputs"},
		{"no output", func(m *onnx.Model) { m.Graph.Outputs = nil }, "returns 0 outputs"},
		{"output type", func(m *onnx.Model) { m.Graph.Outputs[0].Type.ElemType = onnx.Int64 }, "output 0"},
		{"no graph", func(m *onnx.Model) { m.Graph = nil }, "no graph"},
	} {
		m, err := onnx.Unmarshal(tr.Model.Marshal())
		if err != nil {
			t.Fatal(err)
		}
		c.change(m)
		if err := onnx.CheckIO(p, m.Marshal()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error mentioning %q", c.name, err, c.want)
		}
	}
}

package onnx

import (
	"errors"
	"fmt"

	"github.com/seam-rt/seam/ir"
)

// CheckIO reports why model (an ONNX file's bytes) is not a translation
// of p as far as its interface goes: it must decode, its graph inputs must
// be p's user inputs in signature order (same names, element types and
// ranks, each static size the same and each symbolic one a dim_param or
// unknown), then one input per buffer p mutates; its outputs p's user
// outputs in order (element types and ranks), then each mutated buffer's
// new value. What the graph computes is the translation's word.
func CheckIO(p *ir.Program, model []byte) error {
	m, err := Unmarshal(model)
	if err != nil {
		return err
	}
	if m.Graph == nil {
		return errors.New("the model has no graph")
	}
	g := p.Graph
	var wantIn, wantOut []*ValueInfo
	mutated := 0
	for _, o := range p.Signature.Outputs {
		if o.Kind == ir.OutputBufferMutation {
			mutated++
		}
	}
	for _, s := range p.Signature.Inputs {
		if s.Kind != ir.InputUser || s.PlaceholderName() == "" {
			continue
		}
		vi, err := valueInfo(g, s.PlaceholderName(), s.PlaceholderName())
		if err != nil {
			return fmt.Errorf("input %s: %w", s.PlaceholderName(), err)
		}
		wantIn = append(wantIn, vi)
	}
	for _, o := range p.Signature.Outputs {
		if o.Kind != ir.OutputUser {
			continue
		}
		vi, err := valueInfo(g, o.Arg.Name, o.Arg.Name)
		if err != nil {
			return fmt.Errorf("output %s: %w", o.Arg.Name, err)
		}
		wantOut = append(wantOut, vi)
	}
	if got, want := len(m.Graph.Inputs), len(wantIn)+mutated; got != want {
		return fmt.Errorf("the model takes %d inputs; the program %d user inputs and %d buffers it mutates", got, len(wantIn), mutated)
	}
	if got, want := len(m.Graph.Outputs), len(wantOut)+mutated; got != want {
		return fmt.Errorf("the model returns %d outputs; the program %d user outputs and %d buffers it mutates", got, len(wantOut), mutated)
	}
	for i, w := range wantIn {
		got := m.Graph.Inputs[i]
		if got.Name != w.Name {
			return fmt.Errorf("the model's input %d is %q; the program's user input %d is %s", i, got.Name, i, w.Name)
		}
		if err := matchType(got.Type, w.Type); err != nil {
			return fmt.Errorf("input %s: %w", w.Name, err)
		}
	}
	for i, w := range wantOut {
		got := m.Graph.Outputs[i]
		if err := matchType(got.Type, w.Type); err != nil {
			return fmt.Errorf("output %d (%s): %w", i, w.Name, err)
		}
	}
	return nil
}

// matchType reports how a graph input's or output's type differs from the
// one the program gives it. A symbolic size may be any dim_param (or
// unknown): seam binds the symbols itself before every run.
func matchType(got, want *TensorType) error {
	if want == nil {
		return nil
	}
	if got == nil || !got.HasShape {
		return fmt.Errorf("no tensor type with a shape; the program's is %s", describeType(want))
	}
	if got.ElemType != want.ElemType || len(got.Shape) != len(want.Shape) {
		return fmt.Errorf("%s where the program has %s", describeType(got), describeType(want))
	}
	for d, w := range want.Shape {
		g := got.Shape[d]
		if w.HasValue != g.HasValue || w.HasValue && w.Value != g.Value {
			return fmt.Errorf("dim %d is %s where the program has %s", d, g, w)
		}
	}
	return nil
}

func describeType(t *TensorType) string {
	s := t.ElemType.String() + "["
	for i, d := range t.Shape {
		if i > 0 {
			s += ", "
		}
		s += d.String()
	}
	return s + "]"
}

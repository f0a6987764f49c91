package runtime_test

import (
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/sym"
)

// TestDispatchRefusesAmbiguity: a lowered program whose specializations
// the runtime could not tell apart, or that do not share the program's
// buffer state, is refused at load, whatever verify said.
func TestDispatchRefusesAmbiguity(t *testing.T) {
	prof, _ := backend.Builtin("static-shapes")
	lowered := func(model string) *ir.Lowered {
		res, err := delegate.Specialize(fixtures.Load(t, fixtures.Model(model)), prof, delegate.Options{}, []sym.Bindings{{"s77": 4}, {"s77": 7}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Lowered
	}
	for _, c := range []struct {
		name, model string
		edit        func(l *ir.Lowered)
		want        string
	}{
		{"same values", "mlp", func(l *ir.Lowered) { l.Specializations[1].Bind = map[string]int64{"s77": 4} }, "two specializations bind these values"},
		{"other symbols", "mlp", func(l *ir.Lowered) { l.Specializations[1].Bind = map[string]int64{"s1": 4} }, "every specialization must bind the same symbols"},
		{"no program", "mlp", func(l *ir.Lowered) { l.Specializations[0].Main = nil }, "specialization 0 has no program"},
		{"other state", "buffer_mutation", func(l *ir.Lowered) {
			m := l.Specializations[0].Main
			var outs []ir.OutputSpec
			var args []ir.Argument
			for i, o := range m.Signature.Outputs {
				if o.Kind != ir.OutputBufferMutation {
					outs, args = append(outs, o), append(args, m.Graph.Outputs[i])
				}
			}
			m.Signature.Outputs, m.Graph.Outputs = outs, args
		}, "mutates 0 buffers, the program 1"},
	} {
		l := lowered(c.model)
		c.edit(l)
		if _, err := runtime.LoadLowered(l, runtime.Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	p, err := runtime.Load(fixtures.Load(t, fixtures.Model("mlp")), runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Specializations() != nil || p.Dispatch(sym.Bindings{"s77": 4}) != -1 {
		t.Errorf("a program without specializations dispatches")
	}
}

package verify_test

import (
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/verify"
)

// specialized is a fixture lowered for static-shapes at the bindings.
func specialized(t *testing.T, model string, binds ...sym.Bindings) *ir.Lowered {
	t.Helper()
	prof, _ := backend.Builtin("static-shapes")
	res, err := delegate.Specialize(fixtures.Load(t, fixtures.Model(model)), prof, delegate.Options{}, binds)
	if err != nil {
		t.Fatal(err)
	}
	return res.Lowered
}

// TestSpecializationRules: what the runtime's dispatch relies on is a
// violation of rule specialization when broken, named by the
// specialization's binding.
func TestSpecializationRules(t *testing.T) {
	if vs := verify.Errors(verify.Lowered(specialized(t, "mlp", sym.Bindings{"s77": 4}, sym.Bindings{"s77": 7}))); len(vs) > 0 {
		t.Fatalf("lowered as made: %v", vs)
	}
	for _, c := range []struct {
		name  string
		model string
		edit  func(l *ir.Lowered)
		rule  verify.Rule
		want  string
	}{
		{"other symbols", "mlp", func(l *ir.Lowered) { l.Specializations[1].Bind = map[string]int64{"s77": 7, "s1": 2} },
			verify.Specialization, "every specialization binds the same symbols"},
		{"same values", "mlp", func(l *ir.Lowered) { l.Specializations[1].Bind = map[string]int64{"s77": 4} },
			verify.Specialization, "binds the same values as specialization 0"},
		{"out of range", "mlp", func(l *ir.Lowered) {
			l.Specializations[0].Bind = map[string]int64{"s77": 0}
			l.Specializations[1].Bind = map[string]int64{"s77": 65}
		}, verify.Specialization, "s77 = 65 is outside its range [1, 64]"},
		{"undetermined", "mlp", func(l *ir.Lowered) {
			l.Specializations[0].Bind = map[string]int64{"u0": 4}
			l.Specializations[1].Bind = map[string]int64{"u0": 7}
		}, verify.Specialization, "binds u0, which the program's user inputs do not determine"},
		{"other sizes", "mlp", func(l *ir.Lowered) { l.Specializations[1].Bind = map[string]int64{"s77": 5} },
			verify.Specialization, "x: dim 0 is 7, the program's 5 at the binding"},
		{"other inputs", "mlp", func(l *ir.Lowered) {
			l.Specializations[0].Main = l.Main
		}, verify.Specialization, "dim 0 is symbolic (s77), where the binding makes the program's 4"},
		{"missing module", "mlp", func(l *ir.Lowered) {
			for _, n := range l.Specializations[0].Main.Graph.Nodes {
				if _, ok := n.DelegateModule(); ok {
					n.Inputs[0].Arg.Str = "nowhere"
				}
			}
		}, verify.DelegateCall, `calls "nowhere", which is not a module of this program`},
		{"other outputs", "mlp", func(l *ir.Lowered) {
			m := l.Specializations[1].Main
			m.Signature.Outputs = m.Signature.Outputs[:0]
			m.Graph.Outputs = m.Graph.Outputs[:0]
		}, verify.Specialization, "returns 0 user outputs, the program 1"},
		{"other buffers", "buffer_mutation", func(l *ir.Lowered) {
			m := l.Specializations[1].Main
			for i := range m.Signature.Outputs {
				if m.Signature.Outputs[i].Kind == ir.OutputBufferMutation {
					m.Signature.Outputs[i].Target = "elsewhere"
				}
			}
		}, verify.Specialization, "mutates buffers [elsewhere], the program"},
	} {
		binds := []sym.Bindings{{"s77": 4}, {"s77": 7}}
		l := specialized(t, c.model, binds...)
		c.edit(l)
		found := false
		var all []string
		for _, v := range verify.Errors(verify.Lowered(l)) {
			all = append(all, v.String())
			if v.Rule == c.rule && strings.Contains(v.String(), c.want) && strings.HasPrefix(v.Graph, "specialization ") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s violation saying %q in a specialization:\n%s", c.name, c.rule, c.want, strings.Join(all, "\n"))
		}
	}
}

package verify

import (
	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
)

// Contract checks a lowered module against its backend's contract: every
// placeholder it receives, and every value it returns, is something the
// backend declared it accepts.
func Contract(m *ir.Program, prof *backend.Profile) []Violation {
	c := &checker{p: m}
	g := m.Graph
	check := func(where, v string, output bool) {
		role := "placeholder"
		if output {
			role = "output"
		}
		switch t := g.TypeOf(v); t {
		case ir.ValueSymInt, ir.ValueSymBool, ir.ValueSymFloat:
			if prof.Placeholders.For(t) != backend.Scalar {
				c.add(ContractSymbolic, "", where, "%s %s is a %s, which %s refuses (placeholders.%s: %s)",
					role, v, t, prof.Name, t, prof.Placeholders.For(t))
			}
		case ir.ValueTensor:
			meta := g.TensorValues[v]
			if !prof.AcceptsTensor(meta.DType, len(meta.Sizes)) {
				c.add(ContractDType, "", where, "%s %s is %s, which %s refuses", role, v, meta.DType.Short(), prof.Name)
			}
			if !prof.DynamicShapes && !meta.IsStatic() {
				c.add(ContractDynamic, "", where, "%s %s has a dynamic size, which %s refuses", role, v, prof.Name)
			}
		}
	}
	for i, s := range m.Signature.Inputs {
		if s.Kind == ir.InputUser && i < len(g.Inputs) {
			for _, v := range g.Inputs[i].Refs() {
				check(v, v, false)
			}
		}
	}
	for i, s := range m.Signature.Outputs {
		if s.Kind == ir.OutputUser && i < len(g.Outputs) {
			for _, v := range g.Outputs[i].Refs() {
				check(v, v, true)
			}
		}
	}
	return c.out
}

package sym_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/seam-rt/seam/sym"
)

// TestKnowledge: what given sizes determine, and derivations of other
// expressions from them, checked by evaluating the derivation on random
// bindings against the expression itself.
func TestKnowledge(t *testing.T) {
	ranges := map[string]sym.Range{"s0": sym.IntRange(1, 8), "s1": sym.IntRange(2, 32), "s2": sym.IntRange(0, 4)}
	cases := []struct {
		sizes      []string
		determined []string
		units      []int
		derive     map[string]string // expression -> derivation, "" for undetermined
	}{
		{
			sizes: []string{"s0*s1", "16"}, units: []int{0},
			derive: map[string]string{"s0*s1": "#0", "2*s0*s1": "Mul(#0, 2)", "s0*s1 + 1": "Add(#0, 1)", "s0": "", "s1": ""},
		},
		{
			sizes: []string{"s0*s1", "s1"}, determined: []string{"s1", "s0"},
			derive: map[string]string{"s0": "FloorDiv(#0, #1)", "s0*s1": "#0", "4*s0": "Mul(4, FloorDiv(#0, #1))"},
		},
		{
			sizes: []string{"s1 - 1", "FloorDiv(s0, 2)"}, determined: []string{"s1"}, units: []int{1},
			derive: map[string]string{"s1": "Add(#0, 1)", "s1 + 1": "Add(Add(#0, 1), 1)", "FloorDiv(s0, 2)*s1": "Mul(Add(#0, 1), #1)", "s0": ""},
		},
		{
			sizes: []string{"2*s0 + 1"}, determined: []string{"s0"},
			derive: map[string]string{"s0": "FloorDiv(Add(#0, -1), 2)"},
		},
		{
			// A size off by a constant from one known as a whole.
			sizes: []string{"FloorDiv(2*s1, 2) - 1"}, units: []int{0},
			derive: map[string]string{"FloorDiv(FloorDiv(2*s1, 2), 2)": "FloorDiv(Add(#0, 1), 2)", "s1": ""},
		},
		{
			// A size linear in a function of s1 determines the function,
			// not s1.
			sizes: []string{"2*FloorDiv(s1 + 1, 2) - 1"}, units: []int{0},
			derive: map[string]string{"FloorDiv(4*FloorDiv(s1 + 1, 2) + 1, 2) - 1": "Add(FloorDiv(Add(Mul(4, FloorDiv(Add(#0, 1), 2)), 1), 2), -1)", "s1": ""},
		},
		{
			// A coefficient that may be zero determines nothing.
			sizes: []string{"s0*s2", "s2"}, determined: []string{"s2"}, units: []int{0},
			derive: map[string]string{"s0": ""},
		},
	}
	for _, c := range cases {
		var sizes []*sym.Expr
		for _, s := range c.sizes {
			sizes = append(sizes, mustParse(t, s))
		}
		k := sym.Know(sizes, ranges)
		if got := k.Symbols(); !slices.Equal(got, c.determined) {
			t.Errorf("%v: determined %v, want %v", c.sizes, got, c.determined)
		}
		if got := k.Units(); !slices.Equal(got, c.units) {
			t.Errorf("%v: units %v, want %v", c.sizes, got, c.units)
		}
		for text, want := range c.derive {
			e := mustParse(t, text)
			d, err := k.Plan(e)
			if want == "" {
				var ue *sym.UndeterminedError
				if !errors.As(err, &ue) {
					t.Errorf("%v: %s derived as %v, want undetermined", c.sizes, text, d)
				}
				continue
			}
			if err != nil {
				t.Errorf("%v: %s: %v", c.sizes, text, err)
				continue
			}
			if got := d.String(); got != want {
				t.Errorf("%v: %s derived as %s, want %s", c.sizes, text, got, want)
			}
			for s0 := int64(1); s0 <= 8; s0 += 3 {
				for s1 := int64(2); s1 <= 32; s1 += 7 {
					b := sym.Bindings{"s0": s0, "s1": s1, "s2": 3}
					var given []int64
					for _, s := range sizes {
						v, err := s.Eval(b)
						if err != nil {
							t.Fatal(err)
						}
						given = append(given, v.Int())
					}
					want, _ := e.Eval(b)
					if got := evalDerivation(d, given); got != want.Int() {
						t.Errorf("%v: %s at %v: derivation gives %d, want %d", c.sizes, text, b, got, want.Int())
					}
				}
			}
		}
	}
}

func evalDerivation(d *sym.Derivation, given []int64) int64 {
	if d.Size >= 0 {
		return given[d.Size]
	}
	if d.IsNumber() {
		v, _ := d.Expr.Int64()
		return v
	}
	var args []*sym.Expr
	for _, a := range d.Args {
		args = append(args, sym.Int(evalDerivation(a, given)))
	}
	var e *sym.Expr
	switch d.Op {
	case sym.OpAdd:
		e = sym.Add(args...)
	case sym.OpMul:
		e = sym.Mul(args...)
	default:
		e, _ = sym.New(d.Op, args...)
	}
	v, _ := e.Canonical().Int64()
	return v
}

package sym_test

import (
	"testing"

	"github.com/seam-rt/seam/sym"
)

func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"s0*2", "2*s0"},
		{"s0 + s0", "2*s0"},
		{"s0 - s0", "0"},
		{"2*(s0 + 1) - 2", "2*s0"},
		{"(s0 + 1)*(s0 - 1)", "s0**2 - 1"},
		{"(s0 + 1)**2", "s0**2 + 2*s0 + 1"},
		{"s0*(s1 + 1) - s0*s1", "s0"},
		{"(s0 + s1)*(s0 - s1)", "s0**2 - s1**2"},
		{"s0/2 + s0/2", "s0"},
		{"FloorDiv(7, 2)", "3"},
		{"FloorDiv(-7, 2)", "-4"},
		{"FloorDiv(s0 + s0, 2)", "((2*s0)//2)"},
		{"FloorDiv(s0, 1)", "s0"},
		{"FloorDiv(s0, 0)", "(s0//0)"},
		{"FloorDiv(7, 0)", "(7//0)"}, // no value: left alone
		{"PythonMod(s0, 1)", "0"},
		{"ToFloat(3)", "3.00000000000000"},
		{"Max(1, Max(2, s0), s0)", "Max(2, s0)"},
		{"Min(s1, s0, 4, 2)", "Min(2, s0, s1)"},
		{"Max(s0)", "s0"},
		{"Max(-oo, s0)", "s0"},
		{"3 > 2", "True"},
		{"s0 > s0", "False"},
		{"Eq(s0, s0)", "True"},
		{"~(s0 > 4)", "s0 <= 4"},
		{"~~(s0 > 4)", "s0 > 4"},
		{"(s1 < 3) & (s0 > 4) & (s1 < 3)", "(s0 > 4) & (s1 < 3)"},
		{"(s0 > 4) & True", "s0 > 4"},
		{"(s0 > 4) & False", "False"},
		{"(s0 > 4) | True", "True"},
		{"Where(True, s0, s1)", "s0"},
		{"Where(2 > 3, s0, s1)", "s1"},
		{"0.5*ToFloat(s77) + 0.5*ToFloat(s77)", "1.0*ToFloat(s77)"},
		{"ToFloat(s0) - ToFloat(s0)", "0"},
		{"Identity(s0 + s0)", "(2*s0)"},
	} {
		e := mustParse(t, tc.in)
		c := e.Canonical()
		if got := c.String(); got != tc.want {
			t.Errorf("Canonical(%s) = %s, want %s", tc.in, got, tc.want)
		}
		if cc := c.Canonical(); !sym.Equal(cc, c) {
			t.Errorf("Canonical not idempotent on %s: %s then %s", tc.in, c, cc)
		}
	}
}

// TestKey: canonical keys identify values written differently, and differ
// for different expressions.
func TestKey(t *testing.T) {
	same := [][]string{
		{"2*s0", "s0*2", "s0 + s0", "Mul(Integer(2), Symbol('s0', integer=True, positive=True))", "(s0 + 1)*2 - 2"},
		{"s0**2 - 1", "(s0 - 1)*(s0 + 1)", "Add(Pow(Symbol('s0'), Integer(2)), Integer(-1))"},
		{"Max(s1, s0, 2)", "Max(2, Max(s0, s1))"},
		{"(s0 > 4) & (s1 > 1)", "(s1 > 1) & (s0 > 4)"},
	}
	keys := map[string]int{}
	for i, group := range same {
		for _, text := range group {
			k := mustParse(t, text).Canonical().Key()
			if j, ok := keys[k]; ok && j != i {
				t.Errorf("%s has the key of group %d: %s", text, j, k)
			}
			keys[k] = i
		}
	}
	if len(keys) != len(same) {
		t.Errorf("%d keys for %d values: %v", len(keys), len(same), keys)
	}
	for _, pair := range [][2]string{{"s0", "s1"}, {"2*s0", "3*s0"}, {"FloorDiv(s0, 2)", "PythonMod(s0, 2)"}, {"s0", "ToFloat(s0)"}, {"2", "2.0"}} {
		a, b := mustParse(t, pair[0]), mustParse(t, pair[1])
		if sym.Equal(a, b) || a.Key() == b.Key() {
			t.Errorf("%s and %s compare equal", pair[0], pair[1])
		}
	}
}

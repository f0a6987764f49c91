package sym_test

import (
	"errors"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/sym"
)

// fixtureExprs is every expr_str of every fixture program.
func fixtureExprs(tb testing.TB) []string {
	seen := map[string]bool{}
	var out []string
	for _, model := range fixtures.Models() {
		for _, v := range readProgram(tb, model) {
			for _, e := range v.exprs {
				if !seen[e] {
					seen[e] = true
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// FuzzParse: any text either fails with a ParseError or gives an expression
// that writes back as srepr text reading to the same expression, prints,
// canonicalises idempotently, and evaluates within its range, without panics.
func FuzzParse(f *testing.F) {
	for _, e := range fixtureExprs(f) {
		f.Add(e)
	}
	for _, s := range []string{
		"2*s0 + 1", "s0 - 1", "-s0", "s0**2", "s77 > 4", "(s0//2) + s1", "FloorDiv(s0, 2)",
		"0.5*ToFloat(s77)", "FloatTrueDiv(ToFloat(s77), 3.0)", "Max(1, s86)", "(s0 > 4) & (s1 < 3)",
		"Where(Eq(s0, 1), s1, 2)", "Mul(Integer(-1), Integer(2), Symbol('s0'))", "Float('1.5', precision=7)",
		"PythonMod(s0, -3)", "Float('2.5', precision=300)", "1/(s0 + 1)", "sqrt(s0)", "Symbol('a\\'b', integer=True)",
	} {
		f.Add(s)
	}
	bindings := sym.Bindings{"s0": 3, "s1": -2, "s27": 16, "s53": 5, "s77": 5, "s86": 5, "x": 7}
	ranges := map[string]sym.Range{"s0": sym.IntRange(3, 3), "s1": sym.IntRange(-2, -2), "s27": sym.IntRange(16, 16),
		"s53": sym.IntRange(5, 5), "s77": sym.IntRange(5, 5), "s86": sym.IntRange(5, 5), "x": sym.IntRange(7, 7)}
	f.Fuzz(func(t *testing.T, text string) {
		e, err := sym.Parse(text)
		if err != nil {
			var pe *sym.ParseError
			if !errors.As(err, &pe) || pe.Pos < 0 || pe.Pos > len(text) {
				t.Fatalf("Parse(%q): %v", text, err)
			}
			return
		}
		s := e.Srepr()
		p, err := sym.Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) = %s, which does not read back: %v", text, s, err)
		}
		if !sym.Equal(p, e) || p.Srepr() != s {
			t.Fatalf("Parse(%q) = %s, which reads back as %s", text, s, p.Srepr())
		}
		_ = e.String()
		c := e.Canonical()
		if cc := c.Canonical(); !sym.Equal(c, cc) {
			t.Fatalf("Canonical(%s) = %s, then %s", s, c.Srepr(), cc.Srepr())
		}
		for _, x := range []*sym.Expr{e, c} {
			v, err := x.Eval(bindings)
			r := x.Range(ranges)
			if err == nil && !r.Contains(v) {
				t.Fatalf("%s = %s outside its range %s", x.Srepr(), v, r)
			}
		}
	})
}

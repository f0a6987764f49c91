package sym_test

import (
	"testing"

	"github.com/seam-rt/seam/sym"
)

func BenchmarkParseSrepr(b *testing.B) {
	exprs := fixtureExprs(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := sym.Parse(exprs[i%len(exprs)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseStr(b *testing.B) {
	text := "Max(1, 4*s53**2 + 2*(s0//2) - s1) + FloatTrueDiv(ToFloat(s77), 3.0)"
	for i := 0; i < b.N; i++ {
		if _, err := sym.Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEval(b *testing.B) {
	e := mustParse(b, "Add(Mul(Integer(4), Pow(Symbol('s53'), Integer(2))), FloorDiv(Symbol('s0'), Integer(2)), Max(Integer(1), Symbol('s86')), Integer(-3))")
	bind := sym.Bindings{"s53": 100, "s0": 7, "s86": 5}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Eval(bind); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvalSymbol(b *testing.B) {
	e := mustParse(b, "Symbol('s53', positive=True, integer=True)")
	bind := sym.Bindings{"s53": 100}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := e.Eval(bind); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCanonical(b *testing.B) {
	e := mustParse(b, "(s0 + 1)*(s1 - 2)*(s0 + s1) + FloorDiv(2*s0, 4)")
	for i := 0; i < b.N; i++ {
		_ = e.Canonical()
	}
}

func BenchmarkString(b *testing.B) {
	e := mustParse(b, "Add(Mul(Integer(4), Pow(Symbol('s53'), Integer(2))), FloorDiv(Symbol('s0'), Integer(2)), Integer(-3))")
	for i := 0; i < b.N; i++ {
		_ = e.String()
	}
}

package sym

import (
	"math"
	"testing"
)

// TestString covers the shapes print_readable shows; the golden and fixture
// tests cover many more against SymPy itself.
func TestString(t *testing.T) {
	s0, s1 := Sym("s0"), Sym("s1")
	floorDiv := func(a, b *Expr) *Expr { e, _ := New(OpFloorDiv, a, b); return e }
	toFloat := func(a *Expr) *Expr { e, _ := New(OpToFloat, a); return e }
	for _, tc := range []struct {
		e    *Expr
		want string
	}{
		{s0, "s0"},
		{Mul(Int(2), s0), "2*s0"},
		{Mul(s0, Int(2)), "2*s0"},
		{Add(Mul(Int(2), s0), Int(1)), "2*s0 + 1"},
		{Sub(s0, Int(1)), "s0 - 1"},
		{Sub(Int(1), s0), "1 - s0"},
		{Sub(Int(5), Mul(Int(2), s0)), "5 - 2*s0"},
		{Sub(Int(5), Mul(s0, s1)), "-s0*s1 + 5"},
		{Neg(s0), "-s0"},
		{Neg(Add(s0, Int(1))), "-s0 - 1"},
		{Pow(s0, Int(2)), "s0**2"},
		{Mul(Int(4), Pow(s0, Int(2))), "4*s0**2"},
		{Pow(s0, Int(-2)), "s0**(-2)"},
		{Pow(s0, Int(-1)), "1/s0"},
		{Div(s0, s1), "s0/s1"},
		{Div(s0, Int(2)), "s0/2"},
		{Div(Mul(Int(3), s0), Int(2)), "3*s0/2"},
		{Mul(s0, Add(s1, Int(1))), "s0*(s1 + 1)"},
		{Pow(Add(s0, Int(1)), Int(2)), "(s0 + 1)**2"},
		{Add(Pow(s0, Int(2)), s0, Mul(s0, s1), s1, Int(3)), "s0**2 + s0*s1 + s0 + s1 + 3"},
		{floorDiv(s0, Int(2)), "(s0//2)"},
		{floorDiv(Add(s0, Int(1)), Int(2)), "((s0 + 1)//2)"},
		{Mul(Int(2), floorDiv(s0, Int(2))), "2*((s0//2))"},
		{Add(s1, floorDiv(s0, Int(2))), "s1 + ((s0//2))"},
		{Mul(Float(0.5), toFloat(s0)), "0.5*ToFloat(s0)"},
		{Float(3), "3.00000000000000"},
		{Float(-2.5), "-2.50000000000000"},
		{Add(toFloat(s0), Float(1)), "ToFloat(s0) + 1.0"},
		{Mul(Float(1), s0), "1.0*s0"},
		{Mul(Float(2.5e20), s0), "2.5e+20*s0"},
		{Mul(Float(1e-7), s0), "1.0e-7*s0"},
		{Bool(true), "True"},
		{IntInfinity(), "int_oo"},
		{NegInfinity(), "-oo"},
	} {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

// TestMpmathStr pins the Float formatting SymPy uses (mpmath to_str).
func TestMpmathStr(t *testing.T) {
	for _, tc := range []struct {
		v     float64
		dps   int
		strip bool
		want  string
	}{
		{3, 15, false, "3.00000000000000"},
		{3, 15, true, "3.0"},
		{0.5, 15, true, "0.5"},
		{0, 15, true, "0.0"},
		{1e20, 15, false, "1.00000000000000e+20"},
		{1e-5, 15, false, "1.00000000000000e-5"},
		{123.25, 15, false, "123.250000000000"},
		{math.Ldexp(1, -22), 15, false, "2.38418579101563e-7"}, // half-up on the exact 16th digit
		{0.1, 17, true, "0.10000000000000001"},
		{1.0 / 3, 17, true, "0.33333333333333331"},
		{-2.5e-7, 17, true, "-2.4999999999999999e-7"},
		{1e22, 17, true, "1.0e+22"},
		{999999999999999.9, 15, true, "1.0e+15"},
		{0.0001, 15, true, "0.0001"},
	} {
		if got := mpmathStr(tc.v, tc.dps, tc.strip); got != tc.want {
			t.Errorf("mpmathStr(%v, %d, %v) = %q, want %q", tc.v, tc.dps, tc.strip, got, tc.want)
		}
	}
	if precToDps(53) != 15 || reprDps(53) != 17 || reprDps(64) != 21 {
		t.Error("dps")
	}
}

func TestPyQuote(t *testing.T) {
	for in, want := range map[string]string{
		"s0": "'s0'", "it's": `"it's"`, `a"b'c`: `'a"b\'c'`, "a\\b": `'a\\b'`, "a\nb": `'a\nb'`, "\x01": `'\x01'`,
	} {
		if got := PyRepr(in); got != want {
			t.Errorf("PyRepr(%q) = %s, want %s", in, got, want)
		}
	}
}

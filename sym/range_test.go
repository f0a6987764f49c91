package sym_test

import (
	"math"
	"testing"

	"github.com/seam-rt/seam/sym"
)

func TestRange(t *testing.T) {
	max64 := int64(math.MaxInt64)
	ranges := map[string]sym.Range{
		"s53": sym.IntRange(2, 200),
		"s77": sym.IntRange(1, 64),
		"n":   sym.IntRange(-5, 5),
		"m":   sym.IntRangeBounds(ptr(2), nil),
		"big": sym.IntRange(1, max64),
		"x":   sym.FloatRange(-1, 1),
	}
	for _, tc := range []struct{ expr, want string }{
		{"s53", "[2, 200]"},
		{"4*s53**2", "[16, 160000]"},
		{"s53 - s77", "[-62, 199]"},
		{"-s53", "[-200, -2]"},
		{"m + 1", "[3, int_oo]"},
		{"-m", "[-int_oo, -2]"},
		{"2*m*n", "[-int_oo, int_oo]"},
		{"big + big", "[2, int_oo]"}, // overflow widens
		{"n**2", "[0, 25]"},
		{"n**3", "[-125, 125]"},
		{"FloorDiv(s53, 4)", "[0, 50]"},
		{"FloorDiv(s53, n)", "[-200, 200]"}, // the divisor is never 0
		{"FloorDiv(n, m)", "[-3, 2]"},
		{"CeilDiv(s53, 4)", "[1, 50]"},
		{"PythonMod(s53, 8)", "[0, 7]"},
		{"PythonMod(s77, 100)", "[1, 64]"},
		{"PythonMod(n, 16)", "[0, 15]"},
		{"PythonMod(s53, -8)", "[-7, 0]"},
		{"Mod(s53 + 8, 8)", "[0, 7]"},
		{"PythonMod(s53, s77)", "[0, 63]"},
		{"ModularIndexing(s53, 2, 4)", "[0, 3]"},
		{"Max(1, s86)", "[1, int_oo]"},
		{"Max(n, 2)", "[2, 5]"},
		{"Min(s53, s77)", "[1, 64]"},
		{"s77 > 4", "[False, True]"},
		{"s53 > 1", "[True, True]"},
		{"s53 < 2", "[False, False]"},
		{"Eq(s53, 300)", "[False, False]"},
		{"Ne(s53, 300)", "[True, True]"},
		{"(s53 > 1) & (s77 > 4)", "[False, True]"},
		{"~(s53 > 1)", "[False, False]"},
		{"Where(s53 > 1, s77, n)", "[1, 64]"},
		{"Where(s77 > 4, s77, n)", "[-5, 64]"},
		{"ToFloat(s77)", "[1.0, 64.0]"},
		{"0.5*ToFloat(s77)", "[0.5, 32.0]"},
		{"FloatTrueDiv(ToFloat(s77), 3.0)", "[0.3333333333333333, 21.333333333333332]"},
		{"FloatTrueDiv(1.0, x)", "[-oo, oo]"},
		{"IntTrueDiv(s53, n)", "[-200.0, 200.0]"},
		{"TruncToInt(2.5*ToFloat(n))", "[-12, 12]"},
		{"RoundToInt(x)", "[-1, 1]"},
		{"Abs(n)", "[0, 5]"},
		{"OpaqueUnaryFn_sqrt(ToFloat(s77))", "[1.0, 8.0]"},
		{"OpaqueUnaryFn_sin(x)", "[-1.0, 1.0]"},
		{"LShift(s77, 2)", "[4, 256]"},
		{"BitwiseFn_bitwise_and(s53, 7)", "[0, 7]"},
		{"BitwiseFn_bitwise_or(s77, 7)", "[7, 127]"},
		{"ToFloat(n)*oo < 1", "[False, True]"}, // 0*oo is NaN: undecided
		{"2**n", "[-oo, oo]"},                  // 2**-2 is 1/4
		{"q + 1", "[-int_oo, int_oo]"},         // no range: unbounded
		{"FloorDiv(s53, 0)", "[-int_oo, int_oo]"},
	} {
		got := mustParse(t, tc.expr).Range(ranges)
		if got.String() != tc.want {
			t.Errorf("Range(%s) = %s, want %s", tc.expr, got, tc.want)
		}
	}
}

func ptr(v int64) *int64 { return &v }

func TestRangeContains(t *testing.T) {
	r := sym.IntRange(2, 200)
	for v, want := range map[int64]bool{1: false, 2: true, 200: true, 201: false} {
		if r.Contains(sym.IntValue(v)) != want {
			t.Errorf("%s contains %d: %v", r, v, !want)
		}
	}
	u := sym.IntRangeBounds(ptr(2), nil)
	if u.String() != "[2, int_oo]" || !u.Contains(sym.IntValue(math.MaxInt64)) || u.Contains(sym.IntValue(1)) {
		t.Errorf("%s", u)
	}
	f := sym.FloatRange(0.5, 32)
	if !f.Contains(sym.FloatValue(0.5)) || f.Contains(sym.FloatValue(math.NaN())) || !f.Contains(sym.IntValue(3)) {
		t.Errorf("%s", f)
	}
	nan := mustParse(t, "ToFloat(n)*oo").Range(map[string]sym.Range{"n": sym.IntRange(-1, 1)})
	if !nan.Contains(sym.FloatValue(math.NaN())) || !nan.Contains(sym.FloatValue(math.Inf(1))) {
		t.Errorf("%s should allow NaN", nan)
	}
	if sym.BoolRange(true, true).Contains(sym.BoolValue(false)) || !sym.Unbounded(sym.TypeBool).Contains(sym.BoolValue(false)) {
		t.Error("bool ranges")
	}
	if r.Contains(sym.BoolValue(true)) {
		t.Error("int range contains a bool")
	}
	if sym.Unbounded(sym.TypeFloat).String() != "[-oo, oo]" {
		t.Error(sym.Unbounded(sym.TypeFloat))
	}
	if lo := r.Lo; lo.Infinite() != 0 || lo.Int() != 2 || u.Hi.Infinite() != 1 {
		t.Error("bounds")
	}
}

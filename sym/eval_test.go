package sym_test

import (
	"math"
	"strings"
	"testing"

	"github.com/seam-rt/seam/sym"
)

// TestEval checks Python's semantics, value and kind.
func TestEval(t *testing.T) {
	b := sym.Bindings{"a": 7, "b": -7, "n": 2, "z": 0, "big": math.MaxInt64, "s77": 5}
	for _, tc := range []struct {
		expr string
		want string // Value.String(), with the kind: 3 int, 3.0 float
	}{
		{"a + 1", "8"},
		{"2*a*n - 3", "25"},
		{"FloorDiv(a, n)", "3"},
		{"FloorDiv(b, n)", "-4"}, // toward -inf, not zero
		{"FloorDiv(a, -2)", "-4"},
		{"FloorDiv(b, -2)", "3"},
		{"CeilDiv(a, n)", "4"},
		{"CeilDiv(b, n)", "-3"},
		{"PythonMod(b, 3)", "2"}, // sign of the divisor
		{"PythonMod(a, -3)", "-2"},
		{"Mod(a, 3)", "1"},
		{"ModularIndexing(a, 2, 2)", "1"},
		{"Max(a, b, 3)", "7"},
		{"Min(a, b, 3)", "-7"},
		{"Max(1, ToFloat(a))", "7.0"},
		{"a > 4", "True"},
		{"Eq(a, 7)", "True"},
		{"Ne(a, 7)", "False"},
		{"(a > 4) & (b > 4)", "False"},
		{"(a > 4) | (b > 4)", "True"},
		{"~(a > 4)", "False"},
		{"Where(a > 4, a, b)", "7"},
		{"ToFloat(a)", "7.0"},
		{"0.5*ToFloat(s77)", "2.5"},
		{"FloatTrueDiv(ToFloat(s77), 3.0)", "1.6666666666666667"},
		{"IntTrueDiv(a, n)", "3.5"},
		{"IntTrueDiv(9007199254740993, 1)", "9007199254740992.0"}, // correctly rounded
		{"TruncToInt(-2.5)", "-2"},
		{"FloorToInt(-2.5)", "-3"},
		{"CeilToInt(-2.5)", "-2"},
		{"RoundToInt(2.5)", "2"}, // half to even
		{"RoundToInt(3.5)", "4"},
		{"RoundDecimal(2.675, 2)", "2.67"}, // the float is below 2.675
		{"RoundDecimal(1234.5, -2)", "1200.0"},
		{"TruncToFloat(-2.5)", "-2.0"},
		{"a/n", "3.5"},
		{"a*n/n", "7"},
		{"n**10", "1024"},
		{"n**-1", "0.5"},
		{"sqrt(4)", "2"},
		{"sqrt(a)", "2.6457513110645907"},
		{"PowByNatural(n, 3)", "8"},
		{"FloatPow(n, 0.5)", "1.4142135623730951"},
		{"Abs(b)", "7"},
		{"Identity(a)", "7"},
		{"LShift(a, 2)", "28"},
		{"RShift(b, 1)", "-4"},
		{"BitwiseFn_bitwise_and(a, 3)", "3"},
		{"BitwiseFn_bitwise_or(a, 8)", "15"},
		{"BitwiseFn_bitwise_xor(a, 1)", "6"},
		{"BitwiseFn_bitwise_and(a > 1, b > 1)", "False"},
		{"OpaqueUnaryFn_exp(ToFloat(z))", "1.0"},
		{"OpaqueUnaryFn_log2(ToFloat(8))", "3.0"},
		{"big - 1 + 1", "9223372036854775807"},
		{"(big + 1) - 1", "9223372036854775807"}, // Python ints: the intermediate may exceed int64
		{"FloorDiv(big*big, big)", "9223372036854775807"},
		{"oo", "inf"},
		{"Max(a, nan)", "nan"},
	} {
		e := mustParse(t, tc.expr)
		v, err := e.Eval(b)
		if err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		if got := v.String(); got != tc.want {
			t.Errorf("%s = %s, want %s", tc.expr, got, tc.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	b := sym.Bindings{"a": 7, "z": 0, "big": math.MaxInt64}
	for _, tc := range []struct{ expr, frag string }{
		{"q + 1", "eval q: unbound symbol"},
		{"FloorDiv(a, z)", "eval (a//z): division by zero"},
		{"PythonMod(a, z)", "modulo by zero"},
		{"FloatTrueDiv(ToFloat(a), ToFloat(z))", "division by zero"},
		{"IntTrueDiv(a, z)", "division by zero"},
		{"z**-1", "zero to a negative power"},
		{"big + 1", "integer overflow: 9223372036854775808 does not fit in int64"},
		{"big*big", "does not fit in int64"},
		{"2**100000", "integer overflow"},
		{"OpaqueUnaryFn_sqrt(ToFloat(-a))", "math domain error"},
		{"OpaqueUnaryFn_log(ToFloat(z))", "math domain error"},
		{"OpaqueUnaryFn_exp(ToFloat(1000))", "math range error"},
		{"TruncToInt(oo)", "infinity to integer"},
		{"(a > 1) & a", "logic on a non-bool"},
		{"(a > 1) + 1", "a bool where a number is needed"},
		{"LShift(a, -1)", "negative shift count"},
		{"PowByNatural(a, -1)", "natural exponent"},
		{"int_oo + 1", "unbounded integer has no value"},
		{"FloatPow(-2, 0.5)", "fractional power"},
	} {
		_, err := mustParse(t, tc.expr).Eval(b)
		if err == nil || !strings.Contains(err.Error(), tc.frag) {
			t.Errorf("%s: error %v, want one containing %q", tc.expr, err, tc.frag)
		}
	}
}

func TestValue(t *testing.T) {
	for _, tc := range []struct {
		v    sym.Value
		want string
	}{
		{sym.IntValue(-3), "-3"}, {sym.FloatValue(2), "2.0"}, {sym.FloatValue(1e-5), "1e-05"},
		{sym.FloatValue(1e16), "1e+16"}, {sym.FloatValue(1234567.5), "1234567.5"},
		{sym.FloatValue(math.Inf(-1)), "-inf"}, {sym.BoolValue(true), "True"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%v: got %s, want %s", tc.v.Type(), got, tc.want)
		}
	}
	if sym.IntValue(3).Float() != 3 || sym.FloatValue(2.5).Float() != 2.5 || !sym.BoolValue(true).Bool() || sym.IntValue(4).Int() != 4 {
		t.Error("accessors")
	}
}

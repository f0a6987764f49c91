package sym_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/seam-rt/seam/sym"
)

func mustParse(t testing.TB, text string) *sym.Expr {
	t.Helper()
	e, err := sym.Parse(text)
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return e
}

// TestParse reads both forms and checks the tree through String and Srepr.
func TestParse(t *testing.T) {
	for _, tc := range []struct{ in, str, srepr string }{
		// srepr, as export writes it.
		{"Symbol('s53', positive=True, integer=True)", "s53", "Symbol('s53', positive=True, integer=True)"},
		{"Symbol('s0', integer=True, positive=True)", "s0", "Symbol('s0', integer=True, positive=True)"},
		{"Symbol('x')", "x", "Symbol('x')"},
		{"Symbol(\"it's\")", "it's", "Symbol(\"it's\")"},
		{"Integer(-7)", "-7", "Integer(-7)"},
		{"Integer(123456789012345678901234567890)", "123456789012345678901234567890", "Integer(123456789012345678901234567890)"},
		{"Rational(1, 2)", "1/2", "Rational(1, 2)"},
		{"Rational(4, 2)", "2", "Integer(2)"},
		{"Float('3.0', precision=53)", "3.00000000000000", "Float('3.0', precision=53)"},
		{"Float('0.10000000000000001', precision=53)", "0.100000000000000", "Float('0.10000000000000001', precision=53)"},
		{"Mul(Integer(-1), Integer(2), Symbol('s0'))", "-2*s0", "Mul(Integer(-1), Integer(2), Symbol('s0'))"},
		{"Mul(Integer(2), Symbol('s0'))", "2*s0", "Mul(Integer(2), Symbol('s0'))"},
		{"Add(Symbol('s0'), Integer(-1))", "s0 - 1", "Add(Symbol('s0'), Integer(-1))"},
		{"Pow(Symbol('x'), Rational(1, 2))", "sqrt(x)", "Pow(Symbol('x'), Rational(1, 2))"},
		{"StrictGreaterThan(Symbol('s77'), Integer(4))", "s77 > 4", "StrictGreaterThan(Symbol('s77'), Integer(4))"},
		{"Equality(Symbol('s0'), Integer(1))", "Eq(s0, 1)", "Equality(Symbol('s0'), Integer(1))"},
		{"Unequality(Symbol('s0'), Integer(1))", "Ne(s0, 1)", "Unequality(Symbol('s0'), Integer(1))"},
		{"GreaterThan(Symbol('s0'), Integer(1))", "s0 >= 1", "GreaterThan(Symbol('s0'), Integer(1))"},
		{"LessThan(Symbol('s0'), Integer(1))", "s0 <= 1", "LessThan(Symbol('s0'), Integer(1))"},
		{"StrictLessThan(Symbol('s0'), Integer(1))", "s0 < 1", "StrictLessThan(Symbol('s0'), Integer(1))"},
		{"And(StrictGreaterThan(Symbol('a'), Integer(1)), StrictLessThan(Symbol('b'), Integer(3)))", "(a > 1) & (b < 3)", ""},
		{"Or(Equality(Symbol('a'), Integer(1)), StrictLessThan(Symbol('b'), Integer(3)))", "Eq(a, 1) | (b < 3)", ""},
		{"Not(Symbol('a'))", "~a", "Not(Symbol('a'))"},
		{"true", "True", "true"},
		{"false", "False", "false"},
		{"BooleanTrue()", "True", "true"},
		{"oo", "oo", "oo"},
		{"-oo", "-oo", "-oo"},
		{"int_oo", "int_oo", "int_oo"},
		{"-int_oo", "-int_oo", "-int_oo"},
		{"nan", "nan", "nan"},
		{"FloorDiv(Symbol('s0'), Integer(2))", "(s0//2)", "FloorDiv(Symbol('s0'), Integer(2))"},
		{"CeilDiv(Symbol('s0'), Integer(2))", "CeilDiv(s0, 2)", ""},
		{"Mod(Symbol('s0'), Integer(2))", "Mod(s0, 2)", ""},
		{"PythonMod(Symbol('s0'), Integer(2))", "PythonMod(s0, 2)", ""},
		{"ModularIndexing(Symbol('s0'), Integer(2), Integer(4))", "ModularIndexing(s0, 2, 4)", ""},
		{"Max(Integer(1), Symbol('s86', integer=True))", "Max(1, s86)", "Max(Integer(1), Symbol('s86', integer=True))"},
		{"Min(Symbol('b'), Symbol('a'))", "Min(a, b)", "Min(Symbol('b'), Symbol('a'))"},
		{"Where(StrictGreaterThan(Symbol('a'), Integer(0)), Symbol('a'), Integer(0))", "Where(a > 0, a, 0)", ""},
		{"ToFloat(Symbol('s77'))", "ToFloat(s77)", "ToFloat(Symbol('s77'))"},
		{"FloatTrueDiv(ToFloat(Symbol('s77', positive=True, integer=True)), Float('3.0', precision=53))",
			"FloatTrueDiv(ToFloat(s77), 3.0)", ""},
		{"Mul(Float('0.5', precision=53), ToFloat(Symbol('s77')))", "0.5*ToFloat(s77)", ""},
		{"IntTrueDiv(Symbol('a'), Integer(2))", "IntTrueDiv(a, 2)", ""},
		{"TruncToInt(ToFloat(Symbol('a')))", "TruncToInt(ToFloat(a))", ""},
		{"OpaqueUnaryFn_sqrt(ToFloat(Symbol('a')))", "OpaqueUnaryFn_sqrt(ToFloat(a))", ""},
		{"BitwiseFn_bitwise_and(Symbol('a'), Integer(3))", "BitwiseFn_bitwise_and(a, 3)", ""},
		{"Identity(Symbol('a'))", "(a)", "Identity(Symbol('a'))"},
		{"Abs(Symbol('a'))", "Abs(a)", ""},
		{"RoundDecimal(ToFloat(Symbol('a')), Integer(2))", "RoundDecimal(ToFloat(a), 2)", ""},
		// str, as older files and print_readable write it.
		{"s0", "s0", "Symbol('s0')"},
		{"2*s0", "2*s0", "Mul(Integer(2), Symbol('s0'))"},
		{"s0*2", "2*s0", ""},
		{"s0 + 1", "s0 + 1", "Add(Symbol('s0'), Integer(1))"},
		{"1 + s0", "s0 + 1", ""},
		{"s0 + s0", "2*s0", ""},
		{"s77 > 4", "s77 > 4", ""},
		{"FloorDiv(s0, 2)", "(s0//2)", ""},
		{"(s0//2)", "(s0//2)", ""},
		{"-s0", "-s0", "Mul(Integer(-1), Symbol('s0'))"},
		{"s0**2", "s0**2", "Pow(Symbol('s0'), Integer(2))"},
		{"s0 - 1", "s0 - 1", ""},
		{"1 - s0", "1 - s0", "Add(Integer(1), Mul(Integer(-1), Symbol('s0')))"},
		{"2*(s0 + 1)", "2*s0 + 2", ""},
		{"s0*(s1 + 1)", "s0*(s1 + 1)", ""},
		{"s0/2", "s0/2", "Mul(Rational(1, 2), Symbol('s0'))"},
		{"s0/s1", "s0/s1", ""},
		{"-x**2", "-x**2", ""},
		{"2**-1", "1/2", ""},
		{"2**3**2", "512", ""},
		{"s0 % 3", "PythonMod(s0, 3)", ""},
		{"(a > 1) & (b < 3) & (c < 4)", "(a > 1) & (b < 3) & (c < 4)", ""},
		{"0 < a < 5", "(0 < a) & (a < 5)", ""},
		{"Eq(s0, 1)", "Eq(s0, 1)", ""},
		{"s0 == 1", "Eq(s0, 1)", ""},
		{"~(a > 1)", "~(a > 1)", ""},
		{"0.5*ToFloat(s77)", "0.5*ToFloat(s77)", ""},
		{"1e-5", "1.00000000000000e-5", "Float('1.0000000000000001e-5', precision=53)"},
		{"True", "True", ""},
		{"sqrt(x)", "sqrt(x)", ""},
		{"Max(s0)", "s0", ""},
		{"Add(Symbol('x'))", "x", ""},
		{"Mul()", "1", ""},
		{"  s0\t+\n1 ", "s0 + 1", ""},
	} {
		e, err := sym.Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := e.String(); got != tc.str {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.in, got, tc.str)
		}
		want := tc.srepr
		if want == "" {
			continue
		}
		if got := e.Srepr(); got != want {
			t.Errorf("Parse(%q).Srepr() = %q, want %q", tc.in, got, want)
		}
	}
}

// TestParseErrors: bad text is an error with the position of the problem.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		pos  int
		frag string
	}{
		{"", 0, "unexpected end of input"},
		{"(", 1, "unexpected end of input"},
		{"s0 +", 4, "unexpected end of input"},
		{"s0 s1", 3, `unexpected "s1"`},
		{"(s0", 3, "expected ')'"},
		{"Foo(1)", 0, "unknown function Foo"},
		{"FloorDiv(1)", 0, "FloorDiv takes 2 arguments, got 1"},
		{"Max()", 0, "Max takes at least 1 arguments, got 0"},
		{"Integer(x)", 8, "Integer needs an integer"},
		{"Rational(1, 0)", 12, "zero denominator"},
		{"Symbol(1)", 0, "Symbol needs one name string"},
		{"Symbol('x', positive=1)", 21, "must be True or False"},
		{"Float('abc', precision=53)", 6, "bad Float value"},
		{"Float('1.0', digits=3)", 20, "precision"},
		{"Add(x, evaluate=False)", 0, "does not take keyword arguments"},
		{"'abc'", 0, "a string is not an expression"},
		{"1 ^ 2", 2, `unsupported operator "^"`},
		{"x << 2", 2, `unsupported operator "<<"`},
		{"2x", 1, "after number"},
		{"s0 $ 1", 3, "unexpected character"},
		{"'abc", 0, "unterminated string"},
		{"zoo", 0, "unsupported constant zoo"},
		{"1e999", 0, "out of range"},
		{"f(x=1, 2)", 7, "positional argument after keyword"},
		{strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300), 200, "nested too deeply"},
		{strings.Repeat("-", 300) + "1", 199, "nested too deeply"},
		{"\xff", 0, "invalid UTF-8"},
	} {
		_, err := sym.Parse(tc.in)
		var pe *sym.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, want a ParseError", tc.in, err)
			continue
		}
		if pe.Pos != tc.pos || !strings.Contains(pe.Msg, tc.frag) {
			t.Errorf("Parse(%q): error at %d %q, want at %d containing %q", tc.in, pe.Pos, pe.Msg, tc.pos, tc.frag)
		}
		if !strings.Contains(err.Error(), "sym: parse") {
			t.Errorf("Parse(%q): error text %q", tc.in, err)
		}
	}
}

// TestInspect walks an expression through the exported accessors, as a
// lowering pass would.
func TestInspect(t *testing.T) {
	e := mustParse(t, "Add(Mul(Integer(2), Symbol('s0', integer=True)), FloorDiv(Symbol('s1'), Integer(3)), Integer(1))")
	if e.Op() != sym.OpAdd || e.NumArgs() != 3 {
		t.Fatalf("got %v with %d args", e.Op(), e.NumArgs())
	}
	mul, fd, one := e.Arg(0), e.Arg(1), e.Arg(2)
	if mul.Op() != sym.OpMul || mul.Arg(1).Name() != "s0" {
		t.Errorf("first term %s", mul)
	}
	if v, ok := mul.Arg(0).Int64(); !ok || v != 2 {
		t.Errorf("coefficient %v %v", v, ok)
	}
	if as := mul.Arg(1).Assumptions(); len(as) != 1 || as[0] != (sym.Assumption{Name: "integer", Value: "True"}) {
		t.Errorf("assumptions %v", as)
	}
	if fd.Op() != sym.OpFloorDiv || fd.Op().String() != "FloorDiv" || fd.Type() != sym.TypeInt {
		t.Errorf("second term %s", fd)
	}
	if v, ok := one.Int64(); !ok || v != 1 || one.BigInt().Int64() != 1 || one.Rat().String() != "1/1" {
		t.Errorf("constant %s", one)
	}
	if got := e.Symbols(); strings.Join(got, ",") != "s0,s1" {
		t.Errorf("Symbols = %v", got)
	}
	args := e.Args()
	args[0] = nil // a copy: e is unchanged
	if e.Arg(0) == nil {
		t.Error("Args is not a copy")
	}
	f := mustParse(t, "Float('0.5', precision=53)")
	if v, ok := f.Float64(); !ok || v != 0.5 || f.Precision() != 53 || f.Type() != sym.TypeFloat {
		t.Errorf("float %v %v", v, ok)
	}
	if v, ok := mustParse(t, "true").BoolValue(); !ok || !v {
		t.Error("true")
	}
	if mustParse(t, "s0 > 4").Type() != sym.TypeBool || mustParse(t, "ToFloat(s0)").Type() != sym.TypeFloat {
		t.Error("types")
	}
	if !mustParse(t, "FloorDiv(4, 2)").IsConstant() || mustParse(t, "s0 + 1").IsConstant() {
		t.Error("IsConstant")
	}
	if _, err := sym.New(sym.OpFloorDiv, sym.Sym("a")); err == nil {
		t.Error("New accepted a wrong arity")
	}
	if _, err := sym.New(sym.OpSymbol); err == nil {
		t.Error("New built an atom")
	}
	if _, err := sym.New(sym.OpMax, sym.Int(1), nil); err == nil {
		t.Error("New accepted a nil argument")
	}
	if e, err := sym.New(sym.OpAdd, sym.Sym("a"), sym.Sym("a")); err != nil || e.String() != "2*a" {
		t.Errorf("New(Add) = %v, %v", e, err)
	}
}

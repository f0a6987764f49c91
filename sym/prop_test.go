package sym_test

import (
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/seam-rt/seam/sym"
)

// Property tests on random expression trees built with the constructors.

var propSymbols = []string{"s0", "s1", "s2", "s3"}

// world is a draw of symbol ranges and bindings inside them.
type world struct {
	ranges   map[string]sym.Range
	bindings sym.Bindings
}

func drawWorld(t *rapid.T) world {
	w := world{ranges: map[string]sym.Range{}, bindings: sym.Bindings{}}
	for _, s := range propSymbols {
		var lo, hi int64
		if rapid.IntRange(0, 9).Draw(t, s+"_big") == 0 {
			lo = rapid.Int64Range(-1<<40, 1<<40).Draw(t, s+"_lo")
			hi = lo + rapid.Int64Range(0, 1<<20).Draw(t, s+"_w")
		} else {
			lo = rapid.Int64Range(-20, 30).Draw(t, s+"_lo")
			hi = lo + rapid.Int64Range(0, 40).Draw(t, s+"_w")
		}
		w.ranges[s] = sym.IntRange(lo, hi)
		w.bindings[s] = rapid.Int64Range(lo, hi).Draw(t, s)
	}
	return w
}

func call(op sym.Op, args ...*sym.Expr) *sym.Expr {
	e, err := sym.New(op, args...)
	if err != nil {
		panic(err) // the generator's arities are fixed
	}
	return e
}

var floatConsts = []float64{0.5, 2.0, 1.5, 0.25, 3.0}

func genLeaf(t *rapid.T) *sym.Expr {
	switch rapid.IntRange(0, 9).Draw(t, "leaf") {
	case 0, 1, 2, 3, 4:
		return sym.Sym(rapid.SampledFrom(propSymbols).Draw(t, "sym"))
	case 5, 6, 7:
		return sym.Int(rapid.Int64Range(-6, 9).Draw(t, "int"))
	case 8:
		return sym.Div(sym.Int(rapid.Int64Range(-3, 3).Draw(t, "p")), sym.Int(rapid.Int64Range(2, 4).Draw(t, "q")))
	}
	return sym.Float(rapid.SampledFrom(floatConsts).Draw(t, "float"))
}

// genInt draws an int-valued expression (floats appear inside conversions).
func genInt(t *rapid.T, depth int) *sym.Expr {
	if depth <= 0 {
		return genLeaf(t)
	}
	d := depth - 1
	sub := func() *sym.Expr { return genInt(t, d) }
	switch rapid.IntRange(0, 22).Draw(t, "op") {
	case 0, 1:
		return genLeaf(t)
	case 2, 3:
		return sym.Add(sub(), sub(), genOptional(t, d))
	case 4, 5:
		return sym.Mul(sub(), sub(), genOptional(t, d))
	case 6:
		return sym.Neg(sub())
	case 7:
		return sym.Pow(sub(), sym.Int(rapid.Int64Range(-1, 3).Draw(t, "k")))
	case 8:
		return call(sym.OpFloorDiv, sub(), sub())
	case 9:
		return call(sym.OpCeilDiv, sub(), sub())
	case 10:
		return call(rapid.SampledFrom([]sym.Op{sym.OpPythonMod, sym.OpMod}).Draw(t, "mod"), sub(), sub())
	case 11:
		return call(rapid.SampledFrom([]sym.Op{sym.OpMax, sym.OpMin}).Draw(t, "mm"), sub(), sub(), sub())
	case 12:
		return call(sym.OpWhere, genBool(t, d), sub(), sub())
	case 13:
		return call(sym.OpAbs, sub())
	case 14:
		return call(sym.OpTruncToInt, call(sym.OpFloatTrueDiv, call(sym.OpToFloat, sub()), sym.Float(rapid.SampledFrom(floatConsts).Draw(t, "div"))))
	case 15:
		return call(sym.OpToFloat, sub())
	case 16:
		return call(sym.OpIntTrueDiv, sub(), sub())
	case 17:
		return call(rapid.SampledFrom([]sym.Op{sym.OpFloorToInt, sym.OpCeilToInt, sym.OpRoundToInt}).Draw(t, "round"),
			call(sym.OpSqrt, call(sym.OpToFloat, sub())))
	case 18:
		return call(rapid.SampledFrom([]sym.Op{sym.OpBitwiseAnd, sym.OpBitwiseOr, sym.OpBitwiseXor}).Draw(t, "bit"), sub(), sub())
	case 19:
		return call(rapid.SampledFrom([]sym.Op{sym.OpLShift, sym.OpRShift}).Draw(t, "shift"), sub(), sym.Int(rapid.Int64Range(0, 4).Draw(t, "n")))
	case 20:
		return call(sym.OpModularIndexing, sub(), sub(), sub())
	case 21:
		return call(sym.OpPowByNatural, sub(), sym.Int(rapid.Int64Range(0, 3).Draw(t, "k")))
	}
	return call(sym.OpIdentity, sub())
}

func genOptional(t *rapid.T, depth int) *sym.Expr {
	if rapid.Bool().Draw(t, "third") {
		return genInt(t, depth)
	}
	return sym.Int(0)
}

func genBool(t *rapid.T, depth int) *sym.Expr {
	d := depth - 1
	switch k := rapid.IntRange(0, 8).Draw(t, "bool"); {
	case k == 0 && depth > 0:
		return call(sym.OpAnd, genBool(t, d), genBool(t, d))
	case k == 1 && depth > 0:
		return call(sym.OpOr, genBool(t, d), genBool(t, d))
	case k == 2 && depth > 0:
		return call(sym.OpNot, genBool(t, d))
	case k == 3:
		return sym.Bool(rapid.Bool().Draw(t, "b"))
	}
	op := rapid.SampledFrom([]sym.Op{sym.OpEq, sym.OpNe, sym.OpLt, sym.OpLe, sym.OpGt, sym.OpGe}).Draw(t, "rel")
	return call(op, genInt(t, d), genInt(t, d))
}

func genExpr(t *rapid.T) *sym.Expr {
	depth := rapid.IntRange(0, 4).Draw(t, "depth")
	if rapid.IntRange(0, 5).Draw(t, "kind") == 0 {
		return genBool(t, depth)
	}
	return genInt(t, depth)
}

// sameValue compares results: exactly for ints and bools, with a relative
// tolerance for floats (canonical forms sum in another order).
func sameValue(a, b sym.Value) bool {
	if a.Type() == sym.TypeBool || b.Type() == sym.TypeBool {
		return a.Type() == b.Type() && a.Bool() == b.Bool()
	}
	if a.Type() == sym.TypeInt && b.Type() == sym.TypeInt {
		return a.Int() == b.Int()
	}
	x, y := a.Float(), b.Float()
	if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return (math.IsNaN(x) && math.IsNaN(y)) || x == y
	}
	return math.Abs(x-y) <= 1e-6*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
}

func TestPropCanonicalIdempotent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := genExpr(t)
		c := e.Canonical()
		if cc := c.Canonical(); !sym.Equal(c, cc) {
			t.Fatalf("Canonical(%s) = %s, then %s", e, c, cc)
		}
	})
}

func TestPropCanonicalValue(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := genExpr(t)
		w := drawWorld(t)
		v, err := e.Eval(w.bindings)
		if err != nil {
			return // Canonical may give a value where e has none (x - x)
		}
		if floorsFloats(e) {
			// Canonical sums floats in another order; a floor or comparison
			// above them can turn an ulp into a different integer.
			return
		}
		c := e.Canonical()
		cv, err := c.Eval(w.bindings)
		if err != nil {
			t.Fatalf("%s = %s but its canonical form %s fails: %v (bindings %v)", e, v, c, err, w.bindings)
		}
		if !sameValue(v, cv) {
			t.Fatalf("%s = %s but its canonical form %s = %s (bindings %v)", e, v, c, cv, w.bindings)
		}
	})
}

func TestPropRangeContainsValue(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := genExpr(t)
		w := drawWorld(t)
		for _, x := range []*sym.Expr{e, e.Canonical()} {
			v, err := x.Eval(w.bindings)
			if err != nil {
				continue
			}
			if r := x.Range(w.ranges); !r.Contains(v) {
				t.Fatalf("%s = %s outside its range %s (bindings %v, ranges %v)", x, v, r, w.bindings, w.ranges)
			}
		}
	})
}

// discontinuous operations turn a rounding difference into a jump.
var discontinuous = map[sym.Op]bool{
	sym.OpFloorDiv: true, sym.OpCleanDiv: true, sym.OpCeilDiv: true, sym.OpMod: true, sym.OpPythonMod: true,
	sym.OpModularIndexing: true, sym.OpTruncToInt: true, sym.OpFloorToInt: true, sym.OpCeilToInt: true,
	sym.OpRoundToInt: true, sym.OpRoundDecimal: true, sym.OpTruncToFloat: true, sym.OpEq: true, sym.OpNe: true,
	sym.OpLt: true, sym.OpLe: true, sym.OpGt: true, sym.OpGe: true, sym.OpBitwiseAnd: true,
	sym.OpBitwiseOr: true, sym.OpBitwiseXor: true, sym.OpLShift: true, sym.OpRShift: true,
}

// floorsFloats: a discontinuous operation has a float computed below it.
func floorsFloats(e *sym.Expr) bool {
	if discontinuous[e.Op()] {
		for i := 0; i < e.NumArgs(); i++ {
			if hasFloat(e.Arg(i)) {
				return true
			}
		}
	}
	for i := 0; i < e.NumArgs(); i++ {
		if floorsFloats(e.Arg(i)) {
			return true
		}
	}
	return false
}

func hasFloat(e *sym.Expr) bool {
	if e.Type() == sym.TypeFloat {
		return true
	}
	for i := 0; i < e.NumArgs(); i++ {
		if hasFloat(e.Arg(i)) {
			return true
		}
	}
	return false
}

// printable: str() is not a faithful serialisation, for SymPy either: it
// loses torch's Identity (printed as parentheses) and the digits of floats
// beyond 15; 0**-1, which SymPy would have made zoo, reads back folded into
// its product.
func printable(e *sym.Expr) bool {
	switch e.Op() {
	case sym.OpIdentity:
		return false
	case sym.OpPow:
		if v, ok := e.Arg(0).Int64(); ok && v == 0 {
			return false
		}
		if f, ok := e.Arg(0).Float64(); ok && f == 0 {
			return false
		}
	case sym.OpMul:
		// 1/(2*(s0 + s1)) reads back as 1/(2*s0 + 2*s1): SymPy's binary *
		// distributes a number over a sum, and so does Parse.
		if c := e.Arg(0); c.Op() == sym.OpRational {
			for i := 1; i < e.NumArgs(); i++ {
				if f := e.Arg(i); f.Op() == sym.OpPow && f.Arg(0).Op() == sym.OpAdd {
					return false
				}
			}
		}
	case sym.OpFloat:
		f, _ := e.Float64()
		s := strconv.FormatFloat(f, 'e', 14, 64)
		g, _ := strconv.ParseFloat(s, 64)
		return g == f
	}
	for i := 0; i < e.NumArgs(); i++ {
		if !printable(e.Arg(i)) {
			return false
		}
	}
	return true
}

func TestPropParsePrint(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := genExpr(t).Canonical()
		if !printable(c) {
			return
		}
		p, err := sym.Parse(c.String())
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.String(), err)
		}
		if !sym.Equal(p, c) {
			t.Fatalf("Parse(%q) = %s (%s), want %s", c.String(), p.Srepr(), p, c.Srepr())
		}
	})
}

func TestPropParseSrepr(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := genExpr(t)
		for _, x := range []*sym.Expr{e, e.Canonical()} {
			text := x.Srepr()
			p, err := sym.Parse(text)
			if err != nil {
				t.Fatalf("Parse(%q): %v", text, err)
			}
			if !sym.Equal(p, x) || p.Srepr() != text {
				t.Fatalf("Parse(%q) = %s", text, p.Srepr())
			}
		}
	})
}

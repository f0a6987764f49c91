package sym

import (
	"math"
	"math/big"
)

// Constructors of atoms. Numbers are SymPy numbers: Integer and Rational are
// exact and arbitrarily large, Float is a float64 with a precision tag.

// Sym is the symbol name, with SymPy assumptions such as
// Assumption{"integer", "True"} kept for Srepr.
func Sym(name string, assumptions ...Assumption) *Expr {
	return &Expr{op: OpSymbol, name: name, assume: append([]Assumption(nil), assumptions...)}
}

// Int is the Integer v.
func Int(v int64) *Expr {
	return &Expr{op: OpInteger, num: big.NewInt(v), small: v, fits: true}
}

// BigInt is the Integer v (copied).
func BigInt(v *big.Int) *Expr { return newInteger(new(big.Int).Set(v)) }

// newInteger takes ownership of v.
func newInteger(v *big.Int) *Expr {
	e := &Expr{op: OpInteger, num: v}
	if v.IsInt64() {
		e.small, e.fits = v.Int64(), true
	}
	return e
}

// Rational is num/den in lowest terms: an Integer when den divides num, NaN
// when den is zero (SymPy gives zoo or nan there; seam has no complex
// infinity).
func Rational(num, den *big.Int) *Expr {
	if den.Sign() == 0 {
		return NaN()
	}
	return ratExpr(new(big.Rat).SetFrac(num, den))
}

// ratExpr turns an exact value into an Integer or Rational.
func ratExpr(r *big.Rat) *Expr {
	if r.IsInt() {
		return newInteger(new(big.Int).Set(r.Num()))
	}
	return &Expr{op: OpRational, num: new(big.Int).Set(r.Num()), den: new(big.Int).Set(r.Denom())}
}

// Float is the Float v with 53 bits of precision; ±Inf give oo and -oo, NaN
// gives nan and -0.0 gives 0.0, as sympy.Float does.
func Float(v float64) *Expr { return floatPrec(v, 53) }

func floatPrec(v float64, prec int) *Expr {
	switch {
	case math.IsNaN(v):
		return NaN()
	case math.IsInf(v, 1):
		return Infinity()
	case math.IsInf(v, -1):
		return NegInfinity()
	case v == 0:
		v = 0 // mpmath has no negative zero
	}
	return &Expr{op: OpFloat, f: v, prec: prec}
}

// Bool is SymPy's true or false.
func Bool(v bool) *Expr {
	if v {
		return &Expr{op: OpTrue, nc: true}
	}
	return &Expr{op: OpFalse, nc: true}
}

// Infinity is oo, a float infinity.
func Infinity() *Expr { return &Expr{op: OpInfinity} }

// NegInfinity is -oo.
func NegInfinity() *Expr { return &Expr{op: OpNegInfinity} }

// IntInfinity is int_oo, torch's integer infinity (an unbounded range end).
func IntInfinity() *Expr { return &Expr{op: OpIntInfinity} }

// NegIntInfinity is -int_oo.
func NegIntInfinity() *Expr { return &Expr{op: OpNegIntInfinity} }

// NaN is nan.
func NaN() *Expr { return &Expr{op: OpNaN} }

var (
	bigOne = big.NewInt(1)
	bigTwo = big.NewInt(2)
)

func isInt(e *Expr, v int64) bool { return e.op == OpInteger && e.fits && e.small == v }
func isZero(e *Expr) bool         { return isInt(e, 0) }
func isOne(e *Expr) bool          { return isInt(e, 1) }

// isRationalNum: Integer or Rational (SymPy's is_Rational).
func isRationalNum(e *Expr) bool { return e.op == OpInteger || e.op == OpRational }

func isInfinite(e *Expr) bool {
	switch e.op {
	case OpInfinity, OpNegInfinity, OpIntInfinity, OpNegIntInfinity:
		return true
	}
	return false
}

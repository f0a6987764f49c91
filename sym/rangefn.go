package sym

import (
	"math"
	"math/big"
)

// Ranges of conversions, powers, shifts, bitwise operations and math
// functions.

// floatDivRange is x / y in floats; a divisor that may be zero or near it
// makes the result unbounded. Int divisors cannot be in (-1, 1) \ {0}.
func floatDivRange(x, y Range) (Range, bool) {
	if !isNumericRange(x) || !isNumericRange(y) {
		return Range{}, false
	}
	fx := toFloatRange(x)
	var parts []Range
	if y.Type == TypeInt {
		for _, d := range divisorParts(y) {
			parts = append(parts, toFloatRange(d))
		}
	} else if y.Lo.f > 0 || y.Hi.f < 0 {
		parts = []Range{y}
	} else {
		r := Unbounded(TypeFloat)
		r.nan = hasZero(fx) // 0/0 is NaN
		return r, true
	}
	var out *Range
	for _, d := range parts {
		r, ok := floatCorners(fx, d, func(a, b float64) float64 {
			if math.IsInf(b, 0) && !math.IsInf(a, 0) {
				return 0
			}
			return a / b
		})
		if !ok {
			r = Unbounded(TypeFloat)
		}
		r.nan = hasInf(fx) && hasInf(d) // inf/inf is NaN
		if out != nil {
			r, _ = unionRange(*out, r)
		}
		out = &r
	}
	if out == nil {
		return Range{}, false
	}
	return *out, true
}

// monotoneFloat applies a non-decreasing float function to both ends.
func monotoneFloat(r Range, f func(float64) float64) Range {
	m := FloatRange(f(r.Lo.f), f(r.Hi.f))
	m.nan = r.nan
	return m
}

func toIntRange(op Op, r Range) (Range, bool) {
	if r.Type == TypeInt {
		return r, true
	}
	if r.Type != TypeFloat {
		return Range{}, false
	}
	f := map[Op]func(float64) float64{
		OpTruncToInt: math.Trunc, OpFloorToInt: math.Floor, OpCeilToInt: math.Ceil, OpRoundToInt: math.RoundToEven,
	}[op]
	return intRange(floatToIntB(r.Lo, f), floatToIntB(r.Hi, f)), true
}

func roundDecimalRange(x, n Range) (Range, bool) {
	if !isNumericRange(x) || n.Type != TypeInt {
		return Range{}, false
	}
	fx := toFloatRange(x)
	if n.Lo != n.Hi || n.Lo.inf != 0 {
		return Unbounded(TypeFloat), true
	}
	round := func(v float64) float64 {
		r, msg := roundDecimal(floatNum(v), intNum(n.Lo.i))
		if msg != "" {
			return v
		}
		return r.f
	}
	return monotoneFloat(fx, round), true
}

// powRange handles integer powers exactly and leaves the rest unbounded
// unless the base is at least 1 and the exponent non-negative.
func powRange(e *Expr, b, x Range) (Range, bool) {
	if !isNumericRange(b) || !isNumericRange(x) {
		return Range{}, false
	}
	if e.Type() == TypeFloat || b.Type == TypeFloat || x.Type == TypeFloat {
		return floatPowRange(toFloatRange(b), toFloatRange(x))
	}
	if signB(x.Lo) < 0 {
		// A negative exponent makes a rational: 2**-2 is 1/4.
		return Unbounded(TypeFloat), true
	}
	if x.Lo != x.Hi || x.Lo.inf != 0 {
		// Symbolic exponent: monotone when base >= 1 and exponent >= 0.
		if cmpB(b.Lo, IntBound(1)) >= 0 {
			return intRange(intPowB(b.Lo, x.Lo), intPowB(b.Hi, x.Hi)), true
		}
		return Range{}, false
	}
	k := x.Lo.i
	lo, hi := intPowB(b.Lo, x.Lo), intPowB(b.Hi, x.Lo)
	if k%2 == 1 || signB(b.Lo) >= 0 {
		return intRange(minB(lo, hi), maxB(lo, hi)), true
	}
	if signB(b.Hi) <= 0 {
		return intRange(minB(lo, hi), maxB(lo, hi)), true
	}
	if k == 0 {
		return IntRange(1, 1), true
	}
	return intRange(IntBound(0), maxB(lo, hi)), true
}

// intPowB is a**k on bounds, saturating.
func intPowB(a, k Bound) Bound {
	if k.inf != 0 {
		if signB(a) > 0 && (a.inf != 0 || a.i > 1) {
			return infB(1)
		}
		if a.inf == 0 && (a.i == 0 || a.i == 1) {
			return a
		}
		return infB(1)
	}
	if k.i == 0 {
		return IntBound(1)
	}
	if a.inf != 0 {
		if a.inf > 0 || k.i%2 == 0 {
			return infB(1)
		}
		return infB(-1)
	}
	v, msg := powNum(intNum(a.i), intNum(k.i))
	if msg != "" || v.kind != kInt {
		sign := 1
		if a.i < 0 && k.i%2 == 1 {
			sign = -1
		}
		return infB(sign)
	}
	if v.big != nil {
		return intBoundOf(v.big, 0)
	}
	return IntBound(v.i)
}

// floatPowRange: for a base >= 0 the power is monotone in each argument on
// either side of base 1; the ends are widened by an ulp since math.Pow is
// not guaranteed monotone.
func floatPowRange(b, x Range) (Range, bool) {
	if b.Lo.f < 0 {
		if x.Lo == x.Hi && x.Lo.inf == 0 && x.Lo.f == math.Trunc(x.Lo.f) && math.Abs(x.Lo.f) < 1<<53 {
			k := x.Lo.f
			if k >= 0 {
				c, ok := floatCorners(b, x, math.Pow)
				if !ok {
					return Range{}, false
				}
				if int64(k)%2 == 0 && b.Hi.f >= 0 {
					c.Lo = FloatBound(0)
				}
				return widen(c), true
			}
		}
		return Range{}, false
	}
	if b.Lo.f == 0 && x.Lo.f < 0 {
		return FloatRange(0, math.Inf(1)), true
	}
	c, ok := floatCorners(b, x, math.Pow)
	if !ok {
		return Range{}, false
	}
	if b.Lo.f < 1 && b.Hi.f > 1 {
		// The corners miss 1**x only when x spans zero; include it.
		c, _ = unionRange(c, FloatRange(1, 1))
	}
	return widen(c), true
}

func shiftRange(op Op, x, s Range) (Range, bool) {
	if x.Type != TypeInt || s.Type != TypeInt {
		return Range{}, false
	}
	s = intRange(maxB(s.Lo, IntBound(0)), s.Hi)
	if cmpB(s.Lo, s.Hi) > 0 {
		return Range{}, false
	}
	pow := func(k Bound) Bound {
		if k.inf != 0 || k.i >= 63 {
			return infB(1)
		}
		return IntBound(1 << uint(k.i))
	}
	p := intRange(pow(s.Lo), pow(s.Hi))
	if op == OpLShift {
		return mulRange(x, p)
	}
	return floorDivRange(x, p)
}

func bitwiseRange(op Op, x, y Range) (Range, bool) {
	if x.Type == TypeBool && y.Type == TypeBool {
		return Unbounded(TypeBool), true
	}
	if x.Type == TypeBool {
		x = intRange(IntBound(bi(x.Lo.b)), IntBound(bi(x.Hi.b)))
	}
	if y.Type == TypeBool {
		y = intRange(IntBound(bi(y.Lo.b)), IntBound(bi(y.Hi.b)))
	}
	if x.Type != TypeInt || y.Type != TypeInt || signB(x.Lo) < 0 || signB(y.Lo) < 0 {
		return Range{}, false
	}
	if op == OpBitwiseAnd {
		return intRange(IntBound(0), minB(x.Hi, y.Hi)), true
	}
	hi := maxB(x.Hi, y.Hi)
	if hi.inf == 0 {
		n := new(big.Int).SetInt64(hi.i).BitLen()
		hi = IntBound(int64(uint64(1)<<uint(n) - 1))
	}
	lo := IntBound(0)
	if op == OpBitwiseOr {
		lo = maxB(x.Lo, y.Lo)
	}
	return intRange(lo, hi), true
}

// unaryMathRange: values outside a function's domain make Eval fail, so the
// domain clamps the argument; libm results are widened by an ulp.
func unaryMathRange(op Op, r Range) (Range, bool) {
	if !isNumericRange(r) {
		return Range{}, false
	}
	f := toFloatRange(r)
	lo, hi := f.Lo.f, f.Hi.f
	clamp := func(a, b float64) bool {
		lo, hi = math.Max(lo, a), math.Min(hi, b)
		return lo <= hi
	}
	inc := func(fn func(float64) float64) (Range, bool) {
		return widen(FloatRange(fn(lo), fn(hi))), true
	}
	switch op {
	case OpSqrt:
		if !clamp(0, math.Inf(1)) {
			return Range{}, false
		}
		return FloatRange(math.Sqrt(lo), math.Sqrt(hi)), true // IEEE sqrt is monotone
	case OpExp:
		return inc(math.Exp)
	case OpLog, OpLog2:
		if !clamp(math.SmallestNonzeroFloat64, math.Inf(1)) {
			return Range{}, false
		}
		if op == OpLog {
			return inc(math.Log)
		}
		return inc(math.Log2)
	case OpAsinh:
		return inc(math.Asinh)
	case OpSinh:
		return inc(math.Sinh)
	case OpTanh:
		return inc(math.Tanh)
	case OpAtan:
		return inc(math.Atan)
	case OpAsin:
		if !clamp(-1, 1) {
			return Range{}, false
		}
		return inc(math.Asin)
	case OpAcos:
		if !clamp(-1, 1) {
			return Range{}, false
		}
		return widen(FloatRange(math.Acos(hi), math.Acos(lo))), true
	case OpCosh:
		a, b := math.Cosh(lo), math.Cosh(hi)
		if lo <= 0 && hi >= 0 {
			return widen(FloatRange(1, math.Max(a, b))), true
		}
		return widen(FloatRange(math.Min(a, b), math.Max(a, b))), true
	case OpSin, OpCos:
		return FloatRange(-1, 1), true
	}
	return Unbounded(TypeFloat), true
}

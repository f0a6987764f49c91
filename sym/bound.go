package sym

import (
	"math"
	"math/big"
	"strconv"
)

// Bound is one end of a Range: an int, a float or a bool, or an infinity
// (int_oo for ints, oo for floats).
type Bound struct {
	inf int8 // -1, +1 for infinities; 0 when finite
	i   int64
	f   float64
	b   bool
}

// IntBound is the finite int bound v.
func IntBound(v int64) Bound { return Bound{i: v} }

// FloatBound is the float bound v (±Inf for unbounded ends).
func FloatBound(v float64) Bound {
	switch {
	case math.IsInf(v, 1):
		return Bound{inf: 1, f: v}
	case math.IsInf(v, -1):
		return Bound{inf: -1, f: v}
	}
	return Bound{f: v}
}

// BoolBound is the bool bound v.
func BoolBound(v bool) Bound { return Bound{b: v} }

// Infinite is -1 or +1 for an unbounded end, 0 for a finite one.
func (b Bound) Infinite() int { return int(b.inf) }

// Int is a finite int bound's value.
func (b Bound) Int() int64 { return b.i }

// Float is a float bound's value (±Inf when unbounded).
func (b Bound) Float() float64 { return b.f }

// Bool is a bool bound's value.
func (b Bound) Bool() bool { return b.b }

func infB(sign int) Bound {
	if sign > 0 {
		return Bound{inf: 1, f: math.Inf(1)}
	}
	return Bound{inf: -1, f: math.Inf(-1)}
}

// intBoundOf saturates an exact integer to a bound: values outside int64
// become the infinity on their side (sound for ranges).
func intBoundOf(v *big.Int, side int) Bound {
	if v.IsInt64() {
		return IntBound(v.Int64())
	}
	if side < 0 && v.Sign() > 0 {
		return IntBound(math.MaxInt64)
	}
	if side > 0 && v.Sign() < 0 {
		return IntBound(math.MinInt64)
	}
	return infB(v.Sign())
}

// Extended-integer arithmetic on int bounds: overflow saturates to the
// infinity of the result's sign, which keeps computed ranges sound.

func addB(a, b Bound) Bound {
	if a.inf != 0 {
		return a
	}
	if b.inf != 0 {
		return b
	}
	s := a.i + b.i
	if (s > a.i) == (b.i > 0) {
		return IntBound(s)
	}
	if b.i > 0 {
		return infB(1)
	}
	return infB(-1)
}

func negB(a Bound) Bound {
	switch {
	case a.inf != 0:
		return infB(-int(a.inf))
	case a.i == math.MinInt64:
		return infB(1)
	}
	return IntBound(-a.i)
}

func signB(a Bound) int {
	if a.inf != 0 {
		return int(a.inf)
	}
	return cmp64(a.i, 0)
}

// mulB: an infinity times zero is zero, because infinities stand for
// unbounded finite values.
func mulB(a, b Bound) Bound {
	sa, sb := signB(a), signB(b)
	if sa == 0 || sb == 0 {
		return IntBound(0)
	}
	if a.inf != 0 || b.inf != 0 {
		return infB(sa * sb)
	}
	if p, ok := mul64(a.i, b.i); ok {
		return IntBound(p)
	}
	return infB(sa * sb)
}

// floorDivB is floor(a / b) for b != 0; ok is false for inf/inf.
func floorDivB(a, b Bound) (Bound, bool) {
	switch {
	case a.inf != 0 && b.inf != 0:
		return Bound{}, false
	case a.inf != 0:
		return infB(int(a.inf) * signB(b)), true
	case b.inf != 0:
		// A finite numerator over an unbounded divisor: 0 or -1.
		if a.i == 0 || (a.i > 0) == (b.inf > 0) {
			return IntBound(0), true
		}
		return IntBound(-1), true
	}
	q, _ := floorDivNum(intNum(a.i), intNum(b.i))
	if q.big != nil {
		return infB(q.big.Sign()), true
	}
	return IntBound(q.i), true
}

func cmpB(a, b Bound) int {
	if a.inf != 0 || b.inf != 0 {
		return cmpInt(int(a.inf), int(b.inf))
	}
	return cmp64(a.i, b.i)
}

func minB(a, b Bound) Bound {
	if cmpB(a, b) <= 0 {
		return a
	}
	return b
}

func maxB(a, b Bound) Bound {
	if cmpB(a, b) >= 0 {
		return a
	}
	return b
}

// toFloatB converts an int bound to float as ToFloat does.
func toFloatB(a Bound) Bound {
	if a.inf != 0 {
		return infB(int(a.inf))
	}
	return FloatBound(float64(a.i))
}

// floatToIntB rounds a float bound to an int bound with f (trunc, floor...).
func floatToIntB(a Bound, f func(float64) float64) Bound {
	if a.inf != 0 {
		return infB(int(a.inf))
	}
	v := f(a.f)
	switch {
	case math.IsNaN(v):
		return infB(1)
	case v >= 0x1p63:
		return infB(1)
	case v < -0x1p63:
		return infB(-1)
	}
	return IntBound(int64(v))
}

func (b Bound) text(t Type) string {
	switch t {
	case TypeInt:
		switch b.inf {
		case 1:
			return "int_oo"
		case -1:
			return "-int_oo"
		}
		return strconv.FormatInt(b.i, 10)
	case TypeFloat:
		switch {
		case b.inf > 0 || math.IsInf(b.f, 1):
			return "oo"
		case b.inf < 0 || math.IsInf(b.f, -1):
			return "-oo"
		}
		return pyFloat(b.f)
	}
	if b.b {
		return "True"
	}
	return "False"
}

package sym

import "math"

// Range arithmetic: sums, products, division, remainders, extrema,
// comparisons and logic.

func unionRange(a, b Range) (Range, bool) {
	r, ok := unionEnds(a, b)
	r.nan = a.nan || b.nan
	return r, ok
}

func unionEnds(a, b Range) (Range, bool) {
	if a.Type == TypeBool || b.Type == TypeBool {
		if a.Type != b.Type {
			return Range{}, false
		}
		return BoolRange(a.Lo.b && b.Lo.b, a.Hi.b || b.Hi.b), true
	}
	if a.Type == TypeFloat || b.Type == TypeFloat {
		a, b = toFloatRange(a), toFloatRange(b)
		return FloatRange(math.Min(a.Lo.f, b.Lo.f), math.Max(a.Hi.f, b.Hi.f)), true
	}
	return intRange(minB(a.Lo, b.Lo), maxB(a.Hi, b.Hi)), true
}

func negRange(r Range) Range {
	switch r.Type {
	case TypeInt:
		return intRange(negB(r.Hi), negB(r.Lo))
	case TypeFloat:
		return FloatRange(-r.Hi.f, -r.Lo.f)
	}
	return r
}

func addRange(x, y Range) (Range, bool) {
	if !isNumericRange(x) || !isNumericRange(y) {
		return Range{}, false
	}
	if x.Type == TypeInt && y.Type == TypeInt {
		return intRange(addB(x.Lo, y.Lo), addB(x.Hi, y.Hi)), true
	}
	x, y = toFloatRange(x), toFloatRange(y)
	lo, hi := x.Lo.f+y.Lo.f, x.Hi.f+y.Hi.f
	r := FloatRange(lo, hi)
	if math.IsNaN(lo) || math.IsNaN(hi) {
		r = Unbounded(TypeFloat)
	}
	// inf + -inf is NaN when both are reachable.
	r.nan = (x.Hi.inf > 0 && y.Lo.inf < 0) || (x.Lo.inf < 0 && y.Hi.inf > 0)
	return r, true
}

func mulRange(x, y Range) (Range, bool) {
	if !isNumericRange(x) || !isNumericRange(y) {
		return Range{}, false
	}
	if x.Type == TypeInt && y.Type == TypeInt {
		c := []Bound{mulB(x.Lo, y.Lo), mulB(x.Lo, y.Hi), mulB(x.Hi, y.Lo), mulB(x.Hi, y.Hi)}
		lo, hi := c[0], c[0]
		for _, v := range c[1:] {
			lo, hi = minB(lo, v), maxB(hi, v)
		}
		return intRange(lo, hi), true
	}
	x, y = toFloatRange(x), toFloatRange(y)
	r, ok := floatCorners(x, y, func(a, b float64) float64 {
		if a == 0 || b == 0 {
			return 0 // an unbounded end stands for finite values
		}
		return a * b
	})
	// 0 * inf is NaN when both are reachable.
	r.nan = (hasZero(x) && hasInf(y)) || (hasZero(y) && hasInf(x))
	return r, ok
}

// floatCorners applies a monotone-per-argument float op to the corners.
func floatCorners(x, y Range, f func(a, b float64) float64) (Range, bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, a := range []float64{x.Lo.f, x.Hi.f} {
		for _, b := range []float64{y.Lo.f, y.Hi.f} {
			v := f(a, b)
			if math.IsNaN(v) {
				return Range{}, false
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return FloatRange(lo, hi), true
}

// divisorParts splits an int divisor range into its negative and positive
// parts (the values a successful division can have).
func hasZero(r Range) bool { return r.Lo.f <= 0 && r.Hi.f >= 0 }
func hasInf(r Range) bool  { return r.Lo.inf != 0 || r.Hi.inf != 0 }

func divisorParts(d Range) []Range {
	var parts []Range
	if cmpB(d.Lo, IntBound(-1)) <= 0 {
		parts = append(parts, intRange(d.Lo, minB(d.Hi, IntBound(-1))))
	}
	if cmpB(d.Hi, IntBound(1)) >= 0 {
		parts = append(parts, intRange(maxB(d.Lo, IntBound(1)), d.Hi))
	}
	return parts
}

func floorDivRange(x, y Range) (Range, bool) {
	if x.Type != TypeInt || y.Type != TypeInt {
		// Float floor division: floor(x / y) as a float. Python computes
		// it as (x - fmod(x, y)) / y, rounded to a neighbouring integer:
		// a few ulps and one unit from floor of the rounded quotient
		// (600000000000000 // 0.1 is 5999999999999998.0).
		q, ok := floatDivRange(x, y)
		if !ok {
			return Range{}, false
		}
		for range 4 {
			q = widen(q)
		}
		r := monotoneFloat(q, math.Floor)
		r = FloatRange(r.Lo.f-1, r.Hi.f+1)
		r.nan = q.nan || hasInf(toFloatRange(x))
		return r, true
	}
	var out *Range
	for _, d := range divisorParts(y) {
		var lo, hi Bound
		first := true
		for _, a := range []Bound{x.Lo, x.Hi} {
			for _, b := range []Bound{d.Lo, d.Hi} {
				q, ok := floorDivB(a, b)
				if !ok {
					return Range{}, false
				}
				if first {
					lo, hi, first = q, q, false
				}
				lo, hi = minB(lo, q), maxB(hi, q)
			}
		}
		r := intRange(lo, hi)
		if out != nil {
			r, _ = unionRange(*out, r)
		}
		out = &r
	}
	if out == nil {
		return Range{}, false // the divisor is always zero
	}
	return *out, true
}

// modRange: Python's % has the sign of the divisor and a smaller magnitude;
// a dividend already inside [0, m) is unchanged.
func modRange(x, y Range) (Range, bool) {
	if x.Type != TypeInt || y.Type != TypeInt {
		x, y = toFloatRange(x), toFloatRange(y)
		if !isNumericRange(x) || !isNumericRange(y) {
			return Range{}, false
		}
		lo, hi := math.Min(y.Lo.f, 0), math.Max(y.Hi.f, 0)
		r := FloatRange(lo, hi)
		r.nan = hasInf(x) // inf % y is NaN
		return r, true
	}
	var out *Range
	for _, d := range divisorParts(y) {
		var r Range
		if signB(d.Lo) > 0 {
			r = intRange(IntBound(0), addB(d.Hi, IntBound(-1)))
			if signB(x.Lo) >= 0 {
				r.Hi = minB(r.Hi, x.Hi)
				if cmpB(x.Hi, d.Lo) < 0 {
					r.Lo = x.Lo // x < m: x % m == x
				}
			}
			if d.Lo == d.Hi && x.Lo.inf == 0 && x.Hi.inf == 0 && d.Lo.inf == 0 {
				q1, _ := floorDivB(x.Lo, d.Lo)
				q2, _ := floorDivB(x.Hi, d.Lo)
				if q1 == q2 { // one period: the remainders are in order
					m1, _ := modNum(intNum(x.Lo.i), intNum(d.Lo.i))
					m2, _ := modNum(intNum(x.Hi.i), intNum(d.Lo.i))
					r = IntRange(m1.i, m2.i)
				}
			}
		} else {
			r = intRange(addB(d.Lo, IntBound(1)), IntBound(0))
			if signB(x.Hi) <= 0 {
				r.Lo = maxB(r.Lo, x.Lo)
				if cmpB(x.Lo, d.Hi) > 0 {
					r.Hi = x.Hi
				}
			}
		}
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

func minMaxRange(op Op, a []Range) (Range, bool) {
	acc := a[0]
	for _, x := range a[1:] {
		if !isNumericRange(acc) || !isNumericRange(x) {
			return Range{}, false
		}
		if acc.Type != x.Type {
			acc, x = toFloatRange(acc), toFloatRange(x)
		}
		if acc.Type == TypeInt {
			if op == OpMax {
				acc = intRange(maxB(acc.Lo, x.Lo), maxB(acc.Hi, x.Hi))
			} else {
				acc = intRange(minB(acc.Lo, x.Lo), minB(acc.Hi, x.Hi))
			}
			continue
		}
		if op == OpMax {
			acc = FloatRange(math.Max(acc.Lo.f, x.Lo.f), math.Max(acc.Hi.f, x.Hi.f))
		} else {
			acc = FloatRange(math.Min(acc.Lo.f, x.Lo.f), math.Min(acc.Hi.f, x.Hi.f))
		}
	}
	return acc, true
}

// cmpEnds compares two range ends exactly, across int and float.
func cmpEnds(a Bound, at Type, b Bound, bt Type) int {
	c, _ := cmpNum(boundNum(a, at), boundNum(b, bt))
	return c
}

func compareRange(op Op, x, y Range) (Range, bool) {
	if x.nan || y.nan {
		return Unbounded(TypeBool), true
	}
	if x.Type == TypeBool || y.Type == TypeBool {
		if x.Type != TypeBool || y.Type != TypeBool {
			return Unbounded(TypeBool), true
		}
		x, y = intRange(IntBound(bi(x.Lo.b)), IntBound(bi(x.Hi.b))), intRange(IntBound(bi(y.Lo.b)), IntBound(bi(y.Hi.b)))
	}
	// Always true / always false, from the order of the ends.
	lt := cmpEnds(x.Hi, x.Type, y.Lo, y.Type) < 0  // x < y always
	le := cmpEnds(x.Hi, x.Type, y.Lo, y.Type) <= 0 // x <= y always
	gt := cmpEnds(x.Lo, x.Type, y.Hi, y.Type) > 0
	ge := cmpEnds(x.Lo, x.Type, y.Hi, y.Type) >= 0
	single := x.Lo == x.Hi && y.Lo == y.Hi && x.Lo.inf == 0 && y.Lo.inf == 0 &&
		cmpEnds(x.Lo, x.Type, y.Lo, y.Type) == 0
	decide := func(yes, no bool) (Range, bool) {
		switch {
		case yes:
			return BoolRange(true, true), true
		case no:
			return BoolRange(false, false), true
		}
		return BoolRange(false, true), true
	}
	switch op {
	case OpLt:
		return decide(lt, ge)
	case OpLe:
		return decide(le, gt)
	case OpGt:
		return decide(gt, le)
	case OpGe:
		return decide(ge, lt)
	case OpEq:
		return decide(single, lt || gt)
	}
	return decide(lt || gt, single)
}

func bi(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func logicRange(op Op, a []Range) (Range, bool) {
	for _, x := range a {
		if x.Type != TypeBool {
			return Range{}, false
		}
	}
	switch op {
	case OpNot:
		return BoolRange(!a[0].Hi.b, !a[0].Lo.b), true
	case OpAnd:
		lo, hi := true, true
		for _, x := range a {
			lo, hi = lo && x.Lo.b, hi && x.Hi.b
		}
		return BoolRange(lo, hi), true
	}
	lo, hi := false, false
	for _, x := range a {
		lo, hi = lo || x.Lo.b, hi || x.Hi.b
	}
	return BoolRange(lo, hi), true
}

func absRange(r Range) Range {
	switch r.Type {
	case TypeInt:
		switch {
		case signB(r.Lo) >= 0:
			return r
		case signB(r.Hi) <= 0:
			return negRange(r)
		}
		return intRange(IntBound(0), maxB(negB(r.Lo), r.Hi))
	case TypeFloat:
		switch {
		case r.Lo.f >= 0:
			return r
		case r.Hi.f <= 0:
			return negRange(r)
		}
		return FloatRange(0, math.Max(-r.Lo.f, r.Hi.f))
	}
	return r
}

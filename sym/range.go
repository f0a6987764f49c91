package sym

import (
	"math"
)

// Range is a closed interval of values of one type, as torch's ValueRanges:
// ints with int_oo for an unbounded end, floats with oo, bools (False <=
// True). Symbols' ranges come from the program's range_constraints.
type Range struct {
	Type   Type
	Lo, Hi Bound
	nan    bool // a float computation may give NaN (inf - inf, 0*inf)
}

// IntRange is [lo, hi].
func IntRange(lo, hi int64) Range { return intRange(IntBound(lo), IntBound(hi)) }

// IntRangeBounds is the range of a RangeConstraint: a nil end is unbounded.
func IntRangeBounds(lo, hi *int64) Range {
	r := Unbounded(TypeInt)
	if lo != nil {
		r.Lo = IntBound(*lo)
	}
	if hi != nil {
		r.Hi = IntBound(*hi)
	}
	return r
}

// FloatRange is [lo, hi]; ±Inf ends are unbounded.
func FloatRange(lo, hi float64) Range {
	return Range{Type: TypeFloat, Lo: FloatBound(lo), Hi: FloatBound(hi)}
}

// BoolRange is [lo, hi] over False < True.
func BoolRange(lo, hi bool) Range { return Range{Type: TypeBool, Lo: BoolBound(lo), Hi: BoolBound(hi)} }

// Unbounded is every value of type t.
func Unbounded(t Type) Range {
	if t == TypeBool {
		return BoolRange(false, true)
	}
	return Range{Type: t, Lo: infB(-1), Hi: infB(1)}
}

// String prints the range as torch's ValueRanges do, without the VR
// prefix: [2, 200], [2, int_oo], [0.5, 32.0], [False, True].
func (r Range) String() string {
	return "[" + r.Lo.text(r.Type) + ", " + r.Hi.text(r.Type) + "]"
}

// Contains reports whether v lies in r. Ints and floats compare by value (an
// int expression with a SymPy rational in it may evaluate to a float, and
// the reverse).
func (r Range) Contains(v Value) bool {
	if r.Type == TypeBool || v.Type() == TypeBool {
		if r.Type != TypeBool || v.Type() != TypeBool {
			return false
		}
		return (!v.b || r.Hi.b) && (v.b || !r.Lo.b)
	}
	x := valueNum(v)
	if x.kind == kFloat && math.IsNaN(x.f) {
		return r.nan
	}
	lo, hi := boundNum(r.Lo, r.Type), boundNum(r.Hi, r.Type)
	c1, ok1 := cmpNum(lo, x)
	c2, ok2 := cmpNum(x, hi)
	return ok1 && ok2 && c1 <= 0 && c2 <= 0
}

func valueNum(v Value) num {
	if v.Type() == TypeInt {
		return intNum(v.i)
	}
	return floatNum(v.f)
}

func boundNum(b Bound, t Type) num {
	if b.inf != 0 {
		return floatNum(math.Inf(int(b.inf)))
	}
	if t == TypeInt {
		return intNum(b.i)
	}
	return floatNum(b.f)
}

// Range computes a sound range for e given its symbols' ranges: every value
// Eval gives for bindings inside those ranges lies in it (a NaN only where
// the range notes that float arithmetic on infinities may produce one). Symbols without a range are unbounded. It is interval arithmetic
// with the usual refinements: floor division and modulo split the divisor at
// zero, Mod by a positive m lies in [0, m-1], comparisons of disjoint ranges
// are decided, Where with a decided condition takes one branch.
func (e *Expr) Range(symbols map[string]Range) Range {
	r := rangeOf(e, symbols)
	if e.Type() == TypeFloat && r.Type == TypeInt {
		return toFloatRange(r)
	}
	return r
}

func singleton(t Type, b Bound) Range { return Range{Type: t, Lo: b, Hi: b} }

// intRange builds a computed int range. Intermediate ints may exceed int64
// (as Python ints do) before a conversion to float or a division, so an end
// that overflowed past the far side is clamped to the last int64 rather than
// made infinite: [MaxInt64, int_oo] still contains every larger value.
func intRange(lo, hi Bound) Range {
	if lo.inf > 0 {
		lo = IntBound(math.MaxInt64)
	}
	if hi.inf < 0 {
		hi = IntBound(math.MinInt64)
	}
	return Range{Type: TypeInt, Lo: lo, Hi: hi}
}

func rangeOf(e *Expr, symbols map[string]Range) Range {
	switch e.op {
	case OpSymbol:
		t := e.symbolType()
		if r, ok := symbols[e.name]; ok && r.Type != TypeBool {
			if t == TypeFloat && r.Type == TypeInt {
				return toFloatRange(r)
			}
			return r
		}
		return Unbounded(t)
	case OpInteger:
		return intRange(intBoundOf(e.num, -1), intBoundOf(e.num, 1))
	case OpRational:
		f, _ := numRat(e).Float64()
		return singleton(TypeFloat, FloatBound(f))
	case OpFloat:
		return singleton(TypeFloat, FloatBound(e.f))
	case OpInfinity, OpIntInfinity:
		return singleton(e.Type(), infB(1))
	case OpNegInfinity, OpNegIntInfinity:
		return singleton(e.Type(), infB(-1))
	case OpNaN:
		r := Unbounded(TypeFloat)
		r.nan = true
		return r
	case OpTrue, OpFalse:
		return singleton(TypeBool, BoolBound(e.op == OpTrue))
	}
	args := make([]Range, len(e.args))
	for i, a := range e.args {
		args[i] = rangeOf(a, symbols)
	}
	r, ok := applyRange(e, args)
	if !ok {
		t := e.Type()
		if t == TypeInt && !intValued(e) {
			t = TypeFloat // PowByNatural(1/2, 2) is 1/4
		}
		r = Unbounded(t)
		r.nan = t == TypeFloat
	}
	if r.Type == TypeFloat && !e.op.IsRelational() {
		for _, a := range args {
			r.nan = r.nan || a.nan
		}
	}
	return r
}

// hasRational: SymPy rationals evaluate exactly and round once at the end,
// so float ranges computed through them are widened by an ulp.
func hasRational(e *Expr) bool {
	if e.op == OpRational {
		return true
	}
	for _, a := range e.args {
		if hasRational(a) {
			return true
		}
	}
	return false
}

func applyRange(e *Expr, a []Range) (Range, bool) {
	switch e.op {
	case OpAdd, OpMul:
		acc := a[0]
		scale := magnitude(acc)
		for _, x := range a[1:] {
			var ok bool
			if e.op == OpAdd {
				acc, ok = addRange(acc, x)
			} else {
				acc, ok = mulRange(acc, x)
			}
			if !ok {
				return Range{}, false
			}
			scale = math.Max(scale, math.Max(magnitude(x), magnitude(acc)))
		}
		if acc.Type == TypeFloat && hasRational(e) {
			acc = widenBy(acc, scale, len(a))
		}
		return acc, true
	case OpPow, OpPowByNatural:
		return powRange(e, a[0], a[1])
	case OpFloatPow:
		return floatPowRange(toFloatRange(a[0]), toFloatRange(a[1]))
	case OpFloorDiv, OpCleanDiv:
		return floorDivRange(a[0], a[1])
	case OpCeilDiv:
		q, ok := floorDivRange(negRange(a[0]), a[1])
		return negRange(q), ok
	case OpMod, OpPythonMod:
		return modRange(a[0], a[1])
	case OpModularIndexing:
		q, ok := floorDivRange(a[0], a[1])
		if !ok {
			return Range{}, false
		}
		return modRange(q, a[2])
	case OpMax, OpMin:
		return minMaxRange(e.op, a)
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return compareRange(e.op, a[0], a[1])
	case OpAnd, OpOr, OpNot:
		return logicRange(e.op, a)
	case OpWhere:
		if a[0].Type != TypeBool {
			return Range{}, false
		}
		switch {
		case a[0].Lo.b:
			return a[1], true
		case !a[0].Hi.b:
			return a[2], true
		}
		return unionRange(a[1], a[2])
	case OpIdentity:
		return a[0], true
	case OpAbs:
		return absRange(a[0]), true
	case OpToFloat:
		if a[0].Type == TypeBool {
			return Range{}, false
		}
		return toFloatRange(a[0]), true
	case OpFloatTrueDiv:
		return floatDivRange(a[0], a[1])
	case OpIntTrueDiv:
		// Exact ints up to 2**53 divide correctly rounded, as Eval does.
		r, ok := floatDivRange(a[0], a[1])
		if !exactInFloat(a[0]) || !exactInFloat(a[1]) {
			r = widen(r)
		}
		return r, ok
	case OpTruncToFloat:
		return monotoneFloat(toFloatRange(a[0]), math.Trunc), a[0].Type != TypeBool
	case OpTruncToInt, OpFloorToInt, OpCeilToInt, OpRoundToInt:
		return toIntRange(e.op, a[0])
	case OpRoundDecimal:
		return roundDecimalRange(a[0], a[1])
	case OpLShift, OpRShift:
		return shiftRange(e.op, a[0], a[1])
	case OpBitwiseAnd, OpBitwiseOr, OpBitwiseXor:
		return bitwiseRange(e.op, a[0], a[1])
	}
	return unaryMathRange(e.op, a[0])
}

// magnitude is the largest finite |end| of a range.
func magnitude(r Range) float64 {
	m := 0.0
	for _, b := range []Bound{r.Lo, r.Hi} {
		if b.inf != 0 {
			continue
		}
		v := b.f
		if r.Type == TypeInt {
			v = float64(b.i)
		}
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// widenBy covers the rounding of n float operations on values up to scale
// (SymPy computes with rationals exactly and rounds once; the float ends here
// were rounded at every step, and a sum may cancel most of its digits).
func widenBy(r Range, scale float64, n int) Range {
	d := scale * float64(n+1) * 0x1p-52
	w := widen(FloatRange(r.Lo.f-d, r.Hi.f+d))
	w.nan = r.nan
	return w
}

func exactInFloat(r Range) bool {
	ok := func(b Bound) bool { return b.inf != 0 || (b.i <= 1<<53 && b.i >= -(1<<53)) }
	return r.Type == TypeInt && ok(r.Lo) && ok(r.Hi)
}

func widen(r Range) Range {
	if r.Type != TypeFloat {
		return r
	}
	w := FloatRange(math.Nextafter(r.Lo.f, math.Inf(-1)), math.Nextafter(r.Hi.f, math.Inf(1)))
	w.nan = r.nan
	return w
}

func toFloatRange(r Range) Range {
	switch r.Type {
	case TypeInt:
		return Range{Type: TypeFloat, Lo: toFloatB(r.Lo), Hi: toFloatB(r.Hi), nan: r.nan}
	case TypeBool:
		return FloatRange(b2f(r.Lo.b), b2f(r.Hi.b))
	}
	return r
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func isNumericRange(r Range) bool { return r.Type != TypeBool }

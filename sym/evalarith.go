package sym

import (
	"math"
	"math/big"
)

// Arithmetic on evaluated values with Python's semantics.

func negNum(x num) num {
	v, _ := mulNum(intNum(-1), x)
	return v
}

// checkBits turns an over-large intermediate integer into an error.
func checkBits(n num) (num, string) {
	if n.big != nil && n.big.BitLen() > maxEvalBits {
		return num{}, "integer overflow"
	}
	return n, ""
}

func addNum(x, y num) (num, string) {
	if !x.isNumeric() || !y.isNumeric() {
		return num{}, "a bool where a number is needed"
	}
	switch {
	case x.kind == kInt && y.kind == kInt:
		if x.big == nil && y.big == nil {
			s := x.i + y.i
			if (s > x.i) == (y.i > 0) {
				return intNum(s), ""
			}
		}
		return checkBits(bigNum(new(big.Int).Add(x.bigInt(), y.bigInt())))
	case x.kind == kFloat || y.kind == kFloat:
		return floatOp(x, y, func(a, b float64) float64 { return a + b })
	}
	return ratNum(new(big.Rat).Add(x.toRat(), y.toRat())), ""
}

func mulNum(x, y num) (num, string) {
	if !x.isNumeric() || !y.isNumeric() {
		return num{}, "a bool where a number is needed"
	}
	switch {
	case x.kind == kInt && y.kind == kInt:
		if x.big == nil && y.big == nil {
			if p, ok := mul64(x.i, y.i); ok {
				return intNum(p), ""
			}
		}
		return checkBits(bigNum(new(big.Int).Mul(x.bigInt(), y.bigInt())))
	case x.kind == kFloat || y.kind == kFloat:
		return floatOp(x, y, func(a, b float64) float64 { return a * b })
	}
	return ratNum(new(big.Rat).Mul(x.toRat(), y.toRat())), ""
}

func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

func floatOp(x, y num, f func(a, b float64) float64) (num, string) {
	a, ok1 := x.toFloat()
	b, ok2 := y.toFloat()
	if !ok1 || !ok2 {
		return num{}, "int too large to convert to float"
	}
	return floatNum(f(a, b)), ""
}

// floorDivNum is Python's //.
func floorDivNum(x, y num) (num, string) {
	if !x.isNumeric() || !y.isNumeric() {
		return num{}, "a bool where a number is needed"
	}
	if y.sign() == 0 && !(y.kind == kFloat && math.IsNaN(y.f)) {
		return num{}, "division by zero"
	}
	switch {
	case x.kind == kFloat || y.kind == kFloat:
		a, ok1 := x.toFloat()
		b, ok2 := y.toFloat()
		if !ok1 || !ok2 {
			return num{}, "int too large to convert to float"
		}
		q, _ := FloatDivmod(a, b)
		return floatNum(q), ""
	case x.kind == kInt && y.kind == kInt:
		if x.big == nil && y.big == nil && !(x.i == math.MinInt64 && y.i == -1) {
			q := x.i / y.i
			if (x.i%y.i != 0) && ((x.i < 0) != (y.i < 0)) {
				q--
			}
			return intNum(q), ""
		}
		q, _ := bigDivmod(x.bigInt(), y.bigInt())
		return bigNum(q), ""
	}
	// Exact rationals: floor of the quotient.
	r := new(big.Rat).Quo(x.toRat(), y.toRat())
	return bigNum(ratFloor(r)), ""
}

// modNum is Python's %: the result has the sign of the divisor.
func modNum(x, y num) (num, string) {
	if !x.isNumeric() || !y.isNumeric() {
		return num{}, "a bool where a number is needed"
	}
	if y.sign() == 0 && !(y.kind == kFloat && math.IsNaN(y.f)) {
		return num{}, "modulo by zero"
	}
	switch {
	case x.kind == kFloat || y.kind == kFloat:
		a, ok1 := x.toFloat()
		b, ok2 := y.toFloat()
		if !ok1 || !ok2 {
			return num{}, "int too large to convert to float"
		}
		_, m := FloatDivmod(a, b)
		return floatNum(m), ""
	case x.kind == kInt && y.kind == kInt:
		if x.big == nil && y.big == nil {
			if y.i == -1 {
				return intNum(0), ""
			}
			m := x.i % y.i
			if m != 0 && ((m < 0) != (y.i < 0)) {
				m += y.i
			}
			return intNum(m), ""
		}
		_, m := bigDivmod(x.bigInt(), y.bigInt())
		return bigNum(m), ""
	}
	xr, yr := x.toRat(), y.toRat()
	q := ratFloor(new(big.Rat).Quo(xr, yr))
	return ratNum(new(big.Rat).Sub(xr, new(big.Rat).Mul(new(big.Rat).SetInt(q), yr))), ""
}

// bigDivmod is Python's divmod on ints.
func bigDivmod(a, b *big.Int) (q, m *big.Int) {
	q, m = new(big.Int).QuoRem(a, b, new(big.Int))
	if m.Sign() != 0 && (m.Sign() < 0) != (b.Sign() < 0) {
		q.Sub(q, bigOne)
		m.Add(m, b)
	}
	return q, m
}

func ratFloor(r *big.Rat) *big.Int {
	q, _ := bigDivmod(r.Num(), r.Denom())
	return q
}

// FloatDivmod is CPython's float_divmod: the floor quotient and the
// modulo with the divisor's sign, exact where vx/wx would round (1 // 0.1
// is 9.0). The runtime's Python scalar ops call it too, so a symbol's
// value and the program's own arithmetic agree. wx must not be 0.
func FloatDivmod(vx, wx float64) (floordiv, mod float64) {
	mod = math.Mod(vx, wx)
	div := (vx - mod) / wx
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
			div -= 1.0
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv += 1.0
		}
	} else {
		floordiv = math.Copysign(0, vx/wx)
	}
	return floordiv, mod
}

func compareNum(op Op, x, y num) num {
	if x.kind == kBool && y.kind == kBool {
		switch op {
		case OpEq:
			return boolNum(x.b == y.b)
		case OpNe:
			return boolNum(x.b != y.b)
		}
	}
	c, ok := cmpNum(x, y)
	if !ok {
		return boolNum(op == OpNe)
	}
	switch op {
	case OpEq:
		return boolNum(c == 0)
	case OpNe:
		return boolNum(c != 0)
	case OpLt:
		return boolNum(c < 0)
	case OpLe:
		return boolNum(c <= 0)
	case OpGt:
		return boolNum(c > 0)
	}
	return boolNum(c >= 0)
}

// powNum is SymPy's Pow on values: exact for integer exponents of exact
// bases, a float otherwise.
func powNum(x, y num) (num, string) {
	if !x.isNumeric() || !y.isNumeric() {
		return num{}, "a bool where a number is needed"
	}
	if x.kind == kInt && x.big == nil && y.kind == kInt && y.big == nil && y.i >= 0 {
		if v, ok := pow64(x.i, y.i); ok {
			return intNum(v), ""
		}
	}
	if x.kind != kFloat && y.kind == kInt {
		if y.big != nil {
			if s := x.sign(); s == 0 || cmpAbsOne(x) == 0 {
				return intPowSmall(x, y)
			}
			return num{}, "integer overflow"
		}
		n := y.i
		base := x.toRat()
		if base.Sign() == 0 && n < 0 {
			return num{}, "zero to a negative power"
		}
		bits := max(base.Num().BitLen(), base.Denom().BitLen())
		an := n
		if an < 0 {
			an = -an
		}
		if bits > 1 && (an > maxEvalBits || int64(bits-1)*an > maxEvalBits) {
			return num{}, "integer overflow"
		}
		v := ratPowInt(base, n)
		if v == nil {
			return num{}, "integer overflow"
		}
		return ratNum(numRat(v)), ""
	}
	if x.kind != kFloat && y.kind == kRat && x.sign() >= 0 {
		if v := ratPowRat(x.toRat(), y.rat); v != nil {
			return ratNum(numRat(v)), ""
		}
	}
	a, ok1 := x.toFloat()
	b, ok2 := y.toFloat()
	if !ok1 || !ok2 {
		return num{}, "int too large to convert to float"
	}
	return floatPow(a, b)
}

// pow64 is b**n in int64 by squaring; ok is false on overflow.
func pow64(b, n int64) (int64, bool) {
	r := int64(1)
	for n > 0 {
		if n&1 == 1 {
			var ok bool
			if r, ok = mul64(r, b); !ok {
				return 0, false
			}
		}
		n >>= 1
		if n > 0 {
			var ok bool
			if b, ok = mul64(b, b); !ok {
				return 0, false
			}
		}
	}
	return r, true
}

// intPowSmall handles huge exponents of 0, 1 and -1.
func intPowSmall(x, y num) (num, string) {
	switch {
	case x.sign() == 0:
		if y.sign() < 0 {
			return num{}, "zero to a negative power"
		}
		return intNum(0), ""
	case x.sign() > 0:
		return intNum(1), ""
	}
	if y.bigInt().Bit(0) == 0 {
		return intNum(1), ""
	}
	return intNum(-1), ""
}

func cmpAbsOne(x num) int {
	r := new(big.Rat).Abs(x.toRat())
	return r.Cmp(big.NewRat(1, 1))
}

// floatPow is Python's float ** float.
func floatPow(x, y float64) (num, string) {
	switch {
	case x == 0 && y < 0:
		return num{}, "zero to a negative power"
	case x < 0 && !math.IsInf(x, 0) && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsNaN(y):
		return num{}, "negative number to a fractional power"
	}
	r := math.Pow(x, y)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return num{}, "float overflow"
	}
	return floatNum(r), ""
}

package sym

import (
	"math"
	"math/big"
)

// Conversions between ints and floats, rounding, shifts, bitwise operations
// and math functions on evaluated values, as Python computes them.

// applyConversion covers the int/float conversions and math functions.
func applyConversion(op Op, a []num) (num, string) {
	for _, x := range a {
		if !x.isNumeric() && op != OpBitwiseAnd && op != OpBitwiseOr && op != OpBitwiseXor {
			return num{}, "a bool where a number is needed"
		}
	}
	switch op {
	case OpToFloat:
		f, ok := a[0].toFloat()
		if !ok {
			return num{}, "int too large to convert to float"
		}
		return floatNum(f), ""
	case OpFloatTrueDiv:
		x, ok1 := a[0].toFloat()
		y, ok2 := a[1].toFloat()
		if !ok1 || !ok2 {
			return num{}, "int too large to convert to float"
		}
		if y == 0 {
			return num{}, "division by zero"
		}
		return floatNum(x / y), ""
	case OpIntTrueDiv:
		if a[1].sign() == 0 {
			return num{}, "division by zero"
		}
		if a[0].kind == kFloat || a[1].kind == kFloat {
			x, _ := a[0].toFloat()
			y, _ := a[1].toFloat()
			return floatNum(x / y), ""
		}
		f, _ := new(big.Rat).Quo(a[0].toRat(), a[1].toRat()).Float64()
		if math.IsInf(f, 0) {
			return num{}, "integer division result too large for a float"
		}
		return floatNum(f), ""
	case OpTruncToFloat:
		f, ok := a[0].toFloat()
		if !ok {
			return num{}, "int too large to convert to float"
		}
		return floatNum(math.Trunc(f)), ""
	case OpTruncToInt, OpFloorToInt, OpCeilToInt, OpRoundToInt:
		return roundToInt(op, a[0])
	case OpRoundDecimal:
		return roundDecimal(a[0], a[1])
	case OpFloatPow:
		x, ok1 := a[0].toFloat()
		y, ok2 := a[1].toFloat()
		if !ok1 || !ok2 {
			return num{}, "int too large to convert to float"
		}
		return floatPow(x, y)
	case OpPowByNatural:
		if a[1].kind != kInt || a[1].sign() < 0 {
			return num{}, "PowByNatural needs a natural exponent"
		}
		return powNum(a[0], a[1])
	case OpLShift, OpRShift:
		return shiftNum(op, a[0], a[1])
	case OpBitwiseAnd, OpBitwiseOr, OpBitwiseXor:
		return bitwiseNum(op, a[0], a[1])
	}
	return opaqueUnary(op, a[0])
}

// roundToInt converts a float to an int as math.trunc/floor/ceil and round
// do in Python.
func roundToInt(op Op, x num) (num, string) {
	if x.kind == kInt {
		return x, ""
	}
	if x.kind == kRat {
		var q *big.Int
		switch op {
		case OpTruncToInt:
			q = new(big.Int).Quo(x.rat.Num(), x.rat.Denom())
		case OpFloorToInt:
			q = ratFloor(x.rat)
		case OpCeilToInt:
			q = new(big.Int).Neg(ratFloor(new(big.Rat).Neg(x.rat)))
		default:
			f, _ := x.rat.Float64()
			return roundToInt(op, floatNum(f))
		}
		return bigNum(q), ""
	}
	f := x.f
	if math.IsNaN(f) {
		return num{}, "cannot convert float NaN to integer"
	}
	if math.IsInf(f, 0) {
		return num{}, "cannot convert float infinity to integer"
	}
	switch op {
	case OpTruncToInt:
		f = math.Trunc(f)
	case OpFloorToInt:
		f = math.Floor(f)
	case OpCeilToInt:
		f = math.Ceil(f)
	default:
		f = math.RoundToEven(f)
	}
	bf := new(big.Float).SetFloat64(f)
	v, _ := bf.Int(nil)
	return bigNum(v), ""
}

// roundDecimal is Python's round(x, ndigits) on a float: the exact value
// rounded half to even at the given decimal place.
func roundDecimal(x, nd num) (num, string) {
	if nd.kind != kInt {
		return num{}, "RoundDecimal needs an integer number of digits"
	}
	f, ok := x.toFloat()
	if !ok {
		return num{}, "int too large to convert to float"
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
		return floatNum(f), ""
	}
	n := nd.i
	switch {
	case nd.big != nil || n > 400:
		if nd.sign() > 0 {
			return floatNum(f), ""
		}
		return floatNum(math.Copysign(0, f)), ""
	case n < -400:
		return floatNum(math.Copysign(0, f)), ""
	}
	r := new(big.Rat).SetFloat64(f)
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(absInt(n)), nil))
	if n >= 0 {
		r.Mul(r, scale)
	} else {
		r.Quo(r, scale)
	}
	q := roundHalfEven(r)
	out := new(big.Rat).SetInt(q)
	if n >= 0 {
		out.Quo(out, scale)
	} else {
		out.Mul(out, scale)
	}
	v, _ := out.Float64()
	if v == 0 {
		v = math.Copysign(0, f)
	}
	return floatNum(v), ""
}

func absInt(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func roundHalfEven(r *big.Rat) *big.Int {
	fl := ratFloor(r)
	frac := new(big.Rat).Sub(r, new(big.Rat).SetInt(fl))
	switch frac.Cmp(big.NewRat(1, 2)) {
	case 1:
		return fl.Add(fl, bigOne)
	case 0:
		if fl.Bit(0) == 1 {
			return fl.Add(fl, bigOne)
		}
	}
	return fl
}

func shiftNum(op Op, x, s num) (num, string) {
	if x.kind != kInt || s.kind != kInt {
		return num{}, "shift of a non-integer"
	}
	if s.sign() < 0 {
		return num{}, "negative shift count"
	}
	if s.big != nil || s.i > maxEvalBits {
		if op == OpRShift {
			if x.sign() < 0 {
				return intNum(-1), ""
			}
			return intNum(0), ""
		}
		if x.sign() == 0 {
			return intNum(0), ""
		}
		return num{}, "integer overflow"
	}
	if op == OpLShift {
		return checkBits(bigNum(new(big.Int).Lsh(x.bigInt(), uint(s.i))))
	}
	return bigNum(new(big.Int).Rsh(x.bigInt(), uint(s.i))), ""
}

func bitwiseNum(op Op, x, y num) (num, string) {
	if x.kind == kBool && y.kind == kBool {
		switch op {
		case OpBitwiseAnd:
			return boolNum(x.b && y.b), ""
		case OpBitwiseOr:
			return boolNum(x.b || y.b), ""
		}
		return boolNum(x.b != y.b), ""
	}
	if x.kind == kBool {
		x = intNum(int64(x.sign()))
	}
	if y.kind == kBool {
		y = intNum(int64(y.sign()))
	}
	if x.kind != kInt || y.kind != kInt {
		return num{}, "bitwise operation on a non-integer"
	}
	if x.big == nil && y.big == nil {
		switch op {
		case OpBitwiseAnd:
			return intNum(x.i & y.i), ""
		case OpBitwiseOr:
			return intNum(x.i | y.i), ""
		}
		return intNum(x.i ^ y.i), ""
	}
	r := new(big.Int)
	switch op {
	case OpBitwiseAnd:
		r.And(x.bigInt(), y.bigInt())
	case OpBitwiseOr:
		r.Or(x.bigInt(), y.bigInt())
	default:
		r.Xor(x.bigInt(), y.bigInt())
	}
	return bigNum(r), ""
}

var unaryMath = map[Op]func(float64) float64{
	OpSqrt: math.Sqrt, OpCos: math.Cos, OpCosh: math.Cosh, OpSin: math.Sin, OpSinh: math.Sinh,
	OpTan: math.Tan, OpTanh: math.Tanh, OpAsin: math.Asin, OpAcos: math.Acos, OpAtan: math.Atan,
	OpExp: math.Exp, OpLog: math.Log, OpAsinh: math.Asinh, OpLog2: math.Log2,
}

// opaqueUnary is Python's math module: NaN from a number is a domain error,
// an infinity from a finite number an overflow (log(0) is a domain error).
func opaqueUnary(op Op, x num) (num, string) {
	f, ok := x.toFloat()
	if !ok {
		return num{}, "int too large to convert to float"
	}
	fn := unaryMath[op]
	if fn == nil {
		return num{}, "cannot evaluate " + op.String()
	}
	r := fn(f)
	switch {
	case math.IsNaN(r) && !math.IsNaN(f):
		return num{}, "math domain error"
	case math.IsInf(r, 0) && !math.IsInf(f, 0):
		if (op == OpLog || op == OpLog2) && f == 0 {
			return num{}, "math domain error"
		}
		return num{}, "math range error"
	}
	return floatNum(r), ""
}

package sym

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Value is the result of evaluating an expression: an int64, a float64 or a
// bool, as the runtime passes symbolic scalars.
type Value struct {
	typ Type
	i   int64
	f   float64
	b   bool
}

// IntValue, FloatValue and BoolValue make Values.
func IntValue(v int64) Value     { return Value{typ: TypeInt, i: v} }
func FloatValue(v float64) Value { return Value{typ: TypeFloat, f: v} }
func BoolValue(v bool) Value     { return Value{typ: TypeBool, b: v} }

// Type is the kind of value.
func (v Value) Type() Type { return v.typ }

// Int is the value of an int (0 for other kinds).
func (v Value) Int() int64 { return v.i }

// Float is the value of a float, or an int converted to float64.
func (v Value) Float() float64 {
	if v.typ == TypeInt {
		return float64(v.i)
	}
	return v.f
}

// Bool is the value of a bool.
func (v Value) Bool() bool { return v.b }

// String prints the value as Python does: 5, 2.5, True.
func (v Value) String() string {
	switch v.typ {
	case TypeInt:
		return strconv.FormatInt(v.i, 10)
	case TypeFloat:
		return pyFloat(v.f)
	}
	if v.b {
		return "True"
	}
	return "False"
}

// pyFloat is Python's repr of a float.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.FormatFloat(f, 'e', -1, 64) // 1e-05, 1e+16, as Python
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// num is a value during evaluation: ints are exact and may grow beyond int64
// in intermediate steps, as Python ints do; rationals come from SymPy's
// exact division (s0/2) and become floats only at the end.
type num struct {
	kind numKind
	i    int64
	big  *big.Int // kInt outside int64
	rat  *big.Rat // kRat, never an integer
	f    float64
	b    bool
}

type numKind uint8

const (
	kInt numKind = iota
	kRat
	kFloat
	kBool
)

// maxEvalBits bounds intermediate integers; beyond it evaluation reports an
// overflow instead of computing ever larger numbers.
const maxEvalBits = 4096

func intNum(v int64) num     { return num{kind: kInt, i: v} }
func floatNum(v float64) num { return num{kind: kFloat, f: v} }
func boolNum(v bool) num     { return num{kind: kBool, b: v} }

// bigNum normalises a big integer, taking ownership of v.
func bigNum(v *big.Int) num {
	if v.IsInt64() {
		return num{kind: kInt, i: v.Int64()}
	}
	return num{kind: kInt, big: v}
}

// ratNum normalises an exact value.
func ratNum(r *big.Rat) num {
	if r.IsInt() {
		return bigNum(new(big.Int).Set(r.Num()))
	}
	return num{kind: kRat, rat: r}
}

func (n num) isNumeric() bool { return n.kind != kBool }

func (n num) bigInt() *big.Int {
	if n.big != nil {
		return n.big
	}
	return big.NewInt(n.i)
}

func (n num) toRat() *big.Rat {
	if n.kind == kRat {
		return n.rat
	}
	return new(big.Rat).SetInt(n.bigInt())
}

// toFloat converts to float64 rounding to nearest; ok is false when an
// integer is too large for a float (Python's OverflowError).
func (n num) toFloat() (float64, bool) {
	switch n.kind {
	case kFloat:
		return n.f, true
	case kBool:
		if n.b {
			return 1, true
		}
		return 0, true
	case kRat:
		f, _ := n.rat.Float64()
		return f, !math.IsInf(f, 0)
	}
	if n.big == nil {
		return float64(n.i), true
	}
	f, _ := new(big.Float).SetInt(n.big).Float64()
	return f, !math.IsInf(f, 0)
}

func (n num) sign() int {
	switch n.kind {
	case kFloat:
		switch {
		case n.f > 0:
			return 1
		case n.f < 0:
			return -1
		}
		return 0
	case kRat:
		return n.rat.Sign()
	case kBool:
		if n.b {
			return 1
		}
		return 0
	}
	if n.big != nil {
		return n.big.Sign()
	}
	switch {
	case n.i > 0:
		return 1
	case n.i < 0:
		return -1
	}
	return 0
}

// cmpNum compares two numeric values exactly (bools as 0 and 1); ok is
// false when either is NaN.
func cmpNum(a, b num) (int, bool) {
	if a.kind == kBool {
		a = intNum(int64(a.sign()))
	}
	if b.kind == kBool {
		b = intNum(int64(b.sign()))
	}
	if a.kind == kInt && b.kind == kInt && a.big == nil && b.big == nil {
		return cmp64(a.i, b.i), true
	}
	if a.kind == kFloat || b.kind == kFloat {
		if (a.kind == kFloat && math.IsNaN(a.f)) || (b.kind == kFloat && math.IsNaN(b.f)) {
			return 0, false
		}
		if a.kind == kFloat && b.kind == kFloat {
			return cmpFloat(a.f, b.f), true
		}
		// Infinities compare by sign; finite floats exactly.
		if a.kind == kFloat && math.IsInf(a.f, 0) {
			return int(math.Copysign(1, a.f)), true
		}
		if b.kind == kFloat && math.IsInf(b.f, 0) {
			return -int(math.Copysign(1, b.f)), true
		}
	}
	return exactRat(a).Cmp(exactRat(b)), true
}

// exactRat is the exact value of a finite number.
func exactRat(n num) *big.Rat {
	if n.kind == kFloat {
		if r := new(big.Rat).SetFloat64(n.f); r != nil {
			return r
		}
		return new(big.Rat)
	}
	return n.toRat()
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

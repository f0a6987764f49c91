package sym

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
)

// Bindings give each symbol its value.
type Bindings map[string]int64

// EvalError reports why an expression has no value for some bindings: an
// unbound symbol, a division by zero, an integer that does not fit in int64,
// a math domain error, or an operation applied to the wrong kind of value.
type EvalError struct {
	Expr string // the (sub)expression that failed, as SymPy prints it
	Msg  string
}

func (e *EvalError) Error() string { return fmt.Sprintf("sym: eval %s: %s", e.Expr, e.Msg) }

// Eval computes e with Python's semantics, which are what torch computes at
// run time: exact integers (FloorDiv and PythonMod round toward -inf, Mod is
// Python's % too), IEEE floats where a float is involved, exact rationals for
// SymPy's s0/2 that become floats only when not integral. Intermediate
// integers may exceed int64 as Python ints do; an int result that does not
// fit in int64 is an overflow error.
func (e *Expr) Eval(b Bindings) (Value, error) {
	n, err := evalNum(e, b)
	if err != nil {
		return Value{}, err
	}
	switch n.kind {
	case kBool:
		return BoolValue(n.b), nil
	case kFloat:
		return FloatValue(n.f), nil
	case kRat:
		f, _ := n.rat.Float64()
		return FloatValue(f), nil
	}
	if n.big != nil {
		return Value{}, evalErr(e, "integer overflow: %s does not fit in int64", n.big)
	}
	return IntValue(n.i), nil
}

func evalErr(e *Expr, format string, args ...any) error {
	return &EvalError{Expr: e.String(), Msg: fmt.Sprintf(format, args...)}
}

func evalNum(e *Expr, b Bindings) (num, error) {
	switch e.op {
	case OpSymbol:
		v, ok := b[e.name]
		if !ok {
			return num{}, evalErr(e, "unbound symbol")
		}
		if e.symbolType() == TypeFloat {
			return floatNum(float64(v)), nil
		}
		return intNum(v), nil
	case OpInteger:
		if e.fits {
			return intNum(e.small), nil
		}
		if e.num.BitLen() > maxEvalBits {
			return num{}, evalErr(e, "integer overflow")
		}
		return bigNum(new(big.Int).Set(e.num)), nil
	case OpRational:
		return ratNum(numRat(e)), nil
	case OpFloat, OpInfinity, OpNegInfinity, OpNaN:
		f, _ := e.Float64()
		return floatNum(f), nil
	case OpTrue, OpFalse:
		return boolNum(e.op == OpTrue), nil
	case OpIntInfinity, OpNegIntInfinity:
		return num{}, evalErr(e, "an unbounded integer has no value")
	}
	var buf [4]num // most operations have few arguments: no allocation
	args := buf[:0]
	if len(e.args) > len(buf) {
		args = make([]num, 0, len(e.args))
	}
	args = args[:len(e.args)]
	for i, a := range e.args {
		v, err := evalNum(a, b)
		if err != nil {
			return num{}, err
		}
		args[i] = v
	}
	v, msg := apply(e.op, args)
	if msg != "" {
		return num{}, evalErr(e, "%s", msg)
	}
	return v, nil
}

// apply computes op on evaluated arguments; a non-empty msg is an error.
func apply(op Op, a []num) (num, string) {
	switch op {
	case OpAdd, OpMul:
		acc := a[0]
		for _, x := range a[1:] {
			var msg string
			if op == OpAdd {
				acc, msg = addNum(acc, x)
			} else {
				acc, msg = mulNum(acc, x)
			}
			if msg != "" {
				return num{}, msg
			}
		}
		return acc, ""
	case OpPow:
		return powNum(a[0], a[1])
	case OpFloorDiv, OpCleanDiv:
		return floorDivNum(a[0], a[1])
	case OpCeilDiv:
		q, msg := floorDivNum(negNum(a[0]), a[1])
		return negNum(q), msg
	case OpMod, OpPythonMod:
		return modNum(a[0], a[1])
	case OpModularIndexing:
		q, msg := floorDivNum(a[0], a[1])
		if msg != "" {
			return num{}, msg
		}
		return modNum(q, a[2])
	case OpMax, OpMin:
		// Ties prefer an exact value to a float, so the argument order (which
		// Canonical changes) does not change the result's kind.
		for _, x := range a {
			if !x.isNumeric() {
				return num{}, "a bool where a number is needed" // SymPy: not comparable
			}
		}
		best := a[0]
		for _, x := range a[1:] {
			c, ok := cmpNum(x, best)
			if !ok {
				return floatNum(math.NaN()), ""
			}
			if (op == OpMax && c > 0) || (op == OpMin && c < 0) || (c == 0 && best.kind == kFloat && x.kind != kFloat) {
				best = x
			}
		}
		return best, ""
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return compareNum(op, a[0], a[1]), ""
	case OpAnd, OpOr:
		for _, x := range a {
			if x.kind != kBool {
				return num{}, "logic on a non-bool"
			}
		}
		r := op == OpAnd
		for _, x := range a {
			if x.b != r {
				return boolNum(!r), ""
			}
		}
		return boolNum(r), ""
	case OpNot:
		if a[0].kind != kBool {
			return num{}, "logic on a non-bool"
		}
		return boolNum(!a[0].b), ""
	case OpWhere:
		if a[0].kind != kBool {
			return num{}, "Where condition is not a bool"
		}
		if a[0].b {
			return a[1], ""
		}
		return a[2], ""
	case OpIdentity:
		return a[0], ""
	case OpAbs:
		if a[0].sign() < 0 {
			return negNum(a[0]), ""
		}
		return a[0], ""
	}
	return applyConversion(op, a)
}

// String prints the bindings as s0 = 2, s1 = 9, sorted by name.
func (b Bindings) String() string {
	names := make([]string, 0, len(b))
	for name := range b {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s = %d", name, b[name])
	}
	return strings.Join(parts, ", ")
}

package runtime

import (
	"fmt"
	"math"
	"math/big"

	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/value"
)

// scalarFn evaluates an op on scalars (or reads a tensor's size) the way
// Python evaluates it on the ints, floats and bools symbolic values are at
// run time.
type scalarFn func(args []value.Value) (value.Value, error)

// scalarOps are the ops the executor runs itself, with Python's semantics
// (testdata/scalar_golden.jsonl.gz holds what Python computes): floor
// division and modulo round towards negative infinity (floats as CPython's
// float_divmod), true division always gives a float, ints stay ints and an
// int result beyond int64 is an error rather than a wrapped value, ints
// and floats compare exactly.
var scalarOps = map[string]scalarFn{
	"aten.sym_size.int":               symSize,
	"aten.sym_numel.default":          symNumel,
	"aten.sym_stride.int":             symStride,
	"aten.sym_storage_offset.default": symStorageOffset,
	"aten._assert_scalar.default":     assertScalar,
	"aten.sym_constrain_range.default": func(a []value.Value) (value.Value, error) {
		return value.NoneValue(), nil
	},
	"aten.sym_constrain_range_for_size.default": func(a []value.Value) (value.Value, error) {
		return value.NoneValue(), nil
	},
	"_operator.add":      arith("add", add64, func(x, y float64) float64 { return x + y }),
	"_operator.sub":      arith("sub", sub64, func(x, y float64) float64 { return x - y }),
	"_operator.mul":      arith("mul", mul64, func(x, y float64) float64 { return x * y }),
	"_operator.floordiv": floorDiv,
	"_operator.mod":      mod,
	"_operator.truediv":  trueDiv,
	"_operator.pow":      pow,
	"_operator.neg":      neg,
	"_operator.pos":      pos,
	"_operator.abs":      abs,
	"_operator.eq":       compare(func(c int) bool { return c == 0 }),
	"_operator.ne":       compare(func(c int) bool { return c != 0 }),
	"_operator.lt":       compare(func(c int) bool { return c < 0 }),
	"_operator.le":       compare(func(c int) bool { return c <= 0 }),
	"_operator.gt":       compare(func(c int) bool { return c > 0 }),
	"_operator.ge":       compare(func(c int) bool { return c >= 0 }),
	"_operator.and_":     logic(func(x, y bool) bool { return x && y }, func(x, y int64) int64 { return x & y }),
	"_operator.or_":      logic(func(x, y bool) bool { return x || y }, func(x, y int64) int64 { return x | y }),
	"_operator.not_":     not,
	"torch.sym_not":      not,
	"math.trunc":         toInt(math.Trunc),
	"math.floor":         toInt(math.Floor),
	"math.ceil":          toInt(math.Ceil),
	"math.sqrt":          sqrt,
	"torch.sym_sqrt":     sqrt,
	"torch.sym_float":    func(a []value.Value) (value.Value, error) { return value.FromDouble(num(a[0])), nil },
	"torch.sym_int":      toInt(math.Trunc),
	"torch.sym_max":      minMax(1),
	"torch.sym_min":      minMax(-1),
	"torch.sym_ite":      symIte,
}

func dimArg(a []value.Value) (int, error) {
	t, err := a[0].AsTensor()
	if err != nil {
		return 0, err
	}
	d, err := a[1].AsInt()
	if err != nil {
		return 0, err
	}
	n := int64(t.Dim())
	if d < -n || d >= n {
		return 0, fmt.Errorf("dim %d out of range for a %d-d tensor", d, n)
	}
	if d < 0 {
		d += n
	}
	return int(d), nil
}

func symSize(a []value.Value) (value.Value, error) {
	d, err := dimArg(a)
	if err != nil {
		return value.Value{}, err
	}
	return value.FromInt(int64(a[0].Tensor().Size(d))), nil
}

func symStride(a []value.Value) (value.Value, error) {
	d, err := dimArg(a)
	if err != nil {
		return value.Value{}, err
	}
	return value.FromInt(int64(a[0].Tensor().Strides()[d])), nil
}

func symNumel(a []value.Value) (value.Value, error) {
	t, err := a[0].AsTensor()
	if err != nil {
		return value.Value{}, err
	}
	return value.FromInt(int64(t.Numel())), nil
}

func symStorageOffset(a []value.Value) (value.Value, error) {
	t, err := a[0].AsTensor()
	if err != nil {
		return value.Value{}, err
	}
	return value.FromInt(int64(t.Offset())), nil
}

func assertScalar(a []value.Value) (value.Value, error) {
	if !truth(a[0]) {
		msg := "assertion failed"
		if len(a) > 1 && a[1].Kind() == value.String {
			msg = a[1].Str()
		}
		return value.Value{}, fmt.Errorf("runtime assertion: %s", msg)
	}
	return value.NoneValue(), nil
}

// isInt reports a Python int (a bool counts as one, as in Python).
func isInt(v value.Value) bool { return v.Kind() == value.Int || v.Kind() == value.Bool }

func intOf(v value.Value) int64 {
	if v.Kind() == value.Bool {
		if v.Bool() {
			return 1
		}
		return 0
	}
	return v.Int()
}

func num(v value.Value) float64 {
	if isInt(v) {
		return float64(intOf(v))
	}
	return v.Double()
}

func truth(v value.Value) bool {
	switch v.Kind() {
	case value.Bool:
		return v.Bool()
	case value.Int:
		return v.Int() != 0
	case value.Double:
		return v.Double() != 0
	}
	return false
}

func checkNumbers(name string, a []value.Value) error {
	for i, v := range a {
		switch v.Kind() {
		case value.Int, value.Double, value.Bool:
		default:
			return fmt.Errorf("%s: argument %d is %s, not a number", name, i, v.Kind())
		}
	}
	return nil
}

// errOverflow is Python's answer being an int that int64 cannot hold.
func errOverflow(op string) error {
	return fmt.Errorf("%s: integer overflow: Python's result does not fit in int64", op)
}

func add64(x, y int64) (int64, bool) {
	r := x + y
	return r, (x^r)&(y^r) >= 0
}

func sub64(x, y int64) (int64, bool) {
	r := x - y
	return r, (x^y)&(x^r) >= 0
}

func mul64(x, y int64) (int64, bool) {
	if x == 0 || y == 0 {
		return 0, true
	}
	r := x * y
	if r/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
		return 0, false
	}
	return r, true
}

// arith is +, - or * on Python numbers: ints stay ints (refused when the
// result leaves int64), anything with a float is float.
func arith(name string, fi func(x, y int64) (int64, bool), ff func(x, y float64) float64) scalarFn {
	return func(a []value.Value) (value.Value, error) {
		if err := checkNumbers(name, a[:2]); err != nil {
			return value.Value{}, err
		}
		if isInt(a[0]) && isInt(a[1]) {
			r, ok := fi(intOf(a[0]), intOf(a[1]))
			if !ok {
				return value.Value{}, errOverflow(name)
			}
			return value.FromInt(r), nil
		}
		return value.FromDouble(ff(num(a[0]), num(a[1]))), nil
	}
}

func floorDiv(a []value.Value) (value.Value, error) {
	if err := checkNumbers("floordiv", a[:2]); err != nil {
		return value.Value{}, err
	}
	if isInt(a[0]) && isInt(a[1]) {
		x, y := intOf(a[0]), intOf(a[1])
		if y == 0 {
			return value.Value{}, fmt.Errorf("integer division by zero")
		}
		if x == math.MinInt64 && y == -1 {
			return value.Value{}, errOverflow("floordiv")
		}
		q := x / y
		if (x%y != 0) && ((x < 0) != (y < 0)) {
			q--
		}
		return value.FromInt(q), nil
	}
	y := num(a[1])
	if y == 0 {
		return value.Value{}, fmt.Errorf("float floor division by zero")
	}
	q, _ := sym.FloatDivmod(num(a[0]), y)
	return value.FromDouble(q), nil
}

func mod(a []value.Value) (value.Value, error) {
	if err := checkNumbers("mod", a[:2]); err != nil {
		return value.Value{}, err
	}
	if isInt(a[0]) && isInt(a[1]) {
		x, y := intOf(a[0]), intOf(a[1])
		if y == 0 {
			return value.Value{}, fmt.Errorf("integer modulo by zero")
		}
		m := x % y
		if m != 0 && ((m < 0) != (y < 0)) {
			m += y
		}
		return value.FromInt(m), nil
	}
	y := num(a[1])
	if y == 0 {
		return value.Value{}, fmt.Errorf("float modulo by zero")
	}
	_, m := sym.FloatDivmod(num(a[0]), y)
	return value.FromDouble(m), nil
}

// trueDiv always gives a float; int / int is correctly rounded, as
// Python's is, even where the operands do not fit a float64 exactly.
func trueDiv(a []value.Value) (value.Value, error) {
	if err := checkNumbers("truediv", a[:2]); err != nil {
		return value.Value{}, err
	}
	y := num(a[1])
	if y == 0 {
		return value.Value{}, fmt.Errorf("division by zero")
	}
	if isInt(a[0]) && isInt(a[1]) {
		const exact = 1 << 53
		if x, y := intOf(a[0]), intOf(a[1]); x != 0 && (x > exact || x < -exact || y > exact || y < -exact) {
			f, _ := new(big.Rat).SetFrac(big.NewInt(x), big.NewInt(y)).Float64()
			return value.FromDouble(f), nil
		}
	}
	return value.FromDouble(num(a[0]) / y), nil
}

// pow is Python's **: int ** non-negative int is an exact int, any other
// combination a float; 0 to a negative power, a negative number to a
// fractional one (a complex in Python) and a float overflow are errors.
func pow(a []value.Value) (value.Value, error) {
	if err := checkNumbers("pow", a[:2]); err != nil {
		return value.Value{}, err
	}
	if isInt(a[0]) && isInt(a[1]) && intOf(a[1]) >= 0 {
		r, b, e := int64(1), intOf(a[0]), intOf(a[1])
		for ; e > 0; e >>= 1 {
			var ok bool
			if e&1 == 1 {
				if r, ok = mul64(r, b); !ok {
					return value.Value{}, errOverflow("pow")
				}
			}
			if e > 1 {
				if b, ok = mul64(b, b); !ok {
					return value.Value{}, errOverflow("pow")
				}
			}
		}
		return value.FromInt(r), nil
	}
	x, y := num(a[0]), num(a[1])
	switch {
	case x == 0 && y < 0 && !math.IsInf(y, -1):
		return value.Value{}, fmt.Errorf("0.0 cannot be raised to a negative power")
	case x < 0 && !math.IsInf(x, 0) && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsNaN(y):
		return value.Value{}, fmt.Errorf("a negative number to a fractional power is complex")
	}
	r := math.Pow(x, y)
	if n := math.Trunc(y); math.Abs(n) <= 1<<16 && !math.IsInf(x, 0) && x == x && x != 0 && (x > 0 || y == n) {
		r = powSplit(x, int64(n), y-n)
	}
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return value.Value{}, fmt.Errorf("pow: float overflow")
	}
	return value.FromDouble(r), nil
}

// powSplit is x**(n+f) for an integer n and |f| < 1: x**n from 256-bit
// products times math.Pow(x, f), rounded once. Integer powers are then
// correctly rounded, as CPython's libm gives them (math.Pow can be several
// ulp away for large bases and exponents); fractional ones are within a
// few ulp.
func powSplit(x float64, n int64, f float64) float64 {
	b := new(big.Float).SetPrec(256).SetFloat64(x)
	r := new(big.Float).SetPrec(256).SetInt64(1)
	for e := max(n, -n); e > 0; e >>= 1 {
		if e&1 == 1 {
			r.Mul(r, b)
		}
		if e > 1 {
			b.Mul(b, b)
		}
	}
	if n < 0 {
		r.Quo(new(big.Float).SetPrec(256).SetInt64(1), r)
	}
	if f != 0 {
		r.Mul(r, new(big.Float).SetPrec(256).SetFloat64(math.Pow(x, f)))
	}
	v, _ := r.Float64()
	return v
}

func neg(a []value.Value) (value.Value, error) {
	if err := checkNumbers("neg", a[:1]); err != nil {
		return value.Value{}, err
	}
	if isInt(a[0]) {
		if intOf(a[0]) == math.MinInt64 {
			return value.Value{}, errOverflow("neg")
		}
		return value.FromInt(-intOf(a[0])), nil
	}
	return value.FromDouble(-num(a[0])), nil
}

// pos is unary +: a bool becomes an int, as in Python.
func pos(a []value.Value) (value.Value, error) {
	if err := checkNumbers("pos", a[:1]); err != nil {
		return value.Value{}, err
	}
	if isInt(a[0]) {
		return value.FromInt(intOf(a[0])), nil
	}
	return a[0], nil
}

func abs(a []value.Value) (value.Value, error) {
	if err := checkNumbers("abs", a[:1]); err != nil {
		return value.Value{}, err
	}
	if isInt(a[0]) {
		v := intOf(a[0])
		if v == math.MinInt64 {
			return value.Value{}, errOverflow("abs")
		}
		if v < 0 {
			v = -v
		}
		return value.FromInt(v), nil
	}
	return value.FromDouble(math.Abs(num(a[0]))), nil
}

// pyCompare orders two Python numbers exactly, as Python compares an int
// with a float (2**53 + 1 > 2.0**53); ok is false when a NaN is involved.
func pyCompare(x, y value.Value) (c int, ok bool) {
	switch {
	case isInt(x) && isInt(y):
		return cmp3(intOf(x) < intOf(y), intOf(x) > intOf(y)), true
	case isInt(y):
		c, ok := pyCompare(y, x)
		return -c, ok
	case !isInt(x):
		a, b := x.Double(), y.Double()
		return cmp3(a < b, a > b), a == a && b == b
	}
	i, f := intOf(x), y.Double()
	switch {
	case f != f:
		return 0, false
	case f >= 1<<63:
		return -1, true
	case f < -(1 << 63):
		return 1, true
	}
	t := math.Trunc(f)
	if ti := int64(t); i != ti {
		return cmp3(i < ti, i > ti), true
	}
	return cmp3(f > t, f < t), true
}

func compare(ok func(int) bool) scalarFn {
	return func(a []value.Value) (value.Value, error) {
		if err := checkNumbers("comparison", a[:2]); err != nil {
			return value.Value{}, err
		}
		c, ordered := pyCompare(a[0], a[1])
		if !ordered {
			// Every comparison with NaN is false except !=.
			return value.FromBool(!ok(0) && ok(1) && ok(-1)), nil
		}
		return value.FromBool(ok(c)), nil
	}
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

func logic(fb func(x, y bool) bool, fi func(x, y int64) int64) scalarFn {
	return func(a []value.Value) (value.Value, error) {
		if a[0].Kind() == value.Bool && a[1].Kind() == value.Bool {
			return value.FromBool(fb(a[0].Bool(), a[1].Bool())), nil
		}
		if isInt(a[0]) && isInt(a[1]) {
			return value.FromInt(fi(intOf(a[0]), intOf(a[1]))), nil
		}
		return value.Value{}, fmt.Errorf("logical op on %s and %s", a[0].Kind(), a[1].Kind())
	}
}

func not(a []value.Value) (value.Value, error) { return value.FromBool(!truth(a[0])), nil }

// toInt is math.trunc/floor/ceil and torch.sym_int: an int stays, a float
// rounds and must fit in int64 (NaN and Inf are errors, as in Python).
func toInt(f func(float64) float64) scalarFn {
	return func(a []value.Value) (value.Value, error) {
		if err := checkNumbers("int conversion", a[:1]); err != nil {
			return value.Value{}, err
		}
		if isInt(a[0]) {
			return value.FromInt(intOf(a[0])), nil
		}
		r := f(num(a[0]))
		if math.IsNaN(r) || math.IsInf(r, 0) {
			return value.Value{}, fmt.Errorf("cannot convert float %v to integer", r)
		}
		if r >= 1<<63 || r < -(1<<63) {
			return value.Value{}, errOverflow("int conversion")
		}
		return value.FromInt(int64(r)), nil
	}
}

// sqrt is math.sqrt: a float, and a math domain error below zero.
func sqrt(a []value.Value) (value.Value, error) {
	if err := checkNumbers("sqrt", a[:1]); err != nil {
		return value.Value{}, err
	}
	x := num(a[0])
	if x < 0 {
		return value.Value{}, fmt.Errorf("sqrt(%v): math domain error", x)
	}
	return value.FromDouble(math.Sqrt(x)), nil
}

// minMax is torch.sym_max/sym_min on plain values: Python's max/min (the
// first argument unless the second is strictly greater/less, so NaN first
// wins), converted to float when either argument is a float.
func minMax(sign int) scalarFn {
	return func(a []value.Value) (value.Value, error) {
		if err := checkNumbers("sym_max/min", a[:2]); err != nil {
			return value.Value{}, err
		}
		x, y := a[0], a[1]
		r := x
		if c, ok := pyCompare(y, x); ok && c == sign {
			r = y
		}
		if x.Kind() == value.Double || y.Kind() == value.Double {
			return value.FromDouble(num(r)), nil
		}
		return r, nil
	}
}

// symIte is torch.sym_ite(b, t, f) on plain values: b a bool, t and f of
// one type.
func symIte(a []value.Value) (value.Value, error) {
	if a[0].Kind() != value.Bool {
		return value.Value{}, fmt.Errorf("sym_ite: the condition is %s, not a bool", a[0].Kind())
	}
	if a[1].Kind() != a[2].Kind() {
		return value.Value{}, fmt.Errorf("sym_ite: the branches are %s and %s, not one type", a[1].Kind(), a[2].Kind())
	}
	if a[0].Bool() {
		return a[1], nil
	}
	return a[2], nil
}

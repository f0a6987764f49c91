package runtime

import (
	"fmt"
	"math"

	"github.com/seam-rt/seam/value"
)

// scalarFn evaluates an op on scalars (or reads a tensor's size) the way
// Python evaluates it on the ints, floats and bools symbolic values are at
// run time.
type scalarFn func(args []value.Value) (value.Value, error)

// scalarOps are the ops the executor runs itself. Python's semantics are
// kept: floor division and modulo round towards negative infinity, true
// division always gives a float, ints stay ints.
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
	"_operator.add":      arith(func(x, y int64) (int64, bool) { return x + y, true }, func(x, y float64) float64 { return x + y }),
	"_operator.sub":      arith(func(x, y int64) (int64, bool) { return x - y, true }, func(x, y float64) float64 { return x - y }),
	"_operator.mul":      arith(func(x, y int64) (int64, bool) { return x * y, true }, func(x, y float64) float64 { return x * y }),
	"_operator.floordiv": floorDiv,
	"_operator.mod":      mod,
	"_operator.truediv":  trueDiv,
	"_operator.pow":      pow,
	"_operator.neg":      neg,
	"_operator.pos":      func(a []value.Value) (value.Value, error) { return a[0], nil },
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
	"math.sqrt":          func(a []value.Value) (value.Value, error) { return value.FromDouble(math.Sqrt(num(a[0]))), nil },
	"torch.sym_sqrt":     func(a []value.Value) (value.Value, error) { return value.FromDouble(math.Sqrt(num(a[0]))), nil },
	"torch.sym_float":    func(a []value.Value) (value.Value, error) { return value.FromDouble(num(a[0])), nil },
	"torch.sym_int":      toInt(math.Trunc),
	"torch.sym_max":      minMax(1),
	"torch.sym_min":      minMax(-1),
	"torch.sym_ite": func(a []value.Value) (value.Value, error) {
		if truth(a[0]) {
			return a[1], nil
		}
		return a[2], nil
	},
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

func arith(fi func(x, y int64) (int64, bool), ff func(x, y float64) float64) scalarFn {
	return func(a []value.Value) (value.Value, error) {
		if err := checkNumbers("arithmetic", a[:2]); err != nil {
			return value.Value{}, err
		}
		if isInt(a[0]) && isInt(a[1]) {
			r, _ := fi(intOf(a[0]), intOf(a[1]))
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
	return value.FromDouble(math.Floor(num(a[0]) / y)), nil
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
	x, y := num(a[0]), num(a[1])
	if y == 0 {
		return value.Value{}, fmt.Errorf("float modulo by zero")
	}
	m := math.Mod(x, y)
	if m != 0 && ((m < 0) != (y < 0)) {
		m += y
	}
	return value.FromDouble(m), nil
}

func trueDiv(a []value.Value) (value.Value, error) {
	if err := checkNumbers("truediv", a[:2]); err != nil {
		return value.Value{}, err
	}
	y := num(a[1])
	if y == 0 {
		return value.Value{}, fmt.Errorf("division by zero")
	}
	return value.FromDouble(num(a[0]) / y), nil
}

func pow(a []value.Value) (value.Value, error) {
	if err := checkNumbers("pow", a[:2]); err != nil {
		return value.Value{}, err
	}
	if isInt(a[0]) && isInt(a[1]) && intOf(a[1]) >= 0 {
		r, b, e := int64(1), intOf(a[0]), intOf(a[1])
		for ; e > 0; e-- {
			r *= b
		}
		return value.FromInt(r), nil
	}
	return value.FromDouble(math.Pow(num(a[0]), num(a[1]))), nil
}

func neg(a []value.Value) (value.Value, error) {
	if isInt(a[0]) {
		return value.FromInt(-intOf(a[0])), nil
	}
	return value.FromDouble(-num(a[0])), nil
}

func abs(a []value.Value) (value.Value, error) {
	if isInt(a[0]) {
		v := intOf(a[0])
		if v < 0 {
			v = -v
		}
		return value.FromInt(v), nil
	}
	return value.FromDouble(math.Abs(num(a[0]))), nil
}

func compare(ok func(int) bool) scalarFn {
	return func(a []value.Value) (value.Value, error) {
		if err := checkNumbers("comparison", a[:2]); err != nil {
			return value.Value{}, err
		}
		var c int
		if isInt(a[0]) && isInt(a[1]) {
			x, y := intOf(a[0]), intOf(a[1])
			c = cmp3(x < y, x > y)
		} else {
			x, y := num(a[0]), num(a[1])
			c = cmp3(x < y, x > y)
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

func toInt(f func(float64) float64) scalarFn {
	return func(a []value.Value) (value.Value, error) {
		if isInt(a[0]) {
			return value.FromInt(intOf(a[0])), nil
		}
		r := f(num(a[0]))
		if math.IsNaN(r) || math.IsInf(r, 0) || math.Abs(r) > 1<<63 {
			return value.Value{}, fmt.Errorf("%v does not fit an int", r)
		}
		return value.FromInt(int64(r)), nil
	}
}

func minMax(sign int) scalarFn {
	return func(a []value.Value) (value.Value, error) {
		if err := checkNumbers("sym_max/min", a[:2]); err != nil {
			return value.Value{}, err
		}
		x, y := a[0], a[1]
		gt := num(x) > num(y)
		if isInt(x) && isInt(y) {
			gt = intOf(x) > intOf(y)
		}
		if (sign > 0) == gt {
			return x, nil
		}
		return y, nil
	}
}

package kernels

import (
	"fmt"
	"math"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Argument readers: each checks the kind and names the argument in errors.

func argTensor(args []value.Value, i int, name string) (*tensor.Tensor, error) {
	if t := args[i].Tensor(); t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("argument %q must be a Tensor, not %s", name, args[i].Describe())
}

// argOptTensor reads a Tensor? (nil for None).
func argOptTensor(args []value.Value, i int, name string) (*tensor.Tensor, error) {
	if args[i].IsNone() {
		return nil, nil
	}
	return argTensor(args, i, name)
}

func argInt(args []value.Value, i int, name string) (int, error) {
	v := args[i]
	if v.Kind() != value.Int {
		return 0, fmt.Errorf("argument %q must be an int, not %s", name, v.Describe())
	}
	n := v.Int()
	if n > math.MaxInt32*int64(1<<20) || n < -math.MaxInt32*int64(1<<20) {
		return 0, fmt.Errorf("argument %q is out of range: %d", name, n)
	}
	return int(n), nil
}

// argIndexInt reads a SymInt? slice bound, clamping huge values (Python's
// sys.maxsize as "to the end") into a range that cannot overflow.
func argIndexInt(args []value.Value, i int, name string, none int) (int, error) {
	switch args[i].Kind() {
	case value.None:
		return none, nil
	case value.Int:
		return int(max(min(args[i].Int(), 1<<50), -(1 << 50))), nil
	}
	return 0, fmt.Errorf("argument %q must be an int, not %s", name, args[i].Describe())
}

// argOptInt reads an int? with a value for None.
func argOptInt(args []value.Value, i int, name string, none int) (int, error) {
	if args[i].IsNone() {
		return none, nil
	}
	return argInt(args, i, name)
}

func argBool(args []value.Value, i int, name string) (bool, error) {
	if args[i].Kind() != value.Bool {
		return false, fmt.Errorf("argument %q must be a bool, not %s", name, args[i].Describe())
	}
	return args[i].Bool(), nil
}

func argDouble(args []value.Value, i int, name string) (float64, error) {
	switch args[i].Kind() {
	case value.Double, value.Int:
		return args[i].Double(), nil
	}
	return 0, fmt.Errorf("argument %q must be a float, not %s", name, args[i].Describe())
}

func argScalar(args []value.Value, i int, name string) (value.Value, error) {
	if !args[i].IsScalar() {
		return value.Value{}, fmt.Errorf("argument %q must be a Scalar, not %s", name, args[i].Describe())
	}
	return args[i], nil
}

// argInts reads an int list into buf; a single int is a one-element list
// (PyTorch accepts dim=1 for int[1] dim). None gives nil.
func argInts(args []value.Value, i int, name string, buf []int) ([]int, error) {
	v := args[i]
	switch v.Kind() {
	case value.None:
		return nil, nil
	case value.Int:
		return append(buf[:0], int(v.Int())), nil
	case value.IntList:
		buf = buf[:0]
		for _, x := range v.Ints() {
			if x > 1<<50 || x < -(1<<50) {
				return nil, fmt.Errorf("argument %q has an out-of-range entry %d", name, x)
			}
			buf = append(buf, int(x))
		}
		return buf, nil
	}
	return nil, fmt.Errorf("argument %q must be an int list, not %s", name, v.Describe())
}

// argDType reads a ScalarType? (def for None).
func argDType(args []value.Value, i int, name string, def tensor.DType) (tensor.DType, error) {
	switch args[i].Kind() {
	case value.None:
		return def, nil
	case value.ScalarType:
		d := args[i].ScalarType()
		if !d.Valid() {
			return 0, fmt.Errorf("argument %q: unsupported dtype %v", name, d)
		}
		return d, nil
	}
	return 0, fmt.Errorf("argument %q must be a ScalarType, not %s", name, args[i].Describe())
}

// argStr reads a str? (def for None).
func argStr(args []value.Value, i int, name, def string) (string, error) {
	switch args[i].Kind() {
	case value.None:
		return def, nil
	case value.String:
		return args[i].Str(), nil
	}
	return "", fmt.Errorf("argument %q must be a str, not %s", name, args[i].Describe())
}

// checkDevice refuses non-CPU device arguments.
func checkDevice(args []value.Value, i int) error {
	if v := args[i]; v.Kind() == value.Device && v.DeviceType() != value.DeviceCPU {
		return fmt.Errorf("device %s is not supported; kernels run on the CPU", v.String())
	}
	return nil
}

func wrapDim(d, ndim int) (int, error) { return tensor.WrapDim(d, ndim) }

// checkFits refuses a scalar that dtype dt cannot hold, as ATen's
// Scalar::to (c10::checked_convert) does when an op stores a fill value:
// integers out of range (negative ones may wrap into an unsigned type if
// their magnitude fits), NaN or Inf into an integer, a finite float beyond
// a float type's range. Anything fits a bool. v may be a 0-d tensor.
func checkFits(v value.Value, dt tensor.DType) error {
	if t := v.Tensor(); t != nil {
		if t.Numel() != 1 {
			return nil
		}
		switch {
		case t.DType() == tensor.Bool:
			return nil
		case t.DType().IsFloat():
			v = value.FromDouble(t.Float64s()[0])
		default:
			v = value.FromInt(t.Int64s()[0])
		}
	}
	if dt == tensor.Bool || v.Kind() == value.Bool {
		return nil
	}
	lo, hi := dtypeRange(dt)
	bad := false
	if v.Kind() == value.Int {
		i := v.Int()
		switch {
		case !dt.IsFloat() && lo == 0 && i < 0:
			bad = float64(-i) > hi || i == math.MinInt64
		case dt == tensor.Int64:
		default:
			bad = float64(i) < lo || float64(i) > hi
		}
	} else if f := v.Double(); !math.IsInf(f, 0) && f == f || !dt.IsFloat() {
		bad = f != f || f < lo || f > hi
	}
	if bad {
		return fmt.Errorf("value %s cannot be converted to type %v without overflow", v.String(), dt)
	}
	return nil
}

// dtypeRange is a dtype's lowest and largest finite value.
func dtypeRange(dt tensor.DType) (float64, float64) {
	switch dt {
	case tensor.Uint8:
		return 0, math.MaxUint8
	case tensor.Int8:
		return math.MinInt8, math.MaxInt8
	case tensor.Int16:
		return math.MinInt16, math.MaxInt16
	case tensor.Int32:
		return math.MinInt32, math.MaxInt32
	case tensor.Int64:
		return math.MinInt64, math.MaxInt64
	case tensor.Float16:
		return -65504, 65504
	case tensor.BFloat16:
		return -3.3895313892515355e38, 3.3895313892515355e38
	case tensor.Float32:
		return -math.MaxFloat32, math.MaxFloat32
	}
	return -math.MaxFloat64, math.MaxFloat64
}

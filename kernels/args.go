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

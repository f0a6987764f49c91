package kernels

import (
	"fmt"
	"math"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// ArgError is an argument a kernel refuses: the op, the argument (its
// schema name and position) and the reason. Kernels read their arguments
// with an argReader, which knows only positions; register's wrapper, which
// knows the op's schema, fills in the op and the name.
type ArgError struct {
	Op     string // "aten.add.Tensor"
	Arg    string // "alpha"
	Index  int    // the argument's position in the schema
	Reason string // "must be a Scalar, not Tensor f32[3]"
}

func (e *ArgError) Error() string {
	if e.Arg == "" {
		return fmt.Sprintf("argument %d %s", e.Index, e.Reason)
	}
	return fmt.Sprintf("argument %q %s", e.Arg, e.Reason)
}

// argReader reads a kernel's arguments one after another in schema order:
// each read takes the next argument, so a kernel names neither positions
// nor names, and the first argument that is not what the read asks for
// becomes an *ArgError (Err) while the reads after it return zero values.
// Check Err before using a value read after one that may have failed.
//
//	arg := readArgs(args)
//	x, dim, keepdim := arg.Tensor(), arg.Int(), arg.Bool()
//	if err := arg.Err(); err != nil {
//		return err
//	}
type argReader struct {
	args []value.Value
	next int
	err  *ArgError
	// names, for a kernel no schema describes (one a runtime rewrite
	// made), are its arguments' names.
	names []string
}

// readArgs starts reading args at the first one; names are given only by
// kernels that are not registered for a schema.
func readArgs(args []value.Value, names ...string) argReader {
	return argReader{args: args, names: names}
}

// Err is the first argument error, nil when every read so far succeeded.
func (r *argReader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// More reports whether an argument is left to read (an overload with
// fewer arguments shares the kernel).
func (r *argReader) More() bool { return r.next < len(r.args) }

// Skip passes over n arguments the kernel does not read (layout,
// pin_memory).
func (r *argReader) Skip(n int) { r.next += n }

// take returns the next argument, ok false once an argument has failed.
func (r *argReader) take() (value.Value, bool) {
	if r.err != nil {
		return value.Value{}, false
	}
	i := r.next
	r.next++
	if i >= len(r.args) {
		r.failAt(i, "is missing")
		return value.Value{}, false
	}
	return r.args[i], true
}

// none takes the next argument when it is None.
func (r *argReader) none() bool {
	if r.err == nil && r.next < len(r.args) && r.args[r.next].IsNone() {
		r.next++
		return true
	}
	return false
}

// fail refuses the argument just taken.
func (r *argReader) fail(format string, a ...any) { r.failAt(r.next-1, fmt.Sprintf(format, a...)) }

func (r *argReader) failAt(i int, reason string) {
	r.err = &ArgError{Index: i, Reason: reason}
	if i < len(r.names) {
		r.err.Arg = r.names[i]
	}
}

// Tensor reads a Tensor.
func (r *argReader) Tensor() *tensor.Tensor {
	v, ok := r.take()
	if !ok {
		return nil
	}
	if t := v.Tensor(); t != nil {
		return t
	}
	r.fail("must be a Tensor, not %s", v.Describe())
	return nil
}

// OptTensor reads a Tensor? (nil for None).
func (r *argReader) OptTensor() *tensor.Tensor {
	if r.none() {
		return nil
	}
	return r.Tensor()
}

// Int reads an int, refusing one too large for a size or an index.
func (r *argReader) Int() int {
	v, ok := r.take()
	if !ok {
		return 0
	}
	if v.Kind() != value.Int {
		r.fail("must be an int, not %s", v.Describe())
		return 0
	}
	n := v.Int()
	if n > math.MaxInt32*int64(1<<20) || n < -math.MaxInt32*int64(1<<20) {
		r.fail("is out of range: %d", n)
		return 0
	}
	return int(n)
}

// OptInt reads an int? with a value for None.
func (r *argReader) OptInt(none int) int {
	if r.none() {
		return none
	}
	return r.Int()
}

// IndexInt reads a SymInt? slice bound, clamping huge values (Python's
// sys.maxsize as "to the end") into a range that cannot overflow.
func (r *argReader) IndexInt(none int) int {
	v, ok := r.take()
	if !ok {
		return 0
	}
	switch v.Kind() {
	case value.None:
		return none
	case value.Int:
		return int(max(min(v.Int(), 1<<50), -(1 << 50)))
	}
	r.fail("must be an int, not %s", v.Describe())
	return 0
}

// Bool reads a bool.
func (r *argReader) Bool() bool {
	v, ok := r.take()
	if !ok {
		return false
	}
	if v.Kind() != value.Bool {
		r.fail("must be a bool, not %s", v.Describe())
		return false
	}
	return v.Bool()
}

// Double reads a float (an int is accepted, as Python does).
func (r *argReader) Double() float64 {
	v, ok := r.take()
	if !ok {
		return 0
	}
	switch v.Kind() {
	case value.Double, value.Int:
		return v.Double()
	}
	r.fail("must be a float, not %s", v.Describe())
	return 0
}

// Operand reads a Tensor or Scalar operand (either side of add.Tensor
// may be a Python number).
func (r *argReader) Operand() value.Value {
	v, ok := r.take()
	if ok && v.Tensor() == nil && !v.IsScalar() {
		r.fail("must be a Tensor or Scalar, not %s", v.Describe())
		return value.Value{}
	}
	return v
}

// Tensors reads a Tensor[] or Tensor?[] (nil elements for None).
func (r *argReader) Tensors() []*tensor.Tensor {
	v, ok := r.take()
	if !ok {
		return nil
	}
	if k := v.Kind(); k != value.TensorList && k != value.OptTensorList {
		r.fail("must be a Tensor[], not %s", v.Describe())
		return nil
	}
	return v.Tensors()
}

// OptDouble reads a float? with a value for None.
func (r *argReader) OptDouble(none float64) float64 {
	if r.none() {
		return none
	}
	return r.Double()
}

// ScalarFloat reads a Scalar as a float (a bool as 0 or 1).
func (r *argReader) ScalarFloat() float64 { return r.Scalar().Double() }

// OptScalarFloat reads a Scalar? as a float, with a value for None.
func (r *argReader) OptScalarFloat(none float64) float64 {
	if r.none() {
		return none
	}
	return r.ScalarFloat()
}

// OptBool reads a bool? with a value for None.
func (r *argReader) OptBool(none bool) bool {
	if r.none() {
		return none
	}
	return r.Bool()
}

// Scalar reads a Scalar: an int, float or bool.
func (r *argReader) Scalar() value.Value {
	v, ok := r.take()
	if !ok {
		return value.Value{}
	}
	if !v.IsScalar() {
		r.fail("must be a Scalar, not %s", v.Describe())
		return value.Value{}
	}
	return v
}

// Ints reads an int list into buf; a single int is a one-element list
// (PyTorch accepts dim=1 for int[1] dim). None gives nil.
func (r *argReader) Ints(buf []int) []int {
	v, ok := r.take()
	if !ok {
		return nil
	}
	switch v.Kind() {
	case value.None:
		return nil
	case value.Int:
		return append(buf[:0], int(v.Int()))
	case value.IntList:
		buf = buf[:0]
		for _, x := range v.Ints() {
			if x > 1<<50 || x < -(1<<50) {
				r.fail("has an out-of-range entry %d", x)
				return nil
			}
			buf = append(buf, int(x))
		}
		return buf
	}
	r.fail("must be an int list, not %s", v.Describe())
	return nil
}

// Pair reads an int[2]-style size for nd spatial dims (1 or 2): a single
// value repeats, and an empty list or None gives none.
func (r *argReader) Pair(nd int, none [2]int) [2]int {
	var buf [4]int
	v := r.Ints(buf[:0])
	switch {
	case r.err != nil:
		return [2]int{}
	case len(v) == 0:
		return none
	case len(v) == 1:
		return [2]int{v[0], v[0]}
	case len(v) != nd || nd > 2:
		// A copy, so that buf stays on the stack.
		r.fail("must have %d elements, got %v", nd, append([]int(nil), v...))
		return [2]int{}
	}
	return [2]int{v[0], v[1]}
}

// DType reads a ScalarType? (def for None).
func (r *argReader) DType(def tensor.DType) tensor.DType {
	v, ok := r.take()
	if !ok {
		return 0
	}
	switch v.Kind() {
	case value.None:
		return def
	case value.ScalarType:
		d := v.ScalarType()
		if !d.Valid() {
			r.fail("is an unsupported dtype %v", d)
			return 0
		}
		return d
	}
	r.fail("must be a ScalarType, not %s", v.Describe())
	return 0
}

// Str reads a str? (def for None).
func (r *argReader) Str(def string) string {
	v, ok := r.take()
	if !ok {
		return ""
	}
	switch v.Kind() {
	case value.None:
		return def
	case value.String:
		return v.Str()
	}
	r.fail("must be a str, not %s", v.Describe())
	return ""
}

// Device reads a Device?, refusing any but the CPU.
func (r *argReader) Device() {
	v, ok := r.take()
	if ok && v.Kind() == value.Device && v.DeviceType() != value.DeviceCPU {
		r.fail("must be the CPU, where kernels run, not %s", v.String())
	}
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

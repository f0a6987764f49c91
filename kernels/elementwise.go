package kernels

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// binOp is a binary elementwise operation.
type binOp uint8

const (
	opAdd binOp = iota // a + alpha*b
	opSub              // a - alpha*b
	opMul
	opDiv      // true division
	opDivTrunc // rounding_mode='trunc'
	opDivFloor // rounding_mode='floor'
	opPow
	opMaximum
	opMinimum
	opRemainder
	opFmod
	opAtan2
	opBitAnd
	opBitOr
	opBitXor
	// Comparisons and logical ops write bool.
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
	opLogicalAnd
	opLogicalOr
	opLogicalXor
)

func (op binOp) boolResult() bool { return op >= opEq }
func (op binOp) logical() bool    { return op >= opLogicalAnd }
func (op binOp) bitwise() bool    { return op >= opBitAnd && op <= opBitXor }

// binary computes op(a, b) with broadcasting and type promotion; a or b may
// be a Python scalar (a wrapped number). alpha scales b for add/sub.
func binary(ctx *Context, op binOp, a, b, alpha value.Value) (*tensor.Tensor, error) {
	defer ctx.releaseTemps()
	common := resultType2(a, b)
	if common == tensor.Invalid {
		return nil, fmt.Errorf("expected a tensor operand, got %s and %s", a.Describe(), b.Describe())
	}
	compute := common
	switch {
	case op.logical():
		compute = tensor.Bool
	case op == opDiv || op == opAtan2:
		if !common.IsFloat() {
			compute = DefaultFloat
		}
	case op.bitwise():
		if common.IsFloat() {
			return nil, dtypeErr("bitwise operation", common)
		}
	case op == opSub && (isBoolOperand(a) || isBoolOperand(b)):
		return nil, fmt.Errorf("subtraction, the `-` operator, with a bool tensor is not supported; use the `^` or `logical_xor()` operator, or `~` to invert a mask")
	case common == tensor.Bool && (op == opDivTrunc || op == opDivFloor || op == opRemainder || op == opFmod || op == opPow):
		return nil, dtypeErr("this op", tensor.Bool)
	}
	if (op == opAdd || op == opSub) && alpha.Kind() == value.Double && !compute.IsFloat() {
		return nil, fmt.Errorf("for integral input tensors, argument alpha must not be a floating point number")
	}
	outDT := compute
	if op.boolResult() {
		outDT = tensor.Bool
	}
	native := compute
	if compute == tensor.Float16 || compute == tensor.BFloat16 {
		native = tensor.Float32 // opmath: compute in float, round on store
	}
	var sb [8]int
	shape, err := broadcastShapes(sb[:0], shapeOf(a), shapeOf(b))
	if err != nil {
		return nil, err
	}
	out, err := ctx.empty(outDT, shape)
	if err != nil {
		return nil, err
	}
	dst := out
	if !op.boolResult() && outDT != native {
		if dst, err = ctx.temp(native, shape); err != nil {
			ctx.Pool.Release(out)
			return nil, err
		}
	}
	ta, err := asDType(ctx, a, native)
	if err == nil {
		var tb *tensor.Tensor
		tb, err = asDType(ctx, b, native)
		if err == nil {
			err = runBinaryThreads(ctx, op, native, dst, ta, a, tb, b, alpha)
		}
	}
	if err == nil && dst != out {
		err = tensor.Copy(out, dst)
	}
	if err != nil {
		ctx.Pool.Release(out)
		return nil, err
	}
	return out, nil
}

// isBoolOperand reports a bool tensor or a Python bool.
func isBoolOperand(v value.Value) bool {
	if t := v.Tensor(); t != nil {
		return t.DType() == tensor.Bool
	}
	return v.Kind() == value.Bool
}

var scalarShape = []int{}

func shapeOf(v value.Value) []int {
	if t := v.Tensor(); t != nil {
		return t.Sizes()
	}
	return scalarShape
}

// asDType returns v's tensor in dtype dt, casting into a temporary when
// needed; 0-d tensors and scalars give nil (they are read as constants).
func asDType(ctx *Context, v value.Value, dt tensor.DType) (*tensor.Tensor, error) {
	t := v.Tensor()
	if t == nil || t.Dim() == 0 {
		return nil, nil
	}
	if t.DType() == dt {
		return t, nil
	}
	c, err := ctx.temp(dt, t.Sizes())
	if err != nil {
		return nil, err
	}
	return c, tensor.Copy(c, t)
}

// scalarOf reads a scalar or 0-d tensor operand as float64 and int64.
func scalarOf(v value.Value) (float64, int64) {
	if t := v.Tensor(); t != nil {
		return t.Float(), t.Int()
	}
	if v.Kind() == value.Double {
		f := v.Double()
		return f, int64(f)
	}
	return float64(v.Int()), v.Int()
}

func runBinary(op binOp, dt tensor.DType, out, ta *tensor.Tensor, a value.Value, tb *tensor.Tensor, b, alpha value.Value) error {
	switch dt {
	case tensor.Float32:
		return binaryTyped[float32](op, out, ta, a, tb, b, alpha, fromF64[float32])
	case tensor.Float64:
		return binaryTyped[float64](op, out, ta, a, tb, b, alpha, fromF64[float64])
	case tensor.Int64:
		return binaryTyped[int64](op, out, ta, a, tb, b, alpha, nil)
	case tensor.Int32:
		return binaryTyped[int32](op, out, ta, a, tb, b, alpha, nil)
	case tensor.Int16:
		return binaryTyped[int16](op, out, ta, a, tb, b, alpha, nil)
	case tensor.Int8:
		return binaryTyped[int8](op, out, ta, a, tb, b, alpha, nil)
	case tensor.Uint8:
		return binaryTyped[uint8](op, out, ta, a, tb, b, alpha, nil)
	case tensor.Bool:
		return binaryBool(op, out, ta, a, tb, b)
	}
	return dtypeErr("elementwise op", dt)
}

func fromF64[T float32 | float64](f float64) T { return T(f) }

type number interface {
	float32 | float64 | int64 | int32 | int16 | int8 | uint8
}

// load gives an operand's data: the tensor's elements, or a scalar
// stored in one (read with stride 0).
func load[T number](one *[1]T, t *tensor.Tensor, v value.Value, conv func(float64) T) []T {
	if t != nil {
		return tensor.Data[T](t)
	}
	f, i := scalarOf(v)
	if conv != nil {
		one[0] = conv(f)
	} else {
		one[0] = T(i)
	}
	return one[:]
}

func addOperand(w *tensor.Walk, t *tensor.Tensor, shape []int) {
	var sb [8]int
	if t == nil {
		w.Add(sb[:len(shape)], 0) // zeros: a scalar has stride 0 everywhere
		return
	}
	w.Add(broadcastStrides(sb[:0], t, shape), 0)
}

func binaryTyped[T number](op binOp, out, ta *tensor.Tensor, a value.Value, tb *tensor.Tensor, b, alpha value.Value, conv func(float64) T) error {
	var xs, ys [1]T
	xd, yd := load(&xs, ta, a, conv), load(&ys, tb, b, conv)
	var al T = 1
	if op == opAdd || op == opSub {
		f, i := scalarOf(alpha)
		if conv != nil {
			al = conv(f)
		} else {
			al = T(i)
		}
	}
	if (op == opDivTrunc || op == opDivFloor || op == opRemainder || op == opFmod) && conv == nil {
		if hasZero(yd, tb) {
			return fmt.Errorf("ZeroDivisionError")
		}
	}
	if op == opPow && conv == nil && hasNegative(yd, tb) {
		return fmt.Errorf("integers to negative integer powers are not allowed")
	}
	shape := out.Sizes()
	var w tensor.Walk
	w.Init(shape)
	w.Add(out.Strides(), 0) // tensor.Data(out) starts at out.Offset()
	addOperand(&w, ta, shape)
	addOperand(&w, tb, shape)
	w.Coalesce()
	if err := w.Err(); err != nil {
		return err
	}
	if op.boolResult() {
		o := tensor.Data[bool](out)
		var f func(T, T) bool
		for w.Next() {
			if cmpRowFast(op, o, xd, yd, &w) {
				continue
			}
			if f == nil {
				f = cmpFunc[T](op)
			}
			for k := 0; k < w.Len; k++ {
				o[w.Off[0]+k*w.Step[0]] = f(xd[w.Off[1]+k*w.Step[1]], yd[w.Off[2]+k*w.Step[2]])
			}
		}
		return nil
	}
	o := tensor.Data[T](out)
	var zero T
	if _, f32 := any(zero).(float32); f32 {
		binaryWalkF32(op, asF32(o), asF32(xd), asF32(yd), &w, float32(al))
		return nil
	}
	var f func(T, T) T
	for w.Next() {
		if binaryRowFast(op, o, xd, yd, &w, al) {
			continue
		}
		if f == nil {
			f = arithFunc[T](op, al, conv != nil)
		}
		oo, oa, ob := w.Off[0], w.Off[1], w.Off[2]
		so, sa, sb := w.Step[0], w.Step[1], w.Step[2]
		for k := 0; k < w.Len; k++ {
			o[oo+k*so] = f(xd[oa+k*sa], yd[ob+k*sb])
		}
	}
	return nil
}

// binaryWalkF32 is float32 arithmetic over a walk: a grid of planes and
// their gates in one call where it can (binaryGridF32), else row by row,
// the hot patterns in vector calls and the rest element by element.
func binaryWalkF32(op binOp, o, x, y []float32, w *tensor.Walk, alpha float32) {
	if binaryGridF32(op, o, x, y, w, alpha) {
		return
	}
	var f func(float32, float32) float32
	for w.Next() {
		if binaryRowF32(op, o, x, y, w, alpha) {
			continue
		}
		if f == nil {
			f = arithFunc[float32](op, alpha, true)
		}
		oo, oa, ob := w.Off[0], w.Off[1], w.Off[2]
		so, sa, sb := w.Step[0], w.Step[1], w.Step[2]
		for k := 0; k < w.Len; k++ {
			o[oo+k*so] = f(x[oa+k*sa], y[ob+k*sb])
		}
	}
}

func hasZero[T number](d []T, t *tensor.Tensor) bool {
	if t == nil {
		return d[0] == 0
	}
	for _, v := range t.Int64s() {
		if v == 0 {
			return true
		}
	}
	return false
}

func hasNegative[T number](d []T, t *tensor.Tensor) bool {
	if t == nil {
		return d[0] < 0
	}
	for _, v := range t.Int64s() {
		if v < 0 {
			return true
		}
	}
	return false
}

// binaryRowFast runs the hot float patterns (contiguous rows, or a scalar
// on one side) without per-element index arithmetic; false means the
// caller takes the general path.
func binaryRowFast[T number](op binOp, o, a, b []T, w *tensor.Walk, alpha T) bool {
	n := w.Len
	if w.Step[0] != 1 || n == 0 {
		return false
	}
	so, sa, sb := w.Step[0], w.Step[1], w.Step[2]
	_ = so
	o = o[w.Off[0] : w.Off[0]+n]
	switch {
	case sa == 1 && sb == 1:
		a = a[w.Off[1] : w.Off[1]+n]
		b = b[w.Off[2] : w.Off[2]+n]
		switch op {
		case opAdd:
			if alpha == 1 {
				for i := range o {
					o[i] = a[i] + b[i]
				}
			} else {
				for i := range o {
					o[i] = a[i] + alpha*b[i]
				}
			}
		case opSub:
			for i := range o {
				o[i] = a[i] - alpha*b[i]
			}
		case opMul:
			for i := range o {
				o[i] = a[i] * b[i]
			}
		default:
			return false
		}
		return true
	case sa == 1 && sb == 0:
		a = a[w.Off[1] : w.Off[1]+n]
		s := b[w.Off[2]]
		switch op {
		case opAdd:
			s *= alpha
			for i := range o {
				o[i] = a[i] + s
			}
		case opSub:
			s *= alpha
			for i := range o {
				o[i] = a[i] - s
			}
		case opMul:
			for i := range o {
				o[i] = a[i] * s
			}
		default:
			return false
		}
		return true
	case sa == 0 && sb == 1:
		b = b[w.Off[2] : w.Off[2]+n]
		s := a[w.Off[1]]
		switch op {
		case opAdd:
			for i := range o {
				o[i] = s + alpha*b[i]
			}
		case opMul:
			for i := range o {
				o[i] = s * b[i]
			}
		default:
			return false
		}
		return true
	}
	return false
}

// asF32 views a []T that is a []float32 as one.
func asF32[T number](s []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// binaryRowF32 is binaryRowFast for float32 through the vector loops: add,
// sub, mul and div of contiguous rows, or of a row and a scalar.
func binaryRowF32(op binOp, o, a, b []float32, w *tensor.Walk, alpha float32) bool {
	n := w.Len
	if (op == opMaximum || op == opMinimum) && w.Step[0] == 1 && n > 0 {
		return extremumRowF32(op, o[w.Off[0]:w.Off[0]+n], a, b, w)
	}
	if w.Step[0] != 1 || n == 0 || op > opDiv || alpha != 1 && op <= opSub {
		return binaryRowFast(op, o, a, b, w, alpha)
	}
	o = o[w.Off[0] : w.Off[0]+n]
	switch sa, sb := w.Step[1], w.Step[2]; {
	case sa == 1 && sb == 1:
		a, b = a[w.Off[1]:w.Off[1]+n], b[w.Off[2]:w.Off[2]+n]
		switch op {
		case opAdd:
			vec.Add(o, a, b)
		case opSub:
			vec.Sub(o, a, b)
		case opMul:
			vec.Mul(o, a, b)
		default:
			vec.Div(o, a, b)
		}
	case sa == 1 && sb == 0:
		a, s := a[w.Off[1]:w.Off[1]+n], b[w.Off[2]]
		switch op {
		case opAdd:
			vec.AddScalar(o, a, s)
		case opSub:
			vec.SubScalar(o, a, s)
		case opMul:
			vec.MulScalar(o, a, s)
		default:
			vec.DivScalar(o, a, s)
		}
	case sa == 0 && sb == 1:
		s, b := a[w.Off[1]], b[w.Off[2]:w.Off[2]+n]
		switch op {
		case opAdd:
			vec.AddScalar(o, b, s)
		case opSub:
			vec.ScalarSub(o, s, b)
		case opMul:
			vec.MulScalar(o, b, s)
		default:
			vec.ScalarDiv(o, s, b)
		}
	default:
		return false
	}
	return true
}

// gridMaxCols: float32 arithmetic between planes shorter than this and
// one value per plane (a squeeze-excite gate, [N, C, H, W] times
// [N, C, 1, 1]) runs as one call over all planes (vec.GateRows); a vector
// call per plane cost more than its elements on small planes (27 ns a
// 3x3 plane, AMD EPYC Zen 3: mobilenet_tiny_b8's gates went from 62 and
// 47 us to 9 and 3), and still a third more at 14x14. Past it, the row
// loops' AVX-512 path wins.
const gridMaxCols = 1024

// binaryGridF32 computes add, sub, mul or div (alpha 1) of contiguous
// planes and one value per plane, when w is that grid; it reports false
// for anything else, which the row loops handle. Each element is the same
// IEEE operation binaryRowF32 does.
func binaryGridF32(op binOp, o, a, b []float32, w *tensor.Walk, alpha float32) bool {
	if op > opDiv || alpha != 1 && op <= opSub {
		return false
	}
	g, ok := w.Grid()
	if !ok || g.Rows < 2 || g.Cols >= gridMaxCols || g.ColStep[0] != 1 || g.RowStep[0] != g.Cols {
		return false
	}
	n := g.Rows * g.Cols
	o = o[g.Off[0]:][:n]
	plane := func(i int) bool { return g.ColStep[i] == 1 && g.RowStep[i] == g.Cols }
	gate := func(i int) bool { return g.ColStep[i] == 0 && g.RowStep[i] >= 0 }
	last := func(i int) int { return g.Off[i] + (g.Rows-1)*g.RowStep[i] + 1 }
	switch {
	case plane(1) && gate(2):
		gateRowsF32(op, o, a[g.Off[1]:][:n], b[g.Off[2]:last(2)], g.RowStep[2], g.Cols, false)
	case gate(1) && plane(2):
		gateRowsF32(op, o, b[g.Off[2]:][:n], a[g.Off[1]:last(1)], g.RowStep[1], g.Cols, true)
	default:
		return false
	}
	return true
}

// gateRowsF32 sets each row r of cols elements of o to op(plane's row r,
// gate[r*step]), or op(gate[r*step], plane's row r) when gateFirst.
func gateRowsF32(op binOp, o, plane, gate []float32, step, cols int, gateFirst bool) {
	ro := vec.RowAdd
	switch {
	case op == opMul:
		ro = vec.RowMul
	case op == opSub && gateFirst:
		ro = vec.RowSubFrom
	case op == opSub:
		ro = vec.RowSub
	case op == opDiv && gateFirst:
		ro = vec.RowDivInto
	case op == opDiv:
		ro = vec.RowDiv
	}
	vec.GateRows(ro, o, plane, gate, cols, step)
}

// extremumRowF32 is maximum or minimum of contiguous rows, or of a row and
// a scalar (as a clamp with one bound), through the vector loops.
func extremumRowF32(op binOp, o, a, b []float32, w *tensor.Walk) bool {
	n := len(o)
	inf := float32(math.Inf(1))
	bound := func(row []float32, s float32) {
		if op == opMaximum {
			vec.Clamp(o, row, s, inf)
		} else {
			vec.Clamp(o, row, -inf, s)
		}
	}
	switch sa, sb := w.Step[1], w.Step[2]; {
	case sa == 1 && sb == 1:
		a, b = a[w.Off[1]:w.Off[1]+n], b[w.Off[2]:w.Off[2]+n]
		if op == opMaximum {
			vec.Maximum(o, a, b)
		} else {
			vec.Minimum(o, a, b)
		}
	case sa == 1 && sb == 0:
		bound(a[w.Off[1]:w.Off[1]+n], b[w.Off[2]])
	case sa == 0 && sb == 1:
		bound(b[w.Off[2]:w.Off[2]+n], a[w.Off[1]])
	default:
		return false
	}
	return true
}

// arithFunc is the per-element function of an arithmetic op in type T;
// float reports a floating-point T.
func arithFunc[T number](op binOp, alpha T, float bool) func(T, T) T {
	switch op {
	case opAdd:
		return func(x, y T) T { return x + alpha*y }
	case opSub:
		return func(x, y T) T { return x - alpha*y }
	case opMul:
		return func(x, y T) T { return x * y }
	case opDiv:
		return func(x, y T) T { return x / y }
	case opMaximum:
		return func(x, y T) T {
			if x != x || y != y {
				return x + y // NaN propagates
			}
			return max(x, y)
		}
	case opMinimum:
		return func(x, y T) T {
			if x != x || y != y {
				return x + y
			}
			return min(x, y)
		}
	}
	if float {
		return floatFunc[T](op)
	}
	return intFunc[T](op)
}

func floatFunc[T number](op binOp) func(T, T) T {
	switch op {
	case opDivTrunc:
		return func(x, y T) T { return T(math.Trunc(float64(x / y))) }
	case opDivFloor:
		return func(x, y T) T { return T(divFloorFloat(float64(x), float64(y))) }
	case opRemainder:
		return func(x, y T) T {
			m := T(math.Mod(float64(x), float64(y)))
			if m != 0 && (y < 0) != (m < 0) {
				m += y
			}
			return m
		}
	case opFmod:
		return func(x, y T) T { return T(math.Mod(float64(x), float64(y))) }
	case opAtan2:
		return func(x, y T) T { return T(math.Atan2(float64(x), float64(y))) }
	case opPow:
		return func(x, y T) T { return T(math.Pow(float64(x), float64(y))) }
	}
	return func(x, y T) T { return x }
}

// divFloorFloat is ATen's div_floor_floating: Python's // for floats.
func divFloorFloat(a, b float64) float64 {
	if b == 0 {
		return a / b
	}
	mod := math.Mod(a, b)
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return math.Copysign(0, a/b)
	}
	fl := math.Floor(div)
	if div-fl > 0.5 {
		fl++
	}
	return fl
}

func intFunc[T number](op binOp) func(T, T) T {
	switch op {
	// T is an integer type here; int64 arithmetic gives T's results
	// (operands were checked for zero divisors).
	case opDivTrunc:
		return func(x, y T) T { return T(int64(x) / int64(y)) }
	case opDivFloor:
		return func(x, y T) T {
			a, b := int64(x), int64(y)
			q := a / b
			if a%b != 0 && (a < 0) != (b < 0) {
				q--
			}
			return T(q)
		}
	case opRemainder:
		return func(x, y T) T {
			a, b := int64(x), int64(y)
			m := a % b
			if m != 0 && (m < 0) != (b < 0) {
				m += b
			}
			return T(m)
		}
	case opFmod:
		return func(x, y T) T { return T(int64(x) % int64(y)) }
	case opPow:
		return func(x, y T) T {
			r, base := T(1), x
			for e := int64(y); e > 0; e >>= 1 {
				if e&1 == 1 {
					r *= base
				}
				base *= base
			}
			return r
		}
	case opBitAnd:
		return func(x, y T) T { return bitAnd(x, y) }
	case opBitOr:
		return func(x, y T) T { return bitOr(x, y) }
	case opBitXor:
		return func(x, y T) T { return bitXor(x, y) }
	}
	return func(x, y T) T { return x }
}

func bitAnd[T number](x, y T) T { return T(int64(x) & int64(y)) }
func bitOr[T number](x, y T) T  { return T(int64(x) | int64(y)) }
func bitXor[T number](x, y T) T { return T(int64(x) ^ int64(y)) }

func cmpFunc[T number](op binOp) func(T, T) bool {
	switch op {
	case opEq:
		return func(x, y T) bool { return x == y }
	case opNe:
		return func(x, y T) bool { return x != y }
	case opLt:
		return func(x, y T) bool { return x < y }
	case opLe:
		return func(x, y T) bool { return x <= y }
	case opGt:
		return func(x, y T) bool { return x > y }
	case opGe:
		return func(x, y T) bool { return x >= y }
	}
	return func(x, y T) bool { return false }
}

// cmpRowFast runs a comparison over a walk row whose output is contiguous
// and whose operands are contiguous or a scalar (one side's stride 0), as
// in the masks transformers build from aranges; false means the caller
// takes the general path.
func cmpRowFast[T number](op binOp, o []bool, a, b []T, w *tensor.Walk) bool {
	n := w.Len
	if w.Step[0] != 1 || n == 0 || op > opGe {
		return false
	}
	o = o[w.Off[0] : w.Off[0]+n]
	sa, sb := w.Step[1], w.Step[2]
	switch {
	case sa == 1 && sb == 1:
		cmpRows(op, o, a[w.Off[1]:w.Off[1]+n], b[w.Off[2]:w.Off[2]+n])
	case sa == 1 && sb == 0:
		cmpScalar(op, o, a[w.Off[1]:w.Off[1]+n], b[w.Off[2]])
	case sa == 0 && sb == 1:
		// s op b[i] is b[i] op' s with the comparison mirrored.
		mirror := [...]binOp{opEq: opEq, opNe: opNe, opLt: opGt, opLe: opGe, opGt: opLt, opGe: opLe}
		cmpScalar(mirror[op], o, b[w.Off[2]:w.Off[2]+n], a[w.Off[1]])
	default:
		return false
	}
	return true
}

func cmpRows[T number](op binOp, o []bool, a, b []T) {
	o, b = o[:len(a)], b[:len(a)]
	switch op {
	case opEq:
		for i, v := range a {
			o[i] = v == b[i]
		}
	case opNe:
		for i, v := range a {
			o[i] = v != b[i]
		}
	case opLt:
		for i, v := range a {
			o[i] = v < b[i]
		}
	case opLe:
		for i, v := range a {
			o[i] = v <= b[i]
		}
	case opGt:
		for i, v := range a {
			o[i] = v > b[i]
		}
	case opGe:
		for i, v := range a {
			o[i] = v >= b[i]
		}
	}
}

func cmpScalar[T number](op binOp, o []bool, a []T, s T) {
	o = o[:len(a)]
	switch op {
	case opEq:
		for i, v := range a {
			o[i] = v == s
		}
	case opNe:
		for i, v := range a {
			o[i] = v != s
		}
	case opLt:
		for i, v := range a {
			o[i] = v < s
		}
	case opLe:
		for i, v := range a {
			o[i] = v <= s
		}
	case opGt:
		for i, v := range a {
			o[i] = v > s
		}
	case opGe:
		for i, v := range a {
			o[i] = v >= s
		}
	}
}

// binaryBool handles bool operands: add is or, mul is and, as in ATen.
func binaryBool(op binOp, out, ta *tensor.Tensor, a value.Value, tb *tensor.Tensor, b value.Value) error {
	var xs, ys [1]bool
	xd, yd := boolOperand(&xs, ta, a), boolOperand(&ys, tb, b)
	var f func(x, y bool) bool
	switch op {
	case opAdd, opBitOr, opLogicalOr, opMaximum:
		f = func(x, y bool) bool { return x || y }
	case opMul, opBitAnd, opLogicalAnd, opMinimum:
		f = func(x, y bool) bool { return x && y }
	case opBitXor, opLogicalXor, opNe:
		f = func(x, y bool) bool { return x != y }
	case opEq:
		f = func(x, y bool) bool { return x == y }
	case opLt:
		f = func(x, y bool) bool { return !x && y }
	case opLe:
		f = func(x, y bool) bool { return !x || y }
	case opGt:
		f = func(x, y bool) bool { return x && !y }
	case opGe:
		f = func(x, y bool) bool { return x || !y }
	default:
		return dtypeErr("this op", tensor.Bool)
	}
	shape := out.Sizes()
	var w tensor.Walk
	w.Init(shape)
	w.Add(out.Strides(), 0) // tensor.Data(out) starts at out.Offset()
	addOperand(&w, ta, shape)
	addOperand(&w, tb, shape)
	w.Coalesce()
	if err := w.Err(); err != nil {
		return err
	}
	o := tensor.Data[bool](out)
	for w.Next() {
		if boolRowFast(op, o, xd, yd, &w) {
			continue
		}
		for k := 0; k < w.Len; k++ {
			o[w.Off[0]+k*w.Step[0]] = f(xd[w.Off[1]+k*w.Step[1]], yd[w.Off[2]+k*w.Step[2]])
		}
	}
	return nil
}

// boolRowFast runs and, or and xor of bool rows (contiguous, or one side
// a scalar) on their bytes, which are 0 or 1; false means the caller
// takes the general path.
func boolRowFast(op binOp, o, a, b []bool, w *tensor.Walk) bool {
	n := w.Len
	if w.Step[0] != 1 || n == 0 {
		return false
	}
	var kind byte
	switch op {
	case opMul, opBitAnd, opLogicalAnd, opMinimum:
		kind = '&'
	case opAdd, opBitOr, opLogicalOr, opMaximum:
		kind = '|'
	case opBitXor, opLogicalXor, opNe:
		kind = '^'
	default:
		return false
	}
	oo := boolsAsBytes(o[w.Off[0] : w.Off[0]+n])
	oa, ob, sa, sb := w.Off[1], w.Off[2], w.Step[1], w.Step[2]
	if sa == 0 && sb == 1 {
		// Commutative: put the scalar second.
		a, b, oa, ob, sa, sb = b, a, ob, oa, sb, sa
	}
	switch {
	case sa == 1 && sb == 1:
		aa, bb := boolsAsBytes(a[oa:oa+n]), boolsAsBytes(b[ob:ob+n])
		switch kind {
		case '&':
			for i, v := range aa {
				oo[i] = v & bb[i]
			}
		case '|':
			for i, v := range aa {
				oo[i] = v | bb[i]
			}
		default:
			for i, v := range aa {
				oo[i] = v ^ bb[i]
			}
		}
	case sa == 1 && sb == 0:
		aa, s := boolsAsBytes(a[oa:oa+n]), b[ob]
		switch {
		case kind == '&' && s, kind == '|' && !s, kind == '^' && !s:
			copy(oo, aa)
		case kind == '&': // and false
			clear(oo)
		case kind == '|': // or true
			for i := range oo {
				oo[i] = 1
			}
		default: // xor true
			for i, v := range aa {
				oo[i] = v ^ 1
			}
		}
	default:
		return false
	}
	return true
}

// boolsAsBytes views bools as their bytes (Go stores false as 0, true as 1).
func boolsAsBytes(b []bool) []uint8 {
	return unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(b))), len(b))
}

func boolOperand(one *[1]bool, t *tensor.Tensor, v value.Value) []bool {
	if t != nil {
		return tensor.Data[bool](t)
	}
	f, _ := scalarOf(v)
	one[0] = f != 0
	return one[:]
}

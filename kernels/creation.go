package kernels

import (
	"math"

	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// Copies always produce contiguous tensors: ATen's preserve_format keeps a
// dense tensor's strides, but any view valid on those strides is also
// valid on a contiguous layout, and values are identical.

func init() {
	register(cloneKernel, "aten.clone.default", "aten.lift_fresh_copy.default", "aten.alias_copy.default")
	register(contiguousKernel, "aten.contiguous.default")
	register(toCopyKernel, "aten._to_copy.default")
	register(copyKernel, "aten.copy.default")
	register(assertTensorMetadata, "aten._assert_tensor_metadata.default")
	register(assertAsync, "aten._assert_async.msg")
	register(fillKernel, "aten.fill.Scalar")
	register(arangeKernel(true, true), "aten.arange.start_step")
	register(arangeKernel(true, false), "aten.arange.start")
	register(arangeKernel(false, false), "aten.arange.default")
	register(fullKernel, "aten.full.default")
	register(filledKernel(0, false), "aten.zeros.default")
	register(filledKernel(1, false), "aten.ones.default")
	register(filledKernel(0, false), "aten.empty.memory_format")
	register(emptyPermutedKernel, "aten.empty_permuted.default")
	register(filledKernel(0, true), "aten.zeros_like.default", "aten.empty_like.default")
	register(filledKernel(1, true), "aten.ones_like.default")
	register(fullLikeKernel, "aten.full_like.default")
	register(newFilledKernel(0), "aten.new_zeros.default", "aten.new_empty.default")
	register(newFilledKernel(1), "aten.new_ones.default")
	register(newFullKernel, "aten.new_full.default")
	register(emptyStridedKernel, "aten.empty_strided.default")
	register(scalarTensorKernel, "aten.scalar_tensor.default")
	register(localScalarDense, "aten._local_scalar_dense.default", "aten.item.default")
	register(dropoutKernel, "aten.dropout.default")
	register(nativeDropoutKernel, "aten.native_dropout.default")
	for _, t := range []string{"aten.view_copy.default", "aten.permute_copy.default", "aten.expand_copy.default",
		"aten.unsqueeze_copy.default", "aten.squeeze_copy.dims", "aten.select_copy.int", "aten.slice_copy.Tensor",
		"aten.transpose_copy.int", "aten.t_copy.default"} {
		register(copyOfView(t), t)
	}
}

func copyOf(ctx *Context, x *tensor.Tensor, dt tensor.DType) (*tensor.Tensor, error) {
	r, err := ctx.empty(dt, x.Sizes())
	if err != nil {
		return nil, err
	}
	if dt == tensor.Float32 && (copyTransposed(r, x) || copyShortRows(r, x)) {
		return r, nil
	}
	if err := tensor.Copy(r, x); err != nil {
		ctx.Pool.Release(r)
		return nil, err
	}
	return r, nil
}

// copyTransposed copies a float32 x whose last two dims are swapped in
// memory (the second-last of stride 1, the last strided: attention's keys
// made contiguous as K^T) into the contiguous r in 8x8 blocks
// (vec.Transpose), instead of one strided read per value; false, copying
// nothing, for any other layout.
func copyTransposed(r, x *tensor.Tensor) bool {
	nd := x.Dim()
	if nd < 2 || x.DType() != tensor.Float32 {
		return false
	}
	st, sz := x.Strides(), x.Sizes()
	rows, cols, ls := sz[nd-1], sz[nd-2], st[nd-1]
	if st[nd-2] != 1 || ls < cols || rows < 8 || cols < 8 {
		return false
	}
	// Each inner matrix is rows x cols with rows ls apart in x, written
	// transposed: r's [cols, rows] block, rows contiguous.
	return forEachMatrix(r, x, func(d, s []float32) { vec.Transpose(d, rows, s, ls, rows, cols) })
}

// copyShortRows copies a float32 x whose rows (last dim) are contiguous but
// short and strided apart (a head's slice of a projection, 16 values of
// every 192) into the contiguous r with one vec.CopyRows per matrix of
// rows, instead of a memmove per row; false, copying nothing, for any
// other layout.
func copyShortRows(r, x *tensor.Tensor) bool {
	nd := x.Dim()
	if nd < 2 || x.DType() != tensor.Float32 || x.IsContiguous() {
		return false
	}
	st, sz := x.Strides(), x.Sizes()
	n, rows, ss := sz[nd-1], sz[nd-2], st[nd-2]
	if st[nd-1] != 1 || n > shortRow || ss < 0 || rows < 2 {
		return false
	}
	return forEachMatrix(r, x, func(d, s []float32) { vec.CopyRows(d, n, s, ss, n, rows) })
}

// forEachMatrix calls copy with the contiguous r and the float32 x from
// the start of each of their inner matrices (the last two dims), in
// order; false, calling nothing, when the outer dims cannot be walked.
func forEachMatrix(r, x *tensor.Tensor, copy func(d, s []float32)) bool {
	nd := x.Dim()
	var w tensor.Walk
	w.Init(x.Sizes()[:nd-2])
	w.Add(r.Strides()[:nd-2], 0)
	w.Add(x.Strides()[:nd-2], 0)
	w.Coalesce()
	if w.Err() != nil {
		return false
	}
	d, s := tensor.Contig[float32](r), tensor.Data[float32](x)
	for w.Next() {
		for k := 0; k < w.Len; k++ {
			copy(d[w.Off[0]+k*w.Step[0]:], s[w.Off[1]+k*w.Step[1]:])
		}
	}
	return true
}

// shortRow is the longest row copyShortRows copies: past it a memmove per
// row costs little beside the row.
const shortRow = 64

func cloneKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := copyOf(ctx, x, x.DType())
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

func contiguousKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if x.IsContiguous() {
		return aliasKernel(ctx, args, out)
	}
	return cloneKernel(ctx, args, out)
}

func toCopyKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	dt := arg.DType(x.DType())
	arg.Skip(1)
	arg.Device()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := copyOf(ctx, x, dt)
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

// copyKernel is the functional copy: src broadcast into self's shape and dtype.
func copyKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, src := arg.Tensor(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := ctx.empty(x.DType(), x.Sizes())
	if err != nil {
		return err
	}
	if err := tensor.Copy(r, src); err != nil {
		ctx.Pool.Release(r)
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

// assertTensorMetadata checks what export asserted at trace time.
func assertTensorMetadata(ctx *Context, args, out []value.Value) error {
	var buf [8]int
	arg := readArgs(args)
	x, size := arg.Tensor(), arg.Ints(buf[:0])
	arg.Skip(1) // stride
	if err := arg.Err(); err != nil {
		return err
	}
	dt := arg.DType(x.DType())
	if err := arg.Err(); err != nil {
		return err
	}
	if size != nil && !tensor.EqualInts(size, x.Sizes()) {
		return errorf("tensor has sizes %v, expected %v", x.Sizes(), append([]int(nil), size...))
	}
	if dt != x.DType() {
		return errorf("tensor has dtype %v, expected %v", x.DType(), dt)
	}
	return nil
}

func assertAsync(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	msg := arg.Str("") // a message that is not a str is no reason to fail
	if x.Numel() != 1 {
		return errorf("boolean value of Tensor with more than one value is ambiguous")
	}
	if x.Float64s()[0] == 0 {
		return errorf("assertion failed: %s", msg)
	}
	return nil
}

// fillScalar writes a scalar into every element of a contiguous tensor.
func fillScalar(t *tensor.Tensor, v value.Value) {
	n := t.Numel()
	switch t.DType() {
	case tensor.Float32:
		d := tensor.Data[float32](t)[:n]
		f := float32(v.Double())
		for i := range d {
			d[i] = f
		}
	case tensor.Int64:
		d := tensor.Data[int64](t)[:n]
		x := scalarInt(v)
		for i := range d {
			d[i] = x
		}
	case tensor.Bool:
		// static_cast<bool>: any nonzero value (NaN included) is true.
		var b uint8
		if f := v.Double(); f != 0 || f != f {
			b = 1
		}
		d := boolBytes(t)[t.Offset():][:n]
		for i := range d {
			d[i] = b
		}
	default:
		one, _ := tensor.New(t.DType())
		if t.DType().IsFloat() {
			one.SetFloat(v.Double())
		} else {
			s, _ := tensor.FromSlice([]int64{scalarInt(v)})
			_ = tensor.Copy(one, s)
		}
		_ = tensor.Copy(t, one)
	}
}

func scalarInt(v value.Value) int64 {
	if v.Kind() == value.Double {
		return int64(v.Double())
	}
	return v.Int()
}

// scalarDType is the dtype torch.full infers from a fill value.
func scalarDType(v value.Value) tensor.DType {
	switch v.Kind() {
	case value.Bool:
		return tensor.Bool
	case value.Int:
		return tensor.Int64
	}
	return DefaultFloat
}

func fillKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, v := arg.Tensor(), arg.Scalar()
	if err := arg.Err(); err != nil {
		return err
	}
	return ctx.filled(out, x.DType(), x.Sizes(), v)
}

// arangeKernel reads (start,) end (, step), dtype, layout, device: the
// overloads without start or step take 0 and 1.
func arangeKernel(withStart, withStep bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		start, step := value.FromInt(0), value.FromInt(1)
		if withStart {
			start = arg.Scalar()
		}
		end := arg.Scalar()
		if withStep {
			step = arg.Scalar()
		}
		if err := arg.Err(); err != nil {
			return err
		}
		def := tensor.Int64
		if start.Kind() == value.Double || end.Kind() == value.Double || step.Kind() == value.Double {
			def = DefaultFloat
		}
		dt := arg.DType(def)
		arg.Skip(1) // layout
		arg.Device()
		if err := arg.Err(); err != nil {
			return err
		}
		if dt == tensor.Bool {
			return dtypeErr("arange", dt)
		}
		s, e, st := start.Double(), end.Double(), step.Double()
		if math.IsInf(s, 0) || math.IsInf(e, 0) || s != s || e != e {
			return errorf("unsupported range: %v -> %v", s, e)
		}
		// Integer dtypes compute in int64 from the truncated bounds (ATen's
		// acc_type); only int64 also sizes the result from them.
		xs, xe, xst := s, e, st
		if !dt.IsFloat() {
			xs, xe, xst = math.Trunc(s), math.Trunc(e), math.Trunc(st)
		}
		if xst == 0 {
			return errorf("step must be nonzero")
		}
		if (xst > 0 && xe < xs) || (xst < 0 && xe > xs) {
			return errorf("upper bound and larger bound inconsistent with step sign")
		}
		var n float64
		if dt == tensor.Int64 {
			a, b, c := int64(xs), int64(xe), int64(xst)
			sgn := int64(1)
			if c < 0 {
				sgn = -1
			}
			n = float64((b - a + c - sgn) / c)
		} else {
			n = math.Ceil((e - s) / st)
		}
		if n > 1<<40 {
			return errorf("arange of %g elements is too large", n)
		}
		sizes := [1]int{int(n)}
		r, err := ctx.empty(dt, sizes[:])
		if err != nil {
			return err
		}
		switch {
		case !dt.IsFloat():
			si, sti := int64(xs), int64(xst)
			switch dt {
			case tensor.Int64:
				arangeInts(tensor.Data[int64](r)[:sizes[0]], si, sti)
			case tensor.Int32:
				arangeInts(tensor.Data[int32](r)[:sizes[0]], si, sti)
			case tensor.Int16:
				arangeInts(tensor.Data[int16](r)[:sizes[0]], si, sti)
			case tensor.Int8:
				arangeInts(tensor.Data[int8](r)[:sizes[0]], si, sti)
			case tensor.Uint8:
				arangeInts(tensor.Data[uint8](r)[:sizes[0]], si, sti)
			}
		case dt == tensor.Float32:
			d := tensor.Data[float32](r)[:sizes[0]]
			for i := range d {
				d[i] = float32(s + st*float64(i))
			}
		default:
			for i := 0; i < sizes[0]; i++ {
				r.SetFloat(s+st*float64(i), i)
			}
		}
		out[0] = value.FromTensor(r)
		return nil
	}
}

// arangeInts writes start + step*i, computed in int64 and wrapped into T.
func arangeInts[T int64 | int32 | int16 | int8 | uint8](d []T, start, step int64) {
	for i := range d {
		d[i] = T(start + step*int64(i))
	}
}

func fullKernel(ctx *Context, args, out []value.Value) error {
	var buf [8]int
	arg := readArgs(args)
	size, v := arg.Ints(buf[:0]), arg.Scalar()
	if err := arg.Err(); err != nil {
		return err
	}
	dt := arg.DType(scalarDType(v))
	arg.Skip(1)
	arg.Device()
	if err := arg.Err(); err != nil {
		return err
	}
	return ctx.filled(out, dt, size, v)
}

// filledKernel is zeros/ones/empty (like=false: args are size, dtype, ...)
// and their *_like forms (like=true: self, dtype, ...).
func filledKernel(fill int64, like bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		var buf [8]int
		var size []int
		def := DefaultFloat
		arg := readArgs(args)
		if like {
			if x := arg.Tensor(); x != nil {
				size, def = x.Sizes(), x.DType()
			}
		} else {
			size = arg.Ints(buf[:0])
		}
		dt := arg.DType(def)
		arg.Skip(1) // layout
		arg.Device()
		if err := arg.Err(); err != nil {
			return err
		}
		return ctx.filled(out, dt, size, value.FromInt(fill))
	}
}

func fullLikeKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, v := arg.Tensor(), arg.Scalar()
	if err := arg.Err(); err != nil {
		return err
	}
	dt := arg.DType(x.DType())
	if err := arg.Err(); err != nil {
		return err
	}
	return ctx.filled(out, dt, x.Sizes(), v)
}

func newFilledKernel(fill int64) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x := arg.Tensor()
		var buf [8]int
		size := arg.Ints(buf[:0])
		if err := arg.Err(); err != nil {
			return err
		}
		dt := arg.DType(x.DType())
		if err := arg.Err(); err != nil {
			return err
		}
		return ctx.filled(out, dt, size, value.FromInt(fill))
	}
}

func newFullKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	var buf [8]int
	size, v := arg.Ints(buf[:0]), arg.Scalar()
	if err := arg.Err(); err != nil {
		return err
	}
	dt := arg.DType(x.DType())
	if err := arg.Err(); err != nil {
		return err
	}
	return ctx.filled(out, dt, size, v)
}

// emptyStridedKernel returns a zeroed tensor with the requested sizes and
// strides (a program may read its layout back).
func emptyStridedKernel(ctx *Context, args, out []value.Value) error {
	var buf, sbuf [8]int
	arg := readArgs(args)
	size, strides := arg.Ints(buf[:0]), arg.Ints(sbuf[:0])
	if err := arg.Err(); err != nil {
		return err
	}
	if len(strides) != len(size) {
		return errorf("%d strides for %d sizes", len(strides), len(size))
	}
	dt := arg.DType(DefaultFloat)
	if err := arg.Err(); err != nil {
		return err
	}
	need := 1
	for d, s := range size {
		if s < 0 || strides[d] < 0 {
			return errorf("negative size or stride: size %v, stride %v", append([]int(nil), size...), append([]int(nil), strides...))
		}
		if s == 0 {
			need = 0
			break
		}
		if strides[d] > 0 && s-1 > (1<<40)/strides[d] {
			return errorf("size %v with stride %v is too large", append([]int(nil), size...), append([]int(nil), strides...))
		}
		need += (s - 1) * strides[d]
	}
	flat, err := ctx.Pool.Zeros(dt, []int{need})
	if err != nil {
		return err
	}
	r := ctx.header()
	if _, err := r.AsStrided(flat, size, strides, 0); err != nil {
		ctx.Pool.Release(flat)
		return err
	}
	ctx.Pool.Release(flat)
	out[0] = value.FromTensor(r)
	return nil
}

// emptyPermutedKernel is empty_permuted(size, physical_layout): zeros laid
// out in memory in physical_layout's order of dims, seen in size's order.
func emptyPermutedKernel(ctx *Context, args, out []value.Value) error {
	var buf, lbuf [8]int
	arg := readArgs(args)
	size, layout, dt := arg.Ints(buf[:0]), arg.Ints(lbuf[:0]), arg.DType(DefaultFloat)
	arg.Skip(1)
	arg.Device()
	if err := arg.Err(); err != nil {
		return err
	}
	if len(layout) != len(size) {
		return errorf("physical_layout %v does not match size %v", append([]int(nil), layout...), append([]int(nil), size...))
	}
	phys, inv, seen := make([]int, len(size)), make([]int, len(size)), make([]bool, len(size))
	for i, d := range layout {
		if d < 0 || d >= len(size) || seen[d] {
			return errorf("physical_layout %v is not a permutation of the dims", append([]int(nil), layout...))
		}
		seen[d] = true
		phys[i], inv[d] = size[d], i
	}
	flat, err := ctx.Pool.Zeros(dt, phys)
	if err != nil {
		return err
	}
	r := ctx.header()
	if _, err := r.Permute(flat, inv); err != nil {
		ctx.Pool.Release(flat)
		return err
	}
	ctx.Pool.Release(flat)
	out[0] = value.FromTensor(r)
	return nil
}

func scalarTensorKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	v, dt := arg.Scalar(), arg.DType(DefaultFloat)
	arg.Skip(1)
	arg.Device()
	if err := arg.Err(); err != nil {
		return err
	}
	return ctx.filled(out, dt, nil, v)
}

// localScalarDense unboxes a one-element tensor into an Int, Double or Bool.
func localScalarDense(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if x.Numel() != 1 {
		return errorf("a Tensor with %d elements cannot be converted to Scalar", x.Numel())
	}
	var idx [8]int
	at := idx[:x.Dim()]
	switch {
	case x.DType() == tensor.Bool:
		out[0] = value.FromBool(x.Int(at...) != 0)
	case x.DType().IsFloat():
		out[0] = value.FromDouble(x.Float(at...))
	default:
		out[0] = value.FromInt(x.Int(at...))
	}
	return nil
}

// Dropout in inference is the identity (train=False), which is what
// exported inference graphs carry.
func dropoutKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	arg.Skip(2)
	train := arg.Bool()
	if err := arg.Err(); err != nil {
		return err
	}
	if train {
		return errorf("dropout with train=True needs a random generator, which is not supported")
	}
	return cloneKernel(ctx, args, out)
}

func nativeDropoutKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	arg.Skip(2) // input, p
	train := arg.OptBool(false)
	if err := arg.Err(); err != nil {
		return err
	}
	if train {
		return errorf("native_dropout with train=True needs a random generator, which is not supported")
	}
	if err := cloneKernel(ctx, args, out); err != nil {
		return err
	}
	x := out[0].Tensor()
	mask, err := ctx.empty(tensor.Bool, x.Sizes())
	if err != nil {
		return err
	}
	fillScalar(mask, value.FromBool(true))
	out[1] = value.FromTensor(mask)
	return nil
}

// copyOfView runs the view kernel of a *_copy op and copies the result.
func copyOfView(target string) Kernel {
	viewTarget := map[string]string{
		"aten.view_copy.default": "view", "aten.permute_copy.default": "permute", "aten.expand_copy.default": "expand",
		"aten.unsqueeze_copy.default": "unsqueeze", "aten.squeeze_copy.dims": "squeeze", "aten.select_copy.int": "select",
		"aten.slice_copy.Tensor": "slice", "aten.transpose_copy.int": "transpose", "aten.t_copy.default": "t",
	}[target]
	views := map[string]Kernel{"view": viewKernel, "permute": permuteKernel, "expand": expandKernel,
		"unsqueeze": unsqueezeKernel, "squeeze": squeezeKernel, "select": selectKernel, "slice": sliceKernel,
		"transpose": transposeKernel, "t": tKernel}
	view := views[viewTarget]
	return func(ctx *Context, args, out []value.Value) error {
		if err := view(ctx, args, out); err != nil {
			return err
		}
		v := out[0].Tensor()
		r, err := copyOf(ctx, v, v.DType())
		ctx.Pool.Release(v)
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(r)
		return nil
	}
}

package kernels

import (
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func init() {
	register(catKernel, "aten.cat.default")
	register(stackKernel, "aten.stack.default")
	register(repeatKernel, "aten.repeat.default")
	register(constantPadKernel, "aten.constant_pad_nd.default")
	register(triKernel(true), "aten.triu.default")
	register(triKernel(false), "aten.tril.default")
	register(flipKernel, "aten.flip.default")
	register(rollKernel, "aten.roll.default")
}

// cat joins tensors along dim; 1-D empty tensors are skipped, as ATen's
// legacy rule allows; dtypes promote.
func cat(ctx *Context, ts []*tensor.Tensor, dim int) (*tensor.Tensor, error) {
	var ref *tensor.Tensor
	var dt tensor.DType
	for i, t := range ts {
		if t == nil {
			return nil, errorf("tensors[%d] is None", i)
		}
		dt = PromoteTypes(dt, t.DType())
		if t.Dim() == 1 && t.Size(0) == 0 {
			continue
		}
		if ref == nil {
			ref = t
		}
	}
	if len(ts) == 0 {
		return nil, errorf("expected a non-empty list of Tensors")
	}
	if ref == nil {
		return ctx.empty(dt, ts[0].Sizes())
	}
	d, err := wrapDim(dim, ref.Dim())
	if err != nil {
		return nil, err
	}
	if ref.Dim() == 0 {
		return nil, errorf("zero-dimensional tensor cannot be concatenated")
	}
	shape := append([]int{}, ref.Sizes()...)
	shape[d] = 0
	for i, t := range ts {
		if t.Dim() == 1 && t.Size(0) == 0 {
			continue
		}
		if t.Dim() != ref.Dim() {
			return nil, errorf("tensors must have same number of dimensions: got %d and %d", ref.Dim(), t.Dim())
		}
		for j := 0; j < t.Dim(); j++ {
			if j != d && t.Size(j) != ref.Size(j) {
				return nil, errorf("sizes of tensors must match except in dimension %d; expected size %d but got size %d for tensor number %d in the list", d, ref.Size(j), t.Size(j), i)
			}
		}
		shape[d] += t.Size(d)
	}
	res, err := ctx.empty(dt, shape)
	if err != nil {
		return nil, err
	}
	start := 0
	var part tensor.Tensor
	for _, t := range ts {
		if t.Dim() == 1 && t.Size(0) == 0 {
			continue
		}
		if _, err := part.Slice(res, d, start, start+t.Size(d), 1); err != nil {
			return nil, err
		}
		if err := tensor.Copy(&part, t); err != nil {
			return nil, err
		}
		start += t.Size(d)
	}
	return res, nil
}

func catKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	ts, dim := arg.Tensors(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := cat(ctx, ts, dim)
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

func stackKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	ts, dim := arg.Tensors(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	if len(ts) == 0 {
		return errorf("stack expects a non-empty TensorList")
	}
	us := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		if t == nil || !t.SameShape(ts[0]) {
			return errorf("stack expects each tensor to be equal size, but got %v at entry 0 and %v at entry %d", ts[0].Sizes(), shapeOf(value.FromTensor(t)), i)
		}
		u, err := new(tensor.Tensor).Unsqueeze(t, dim)
		if err != nil {
			return err
		}
		us[i] = u
	}
	r, err := cat(ctx, us, dim)
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

// repeatKernel tiles self: each dim i becomes (repeats[i], size[i]) through
// a broadcast view, copied into the result viewed the same way.
func repeatKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, reps := arg.Tensor(), arg.Ints(nil)
	if err := arg.Err(); err != nil {
		return err
	}
	if len(reps) < x.Dim() {
		return errorf("number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
	}
	pad := len(reps) - x.Dim()
	var src []int
	for range pad {
		src = append(src, 1)
	}
	src = append(src, x.Sizes()...)
	xv, err := new(tensor.Tensor).View(mustContig(ctx, x), src)
	if err != nil {
		return err
	}
	var shape, pairs, pairSrc []int
	for i, r := range reps {
		if r < 0 {
			return errorf("trying to create tensor with negative dimension %d", r)
		}
		shape = append(shape, r*src[i])
		pairs = append(pairs, r, src[i])
		pairSrc = append(pairSrc, 1, src[i])
	}
	res, err := ctx.empty(x.DType(), shape)
	if err != nil {
		return err
	}
	if res.Numel() > 0 {
		sv, err := new(tensor.Tensor).View(xv, pairSrc)
		if err != nil {
			return err
		}
		rv, err := new(tensor.Tensor).View(res, pairs)
		if err != nil {
			return err
		}
		if err := tensor.Copy(rv, sv); err != nil {
			return err
		}
	}
	out[0] = value.FromTensor(res)
	return nil
}

// mustContig returns x or a contiguous temp copy.
func mustContig(ctx *Context, x *tensor.Tensor) *tensor.Tensor {
	if x.IsContiguous() {
		return x
	}
	c, err := ctx.temp(x.DType(), x.Sizes())
	if err != nil {
		return x
	}
	_ = tensor.Copy(c, x)
	return c
}

func constantPadKernel(ctx *Context, args, out []value.Value) error {
	defer ctx.releaseTemps()
	arg := readArgs(args)
	x, pad, v := arg.Tensor(), arg.Ints(nil), arg.Scalar()
	if err := arg.Err(); err != nil {
		return err
	}
	if err := checkFits(v, x.DType()); err != nil {
		return err
	}
	if len(pad)%2 != 0 || len(pad)/2 > x.Dim() {
		return errorf("length of pad must be even and at most twice the number of dimensions; got %d for %s", len(pad), x.Type())
	}
	shape := append([]int{}, x.Sizes()...)
	src := new(tensor.Tensor).Alias(x)
	for i := 0; i < len(pad)/2; i++ {
		d := x.Dim() - 1 - i
		lo, hi := pad[2*i], pad[2*i+1]
		shape[d] += lo + hi
		if shape[d] < 0 {
			return errorf("the input size %d, plus negative padding %d and %d resulted in a negative output size", x.Size(d), lo, hi)
		}
	}
	res, err := ctx.empty(x.DType(), shape)
	if err != nil {
		return err
	}
	fillScalar(res, v)
	dst := new(tensor.Tensor).Alias(res)
	for i := 0; i < len(pad)/2; i++ {
		d := x.Dim() - 1 - i
		lo, hi := pad[2*i], pad[2*i+1]
		// Negative padding crops the source; positive shifts the target.
		sStart, sEnd := max(-lo, 0), x.Size(d)-max(-hi, 0)
		if sEnd < sStart {
			sEnd = sStart
		}
		if src, err = new(tensor.Tensor).Slice(src, d, sStart, sEnd, 1); err != nil {
			return err
		}
		dStart := max(lo, 0)
		if dst, err = new(tensor.Tensor).Slice(dst, d, dStart, dStart+(sEnd-sStart), 1); err != nil {
			return err
		}
	}
	if dst.Numel() > 0 {
		if err := tensor.Copy(dst, src); err != nil {
			return err
		}
	}
	out[0] = value.FromTensor(res)
	return nil
}

func triKernel(upper bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x, diag := arg.Tensor(), arg.Int()
		if err := arg.Err(); err != nil {
			return err
		}
		if x.Dim() < 2 {
			return errorf("tril/triu: input tensor must have at least 2 dimensions")
		}
		res, err := copyOf(ctx, x, x.DType())
		if err != nil {
			return err
		}
		rows, cols := x.Size(-2), x.Size(-1)
		size := x.DType().Size()
		b := res.Storage().Bytes()
		mats := res.Numel() / max(rows*cols, 1)
		for m := 0; m < mats; m++ {
			for i := 0; i < rows; i++ {
				for j := 0; j < cols; j++ {
					keep := j-i >= diag
					if !upper {
						keep = j-i <= diag
					}
					if !keep {
						p := ((m*rows+i)*cols + j) * size
						clear(b[p : p+size])
					}
				}
			}
		}
		out[0] = value.FromTensor(res)
		return nil
	}
}

func flipKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, dims := arg.Tensor(), arg.Ints(nil)
	if err := arg.Err(); err != nil {
		return err
	}
	mask, err := reduceDims(ctx, x, dims)
	if err != nil {
		return err
	}
	if len(dims) == 0 {
		return cloneKernel(ctx, args, out)
	}
	res, err := ctx.empty(x.DType(), x.Sizes())
	if err != nil {
		return err
	}
	size := x.DType().Size()
	dst, src := res.Storage().Bytes(), x.Storage().Bytes()
	n := 0
	_ = alongDim(x.Sizes(), make([]int, x.Dim()), func(idx []int) error {
		off := x.Offset()
		for d, i := range idx {
			if mask[d] {
				i = x.Size(d) - 1 - i
			}
			off += i * x.Strides()[d]
		}
		elemBytes(dst, n, src, off, size)
		n++
		return nil
	})
	out[0] = value.FromTensor(res)
	return nil
}

func rollKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, shifts, dims := arg.Tensor(), arg.Ints(nil), arg.Ints(nil)
	if err := arg.Err(); err != nil {
		return err
	}
	var err error
	if x.Dim() == 0 || x.Numel() == 0 {
		return cloneKernel(ctx, args, out)
	}
	src := x
	flat := len(dims) == 0
	if flat {
		if len(shifts) != 1 {
			return errorf("shifts and dimensions must align: shifts %v, dims %v", shifts, dims)
		}
		if src, err = new(tensor.Tensor).Reshape(x, []int{-1}); err != nil {
			return err
		}
		dims = []int{0}
	}
	if len(shifts) != len(dims) {
		return errorf("shifts and dimensions must align: shifts %v, dims %v", shifts, dims)
	}
	res, err := ctx.empty(x.DType(), src.Sizes())
	if err != nil {
		return err
	}
	size := x.DType().Size()
	dst, sb := res.Storage().Bytes(), src.Storage().Bytes()
	shift := make([]int, src.Dim())
	for i, d := range dims {
		w, err := wrapDim(d, src.Dim())
		if err != nil {
			return err
		}
		shift[w] += shifts[i]
	}
	n := 0
	_ = alongDim(src.Sizes(), make([]int, src.Dim()), func(idx []int) error {
		off := src.Offset()
		for d, i := range idx {
			s := src.Size(d)
			j := ((i-shift[d])%s + s) % s
			off += j * src.Strides()[d]
		}
		elemBytes(dst, n, sb, off, size)
		n++
		return nil
	})
	if flat {
		h := ctx.header()
		if _, err := h.View(res, x.Sizes()); err != nil {
			return err
		}
		ctx.Pool.Release(res)
		res = h
	}
	out[0] = value.FromTensor(res)
	return nil
}

package kernels

import (
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// View kernels return headers that share the input's storage, as ATen's
// view ops do; nothing is copied.

func viewResult(ctx *Context, out []value.Value, f func(h *tensor.Tensor) (*tensor.Tensor, error)) error {
	h := ctx.header()
	r, err := f(h)
	if err != nil {
		ctx.Pool.Release(h)
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

func init() {
	register(viewKernel, "aten.view.default", "aten._unsafe_view.default")
	register(reshapeKernel, "aten.reshape.default")
	register(permuteKernel, "aten.permute.default")
	register(expandKernel, "aten.expand.default")
	register(aliasKernel, "aten.alias.default", "aten.detach.default")
	register(unsqueezeKernel, "aten.unsqueeze.default")
	register(squeezeKernel, "aten.squeeze.dims", "aten.squeeze.dim", "aten.squeeze.default")
	register(sliceKernel, "aten.slice.Tensor")
	register(selectKernel, "aten.select.int")
	register(transposeKernel, "aten.transpose.int")
	register(tKernel, "aten.t.default")
	register(asStridedKernel, "aten.as_strided.default")
	register(narrowKernel, "aten.narrow.default")
	register(expandAsKernel, "aten.expand_as.default")
	register(splitWithSizes, "aten.split_with_sizes.default")
	register(splitTensor, "aten.split.Tensor")
	register(unbindKernel, "aten.unbind.int")
	register(chunkKernel, "aten.chunk.default")
	register(diagonalKernel, "aten.diagonal.default")
}

// The views taking (self, int[]).
var (
	viewKernel    = intListView((*tensor.Tensor).View)
	permuteKernel = intListView((*tensor.Tensor).Permute)
	expandKernel  = intListView((*tensor.Tensor).Expand)
)

// intListView makes a view kernel taking (self, int[] arg): view,
// permute, expand.
func intListView(f func(h, x *tensor.Tensor, ints []int) (*tensor.Tensor, error)) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x := arg.Tensor()
		var buf [8]int
		ints := arg.Ints(buf[:0])
		if err := arg.Err(); err != nil {
			return err
		}
		return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return f(h, x, ints) })
	}
}

// reshapeKernel views when strides allow and copies otherwise.
func reshapeKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	var buf [8]int
	size := arg.Ints(buf[:0])
	if err := arg.Err(); err != nil {
		return err
	}
	h := ctx.header()
	if r, err := h.View(x, size); err == nil {
		out[0] = value.FromTensor(r)
		return nil
	}
	ctx.Pool.Release(h)
	c, err := ctx.empty(x.DType(), x.Sizes())
	if err != nil {
		return err
	}
	if err := tensor.Copy(c, x); err != nil {
		return err
	}
	err = viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.View(c, size) })
	ctx.Pool.Release(c) // the view holds the storage now
	return err
}

func expandAsKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, o := arg.Tensor(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Expand(x, o.Sizes()) })
}

func aliasKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Alias(x), nil })
}

func unsqueezeKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, d := arg.Tensor(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Unsqueeze(x, d) })
}

func squeezeKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	var buf [8]int
	var dims []int
	withDims := arg.More() // squeeze.default has no dim
	if withDims {
		dims = arg.Ints(buf[:0])
	}
	if err := arg.Err(); err != nil {
		return err
	}
	if withDims {
		if dims == nil { // squeeze.dims with an empty list squeezes nothing
			dims = buf[:0]
		}
		if len(dims) == 0 {
			return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Alias(x), nil })
		}
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Squeeze(x, dims) })
}

func sliceKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, dim, start, end, step := arg.Tensor(), arg.Int(), arg.IndexInt(0), arg.IndexInt(1<<50), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Slice(x, dim, start, end, step) })
}

func selectKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, dim, idx := arg.Tensor(), arg.Int(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Select(x, dim, idx) })
}

func transposeKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, d0, d1 := arg.Tensor(), arg.Int(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Transpose(x, d0, d1) })
}

func tKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if x.Dim() > 2 {
		return errorf("t() expects a tensor with <= 2 dimensions, but self is %dD", x.Dim())
	}
	if x.Dim() < 2 {
		return aliasKernel(ctx, args, out)
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Transpose(x, 0, 1) })
}

func asStridedKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	var b1, b2 [8]int
	size, stride := arg.Ints(b1[:0]), arg.Ints(b2[:0])
	if err := arg.Err(); err != nil {
		return err
	}
	off := arg.OptInt(x.Offset())
	if err := arg.Err(); err != nil {
		return err
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.AsStrided(x, size, stride, off) })
}

func narrowKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, dim, start, length := arg.Tensor(), arg.Int(), arg.Int(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.Narrow(x, dim, start, length) })
}

func diagonalKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, off, d1, d2 := arg.Tensor(), arg.Int(), arg.Int(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	var err error
	if d1, err = wrapDim(d1, x.Dim()); err != nil {
		return err
	}
	if d2, err = wrapDim(d2, x.Dim()); err != nil {
		return err
	}
	if d1 == d2 {
		return errorf("diagonal dimensions cannot be identical %d, %d", d1, d2)
	}
	st, sz := x.Strides(), x.Sizes()
	start := x.Offset()
	var n int
	if off >= 0 {
		n = max(min(sz[d1], sz[d2]-off), 0)
		start += off * st[d2]
	} else {
		n = max(min(sz[d1]+off, sz[d2]), 0)
		start -= off * st[d1]
	}
	if n == 0 {
		start = x.Offset()
	}
	var sb, tb [8]int
	sizes, strides := sb[:0], tb[:0]
	for i := range sz {
		if i != d1 && i != d2 {
			sizes = append(sizes, sz[i])
			strides = append(strides, st[i])
		}
	}
	sizes = append(sizes, n)
	strides = append(strides, st[d1]+st[d2])
	return viewResult(ctx, out, func(h *tensor.Tensor) (*tensor.Tensor, error) { return h.AsStrided(x, sizes, strides, start) })
}

// splitInto slices x along dim into pieces of the given sizes.
func splitInto(ctx *Context, x *tensor.Tensor, sizes []int, dim int, out []value.Value) error {
	d, err := wrapDim(dim, x.Dim())
	if err != nil {
		return err
	}
	if x.Dim() == 0 {
		return errorf("split expects at least a 1-dimensional tensor")
	}
	total := 0
	for _, s := range sizes {
		if s < 0 {
			return errorf("split_with_sizes expects split_sizes to be non-negative, but got %v", append([]int(nil), sizes...))
		}
		total += s
	}
	if total != x.Size(d) {
		return errorf("split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size at dimension %d), but got split_sizes=%v", x.Size(d), d, append([]int(nil), sizes...))
	}
	list := tensorList(out[0], len(sizes))
	start := 0
	for i, s := range sizes {
		h := ctx.header()
		if _, err := h.Slice(x, d, start, start+s, 1); err != nil {
			return err
		}
		list[i] = h
		start += s
	}
	out[0] = value.FromTensors(list)
	return nil
}

func splitWithSizes(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x := arg.Tensor()
	var buf [8]int
	sizes, dim := arg.Ints(buf[:0]), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	return splitInto(ctx, x, sizes, dim, out)
}

func splitTensor(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, size, dim := arg.Tensor(), arg.Int(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	d, err := wrapDim(dim, x.Dim())
	if err != nil {
		return err
	}
	n := x.Size(d)
	if size <= 0 && n > 0 {
		return errorf("split_size can only be 0 if dimension size is 0, but got dimension size of %d", n)
	}
	var sizes []int
	for start := 0; start < n || (n == 0 && len(sizes) == 0); start += max(size, 1) {
		sizes = append(sizes, min(size, n-start))
	}
	return splitInto(ctx, x, sizes, d, out)
}

func chunkKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, chunks, dim := arg.Tensor(), arg.Int(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	if chunks <= 0 {
		return errorf("chunk expects `chunks` to be greater than 0, got: %d", chunks)
	}
	d, err := wrapDim(dim, x.Dim())
	if err != nil {
		return err
	}
	n := x.Size(d)
	size := (n + chunks - 1) / chunks
	var sizes []int
	for start := 0; start < n; start += size {
		sizes = append(sizes, min(size, n-start))
	}
	if n == 0 {
		sizes = []int{0}
	}
	return splitInto(ctx, x, sizes, d, out)
}

func unbindKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, dim := arg.Tensor(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	d, err := wrapDim(dim, x.Dim())
	if err != nil {
		return err
	}
	if x.Dim() == 0 {
		return errorf("dimension specified as 0 but tensor has no dimensions")
	}
	list := tensorList(out[0], x.Size(d))
	for i := range list {
		h := ctx.header()
		if _, err := h.Select(x, d, i); err != nil {
			return err
		}
		list[i] = h
	}
	out[0] = value.FromTensors(list)
	return nil
}

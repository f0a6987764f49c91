package tensor

import (
	"fmt"
	"math"
)

// WrapDim maps a possibly negative dim into [0, ndim) as ATen's
// maybe_wrap_dim does (a 0-d tensor accepts -1 and 0).
func WrapDim(d, ndim int) (int, error) {
	n := max(ndim, 1)
	if d < -n || d >= n {
		return 0, fmt.Errorf("dimension out of range (expected to be in range of [%d, %d], but got %d)", -n, n-1, d)
	}
	if d < 0 {
		d += n
	}
	return d, nil
}

func orNew(z *Tensor) *Tensor {
	if z == nil {
		return new(Tensor)
	}
	return z
}

// setView makes z view x's storage with the given geometry. sizes and
// strides may alias z's own slices.
func (z *Tensor) setView(x *Tensor, sizes, strides []int, offset int) *Tensor {
	z.dtype = x.dtype
	z.setStorage(x.storage)
	z.sizes = append(z.sizes[:0], sizes...)
	z.strides = append(z.strides[:0], strides...)
	z.offset = offset
	return z
}

// AsStrided makes z a view of x's storage with explicit geometry, checked
// against the storage's bounds (aten.as_strided).
func (z *Tensor) AsStrided(x *Tensor, sizes, strides []int, offset int) (*Tensor, error) {
	if len(sizes) != len(strides) {
		return nil, fmt.Errorf("mismatch in length of strides and shape (%d vs %d)", len(strides), len(sizes))
	}
	if _, err := checkShape(x.dtype, sizes); err != nil {
		return nil, err
	}
	if err := checkBounds(x.dtype, sizes, strides, offset, x.storage.Len()); err != nil {
		return nil, err
	}
	return orNew(z).setView(x, sizes, strides, offset), nil
}

// Alias makes z a view of x with the same geometry (aten.alias).
func (z *Tensor) Alias(x *Tensor) *Tensor {
	if z == x {
		return z
	}
	return orNew(z).setView(x, x.sizes, x.strides, x.offset)
}

// Permute reorders x's dims (aten.permute).
func (z *Tensor) Permute(x *Tensor, dims []int) (*Tensor, error) {
	nd := x.Dim()
	if len(dims) != nd {
		return nil, fmt.Errorf("number of dims don't match in permute: input has %d, dims has %d", nd, len(dims))
	}
	var sb, tb, seenb [8]int
	sizes, strides, seen := sb[:0], tb[:0], seenb[:0]
	for range nd {
		seen = append(seen, 0)
	}
	for _, d := range dims {
		w, err := WrapDim(d, nd)
		if err != nil {
			return nil, err
		}
		if seen[w] != 0 {
			return nil, fmt.Errorf("repeated dim %d in permute %s", w, shapeString(dims))
		}
		seen[w] = 1
		sizes = append(sizes, x.sizes[w])
		strides = append(strides, x.strides[w])
	}
	return orNew(z).setView(x, sizes, strides, x.offset), nil
}

// Transpose swaps two dims (aten.transpose.int).
func (z *Tensor) Transpose(x *Tensor, d0, d1 int) (*Tensor, error) {
	nd := x.Dim()
	a, err := WrapDim(d0, nd)
	if err != nil {
		return nil, err
	}
	b, err := WrapDim(d1, nd)
	if err != nil {
		return nil, err
	}
	var sb, tb [8]int
	sizes := append(sb[:0], x.sizes...)
	strides := append(tb[:0], x.strides...)
	if nd > 0 {
		sizes[a], sizes[b] = sizes[b], sizes[a]
		strides[a], strides[b] = strides[b], strides[a]
	}
	return orNew(z).setView(x, sizes, strides, x.offset), nil
}

// Expand broadcasts size-1 dims to sizes and prepends new leading dims,
// with stride 0 (aten.expand; -1 keeps a dim).
func (z *Tensor) Expand(x *Tensor, sizes []int) (*Tensor, error) {
	var sb, tb [8]int
	es, et := sb[:0], tb[:0]
	for range sizes {
		es = append(es, 0)
	}
	et, err := expandGeometry(es, et, x, sizes)
	if err != nil {
		return nil, err
	}
	es = es[:len(sizes)]
	if _, err := checkShape(x.dtype, es); err != nil {
		return nil, err
	}
	return orNew(z).setView(x, es, et, x.offset), nil
}

// expandGeometry is ATen's inferExpandGeometry: it fills es (the sizes,
// which must have len(sizes) elements) and returns the strides, appended
// to et.
func expandGeometry(es, et []int, x *Tensor, sizes []int) ([]int, error) {
	nd, xd := len(sizes), x.Dim()
	if nd < xd {
		return nil, fmt.Errorf("the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", nd, xd)
	}
	es = es[:cap(es)]
	if len(es) < nd {
		es = make([]int, nd)
	}
	et = et[:0]
	for range nd {
		et = append(et, 0)
	}
	for i := nd - 1; i >= 0; i-- {
		dim := xd - (nd - i)
		size, stride := 1, 1
		if dim >= 0 {
			size, stride = x.sizes[dim], x.strides[dim]
		} else if i+1 < nd {
			stride = es[i+1] * et[i+1]
		}
		target := sizes[i]
		if target == -1 {
			if dim < 0 {
				return nil, fmt.Errorf("the expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension %d", i)
			}
			target = size
		}
		if target < 0 {
			return nil, fmt.Errorf("invalid expanded size %d at dimension %d", target, i)
		}
		if size != target {
			if size != 1 {
				return nil, fmt.Errorf("the expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d; target sizes %s, tensor sizes %s", target, size, i, shapeString(sizes), shapeString(x.sizes))
			}
			size, stride = target, 0
		}
		es[i], et[i] = size, stride
	}
	return et, nil
}

// InferSize resolves a single -1 in sizes against numel, as ATen's
// infer_size does, writing the result into out (which may alias sizes).
func InferSize(out, sizes []int, numel int) ([]int, error) {
	out = append(out[:0], sizes...)
	infer := -1
	prod := 1
	for i, s := range out {
		switch {
		case s == -1:
			if infer >= 0 {
				return nil, fmt.Errorf("only one dimension can be inferred")
			}
			infer = i
		case s < 0:
			return nil, fmt.Errorf("invalid shape dimension %d", s)
		default:
			if s != 0 && prod > math.MaxInt/s {
				return nil, fmt.Errorf("shape %s is too large", shapeString(sizes))
			}
			prod *= s
		}
	}
	if infer >= 0 {
		if prod == 0 {
			return nil, fmt.Errorf("cannot reshape tensor of 0 elements into shape %s because the unspecified dimension size -1 can be any value and is ambiguous", shapeString(sizes))
		}
		if numel%prod != 0 {
			return nil, fmt.Errorf("shape '%s' is invalid for input of size %d", shapeString(sizes), numel)
		}
		out[infer] = numel / prod
		return out, nil
	}
	if prod != numel {
		return nil, fmt.Errorf("shape '%s' is invalid for input of size %d", shapeString(sizes), numel)
	}
	return out, nil
}

// ComputeStride is ATen's computeStride: the strides that let a tensor of
// oldSizes/oldStrides be viewed as newSizes without copying, written into
// out; ok is false when no such view exists.
func ComputeStride(out, oldSizes, oldStrides, newSizes []int) ([]int, bool) {
	out = out[:0]
	for range newSizes {
		out = append(out, 0)
	}
	if len(oldSizes) == 0 {
		for i := range out {
			out[i] = 1
		}
		return out, true
	}
	numel := Numel(oldSizes)
	if numel == 0 && EqualInts(oldSizes, newSizes) {
		return append(out[:0], oldStrides...), true
	}
	if numel == 0 {
		for d := len(newSizes) - 1; d >= 0; d-- {
			if d == len(newSizes)-1 {
				out[d] = 1
			} else {
				out[d] = max(newSizes[d+1], 1) * out[d+1]
			}
		}
		return out, true
	}
	viewD := len(newSizes) - 1
	chunkBaseStride := oldStrides[len(oldStrides)-1]
	tensorNumel, viewNumel := 1, 1
	for tensorD := len(oldSizes) - 1; tensorD >= 0; tensorD-- {
		tensorNumel *= oldSizes[tensorD]
		if tensorD == 0 || (oldSizes[tensorD-1] != 1 && oldStrides[tensorD-1] != tensorNumel*chunkBaseStride) {
			for viewD >= 0 && (viewNumel < tensorNumel || newSizes[viewD] == 1) {
				out[viewD] = viewNumel * chunkBaseStride
				viewNumel *= newSizes[viewD]
				viewD--
			}
			if viewNumel != tensorNumel {
				return nil, false
			}
			if tensorD > 0 {
				chunkBaseStride = oldStrides[tensorD-1]
				tensorNumel, viewNumel = 1, 1
			}
		}
	}
	if viewD != -1 {
		return nil, false
	}
	return out, true
}

// View reshapes x without copying (aten.view); one size may be -1. It fails
// when the strides do not allow it, as ATen does.
func (z *Tensor) View(x *Tensor, sizes []int) (*Tensor, error) {
	var sb, tb [8]int
	shape, err := InferSize(sb[:0], sizes, x.Numel())
	if err != nil {
		return nil, err
	}
	strides, ok := ComputeStride(tb[:0], x.sizes, x.strides, shape)
	if !ok {
		return nil, fmt.Errorf("view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces); use reshape instead")
	}
	return orNew(z).setView(x, shape, strides, x.offset), nil
}

// Reshape is View when the strides allow it and a contiguous copy otherwise
// (aten.reshape).
func (z *Tensor) Reshape(x *Tensor, sizes []int) (*Tensor, error) {
	if v, err := z.View(x, sizes); err == nil {
		return v, nil
	}
	var sb [8]int
	shape, err := InferSize(sb[:0], sizes, x.Numel())
	if err != nil {
		return nil, err
	}
	c, err := Contiguous(x)
	if err != nil {
		return nil, err
	}
	return orNew(z).setView(c, shape, ContiguousStrides(shape), c.offset), nil
}

// Unsqueeze inserts a size-1 dim at d (aten.unsqueeze; d in [-dim-1, dim]).
func (z *Tensor) Unsqueeze(x *Tensor, d int) (*Tensor, error) {
	nd := x.Dim()
	w, err := WrapDim(d, nd+1)
	if err != nil {
		return nil, err
	}
	stride := 1
	if w < nd {
		stride = x.sizes[w] * x.strides[w]
	}
	var sb, tb [8]int
	sizes := append(append(append(sb[:0], x.sizes[:w]...), 1), x.sizes[w:]...)
	strides := append(append(append(tb[:0], x.strides[:w]...), stride), x.strides[w:]...)
	return orNew(z).setView(x, sizes, strides, x.offset), nil
}

// Squeeze removes the listed dims that have size 1 (aten.squeeze.dims); with
// no dims it removes every size-1 dim (aten.squeeze.default).
func (z *Tensor) Squeeze(x *Tensor, dims []int) (*Tensor, error) {
	nd := x.Dim()
	var mb [8]bool
	mask := mb[:0]
	for range nd {
		mask = append(mask, len(dims) == 0)
	}
	for _, d := range dims {
		w, err := WrapDim(d, nd)
		if err != nil {
			return nil, err
		}
		if nd > 0 {
			mask[w] = true
		}
	}
	var sb, tb [8]int
	sizes, strides := sb[:0], tb[:0]
	for i := range nd {
		if mask[i] && x.sizes[i] == 1 {
			continue
		}
		sizes = append(sizes, x.sizes[i])
		strides = append(strides, x.strides[i])
	}
	return orNew(z).setView(x, sizes, strides, x.offset), nil
}

// Select picks index along dim and drops the dim (aten.select.int).
func (z *Tensor) Select(x *Tensor, dim, index int) (*Tensor, error) {
	nd := x.Dim()
	if nd == 0 {
		return nil, fmt.Errorf("select() cannot be applied to a 0-dim tensor")
	}
	d, err := WrapDim(dim, nd)
	if err != nil {
		return nil, err
	}
	size := x.sizes[d]
	if index < -size || index >= size {
		return nil, fmt.Errorf("select(): index %d out of range for tensor of size %s at dimension %d", index, shapeString(x.sizes), d)
	}
	if index < 0 {
		index += size
	}
	off := x.offset + index*x.strides[d]
	var sb, tb [8]int
	sizes := append(append(sb[:0], x.sizes[:d]...), x.sizes[d+1:]...)
	strides := append(append(tb[:0], x.strides[:d]...), x.strides[d+1:]...)
	return orNew(z).setView(x, sizes, strides, off), nil
}

// Slice takes start:end:step along dim with Python's clamping
// (aten.slice.Tensor); step must be positive.
func (z *Tensor) Slice(x *Tensor, dim, start, end, step int) (*Tensor, error) {
	nd := x.Dim()
	if nd == 0 {
		return nil, fmt.Errorf("slice() cannot be applied to a 0-dim tensor")
	}
	d, err := WrapDim(dim, nd)
	if err != nil {
		return nil, err
	}
	if step <= 0 {
		return nil, fmt.Errorf("slice step must be positive, got %d", step)
	}
	size := x.sizes[d]
	start, end = ClampSlice(start, end, size)
	var sb, tb [8]int
	sizes := append(sb[:0], x.sizes...)
	strides := append(tb[:0], x.strides...)
	sizes[d] = (end - start + step - 1) / step
	strides[d] *= step
	return orNew(z).setView(x, sizes, strides, x.offset+start*x.strides[d]), nil
}

// ClampSlice applies Python slice clamping to start and end for a dim of size.
func ClampSlice(start, end, size int) (int, int) {
	if start < 0 {
		start += size
	}
	if end < 0 {
		end += size
	}
	start = min(max(start, 0), size)
	end = min(max(end, start), size)
	return start, end
}

// Narrow is Slice(dim, start, start+length, 1) with bounds checks (aten.narrow).
func (z *Tensor) Narrow(x *Tensor, dim, start, length int) (*Tensor, error) {
	d, err := WrapDim(dim, x.Dim())
	if err != nil || x.Dim() == 0 {
		return nil, fmt.Errorf("narrow() cannot be applied to a 0-dim tensor")
	}
	size := x.sizes[d]
	if start < 0 {
		start += size
	}
	if start < 0 || length < 0 || start+length > size {
		return nil, fmt.Errorf("start (%d) + length (%d) exceeds dimension size (%d)", start, length, size)
	}
	return z.Slice(x, d, start, start+length, 1)
}

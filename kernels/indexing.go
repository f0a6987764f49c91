package kernels

import (
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func init() {
	register(embeddingKernel, "aten.embedding.default")
	register(indexKernel, "aten.index.Tensor", "aten._unsafe_index.Tensor")
	register(indexPutKernel, "aten.index_put.default")
	register(gatherKernel, "aten.gather.default")
	register(indexSelectKernel, "aten.index_select.default")
	register(scatterKernel(false, false), "aten.scatter.src")
	register(scatterKernel(true, false), "aten.scatter.value")
	register(scatterKernel(false, true), "aten.scatter_add.default")
	register(sliceScatterKernel, "aten.slice_scatter.default")
	register(selectScatterKernel, "aten.select_scatter.default")
}

// elemBytes copies element srcOff of src's storage to element dstOff of
// dst's storage (same dtype): a dtype-agnostic move for gathers.
func elemBytes(dst []byte, dstOff int, src []byte, srcOff, size int) {
	copy(dst[dstOff*size:dstOff*size+size], src[srcOff*size:srcOff*size+size])
}

// intIndices reads an integer index tensor as positions in [0, size), as
// gather, scatter and index_select take them (negative ones are out of
// bounds there; only advanced indexing wraps them).
func intIndices(idx *tensor.Tensor, size int, what string) ([]int, error) {
	return readIndices(make([]int, idx.Numel()), idx, size, what)
}

// readIndices is intIndices into buf (len idx.Numel()).
func readIndices(buf []int, idx *tensor.Tensor, size int, what string) ([]int, error) {
	if !idx.DType().IsInt() || idx.DType() == tensor.Bool {
		return nil, errorf("%s must be an integer tensor, not %s", what, idx.Type())
	}
	clear(buf)
	var err error
	switch idx.DType() {
	case tensor.Int64:
		err = addOffsetsOf(buf, tensor.Data[int64](idx), idx, size, 1, false)
	case tensor.Int32:
		err = addOffsetsOf(buf, tensor.Data[int32](idx), idx, size, 1, false)
	case tensor.Int16:
		err = addOffsetsOf(buf, tensor.Data[int16](idx), idx, size, 1, false)
	case tensor.Int8:
		err = addOffsetsOf(buf, tensor.Data[int8](idx), idx, size, 1, false)
	default:
		vals := idx.Int64s()
		for i, v := range vals {
			if v < 0 || v >= int64(size) {
				return nil, errorf("index %d is out of bounds for dimension with size %d", v, size)
			}
			buf[i] = int(v)
		}
	}
	if err != nil {
		return nil, err
	}
	return buf, nil
}

func embeddingKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	w, idx := arg.Tensor(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if w.Dim() != 2 {
		return errorf("'weight' must be 2-D, got %s", w.Type())
	}
	if idx.DType() != tensor.Int64 && idx.DType() != tensor.Int32 {
		return errorf("expected indices to be Long or Int, got %s", idx.Type())
	}
	rows, d := w.Size(0), w.Size(1)
	if d == 0 || idx.Numel() == 0 {
		for _, v := range idx.Int64s() {
			if v < 0 || v >= int64(rows) {
				return errorf("index out of range in self: index %d for weight %s", v, w.Type())
			}
		}
		var sb [8]int
		res, err := ctx.empty(w.DType(), append(append(sb[:0], idx.Sizes()...), d))
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(res)
		return nil
	}
	var sb [8]int
	shape := append(append(sb[:0], idx.Sizes()...), d)
	res, err := ctx.empty(w.DType(), shape)
	if err != nil {
		return err
	}
	size := w.DType().Size()
	dst, src := res.Storage().Bytes(), w.Storage().Bytes()
	rowContig := w.Strides()[1] == 1 || d <= 1
	var iw tensor.Walk
	iw.Init(idx.Sizes())
	iw.Add(idx.Strides(), idx.Offset())
	iw.Coalesce()
	i64, i32 := tensor.Data[int64](idx), tensor.Data[int32](idx)
	n := 0
	for iw.Next() {
		for k := 0; k < iw.Len; k++ {
			var v int64
			if i64 != nil {
				v = i64[iw.Off[0]+k*iw.Step[0]-idx.Offset()]
			} else {
				v = int64(i32[iw.Off[0]+k*iw.Step[0]-idx.Offset()])
			}
			if v < 0 || v >= int64(rows) {
				ctx.Pool.Release(res)
				return errorf("index out of range in self: index %d for weight %s", v, w.Type())
			}
			base := w.Offset() + int(v)*w.Strides()[0]
			if rowContig {
				copy(dst[n*d*size:(n+1)*d*size], src[base*size:(base+d)*size])
			} else {
				for j := 0; j < d; j++ {
					elemBytes(dst, n*d+j, src, base+j*w.Strides()[1], size)
				}
			}
			n++
		}
	}
	out[0] = value.FromTensor(res)
	return nil
}

// advanced describes aten.index's result: its shape (appended to
// shapeBuf[:0]) and, for every result element in order, the storage
// offset in self it reads. The offsets live in ctx's scratch space, valid
// until the kernel returns.
func advanced(ctx *Context, self *tensor.Tensor, indices []*tensor.Tensor, shapeBuf []int) ([]int, []int, error) {
	// Bool masks become one long index per masked dim (nonzero).
	var ib [8]*tensor.Tensor
	idx := ib[:0]
	for _, t := range indices {
		if t != nil && (t.DType() == tensor.Bool || t.DType() == tensor.Uint8) {
			nz := nonzeroCols(t)
			idx = append(idx, nz...)
			continue
		}
		idx = append(idx, t)
	}
	nd := self.Dim()
	if len(idx) > nd {
		return nil, nil, errorf("too many indices for tensor of dimension %d (got %d)", nd, len(idx))
	}
	var b0, b1 [8]int
	bshape, spare := b0[:0], b1[:0]
	first, last, count := -1, -1, 0
	for d, t := range idx {
		if t == nil {
			continue
		}
		if t.DType().IsFloat() {
			return nil, nil, errorf("tensors used as indices must be long, int, byte or bool tensors, got %s", t.Type())
		}
		if t.Dim() > 0 && self.Size(d) == 0 && t.Numel() > 0 {
			return nil, nil, errorf("index is out of bounds for dimension %d with size 0", d)
		}
		next, err := broadcastShapes(spare, bshape, t.Sizes())
		if err != nil {
			return nil, nil, errorf("shape mismatch: indexing tensors could not be broadcast together: %v", err)
		}
		bshape, spare = next, bshape[:0]
		if first < 0 {
			first = d
		}
		last = d
		count++
	}
	if count == 0 {
		buf := ctx.scratchInts(self.Numel())
		return append(shapeBuf[:0], self.Sizes()...), fillOffsets(buf, self.Sizes(), self.Strides(), self.Offset()), nil
	}
	adjacent := last-first+1 == count
	// The remaining dims, split around the indexed block when adjacent.
	var bs, bt, as, at [8]int
	beforeS, beforeT, afterS, afterT := bs[:0], bt[:0], as[:0], at[:0]
	for d := 0; d < nd; d++ {
		if d < len(idx) && idx[d] != nil {
			continue
		}
		if adjacent && d < first {
			beforeS, beforeT = append(beforeS, self.Size(d)), append(beforeT, self.Strides()[d])
		} else {
			afterS, afterT = append(afterS, self.Size(d)), append(afterT, self.Strides()[d])
		}
	}
	nb, nBefore, nAfter := tensor.Numel(bshape), tensor.Numel(beforeS), tensor.Numel(afterS)
	buf := ctx.scratchInts(nb + nBefore + nAfter + nBefore*nb*nAfter)
	// Offsets contributed by the indexed dims, per broadcast position.
	boff := buf[:nb]
	clear(boff)
	for d, t := range idx {
		if t == nil {
			continue
		}
		h := ctx.header()
		e, err := h.Expand(t, bshape)
		if err == nil {
			err = addIndexOffsets(boff, e, self.Size(d), self.Strides()[d])
		}
		ctx.Pool.Release(h)
		if err != nil {
			return nil, nil, err
		}
	}
	before := fillOffsets(buf[nb:nb+nBefore], beforeS, beforeT, 0)
	after := fillOffsets(buf[nb+nBefore:nb+nBefore+nAfter], afterS, afterT, 0)
	offs := buf[nb+nBefore+nAfter:][:0]
	for _, ob := range before {
		for _, o := range boff {
			for _, oa := range after {
				offs = append(offs, self.Offset()+ob+o+oa)
			}
		}
	}
	shape := append(append(append(shapeBuf[:0], beforeS...), bshape...), afterS...)
	return shape, offs, nil
}

// addIndexOffsets adds, for each element of the integer tensor idx in
// row-major order, its value (wrapped once if negative, checked against
// size) times stride to boff.
func addIndexOffsets(boff []int, idx *tensor.Tensor, size, stride int) error {
	switch idx.DType() {
	case tensor.Int64:
		return addOffsetsOf(boff, tensor.Data[int64](idx), idx, size, stride, true)
	case tensor.Int32:
		return addOffsetsOf(boff, tensor.Data[int32](idx), idx, size, stride, true)
	case tensor.Int16:
		return addOffsetsOf(boff, tensor.Data[int16](idx), idx, size, stride, true)
	case tensor.Int8:
		return addOffsetsOf(boff, tensor.Data[int8](idx), idx, size, stride, true)
	}
	return errorf("index must be an integer tensor, not %s", idx.Type())
}

// addOffsetsOf adds index*stride for each index to boff; wrap admits
// negative indices counted from the end.
func addOffsetsOf[T int64 | int32 | int16 | int8](boff []int, data []T, idx *tensor.Tensor, size, stride int, wrap bool) error {
	lo := int64(0)
	if wrap {
		lo = -int64(size)
	}
	var w tensor.Walk
	w.Init(idx.Sizes())
	w.Add(idx.Strides(), idx.Offset())
	i := 0
	for w.Next() {
		for k := 0; k < w.Len; k++ {
			v := int64(data[w.Off[0]+k*w.Step[0]])
			if v < lo || v >= int64(size) {
				return errorf("index %d is out of bounds for dimension with size %d", v, size)
			}
			if v < 0 {
				v += int64(size)
			}
			boff[i] += int(v) * stride
			i++
		}
	}
	return w.Err()
}

// fillOffsets writes the storage offsets of a strided layout, in
// row-major order, into buf and returns them.
func fillOffsets(buf []int, sizes, strides []int, offset int) []int {
	out := buf[:0]
	var w tensor.Walk
	w.Init(sizes)
	w.Add(strides, offset)
	for w.Next() {
		for k := 0; k < w.Len; k++ {
			out = append(out, w.Off[0]+k*w.Step[0])
		}
	}
	return out
}

// nonzeroCols turns a mask into one int64 index tensor per dim.
func nonzeroCols(mask *tensor.Tensor) []*tensor.Tensor {
	vals := mask.Int64s()
	nd := mask.Dim()
	cols := make([][]int64, nd)
	idx := make([]int, nd)
	for _, v := range vals {
		if v != 0 {
			for d := range idx {
				cols[d] = append(cols[d], int64(idx[d]))
			}
		}
		for d := nd - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < mask.Size(d) {
				break
			}
			idx[d] = 0
		}
	}
	out := make([]*tensor.Tensor, nd)
	for d := range out {
		out[d], _ = tensor.FromSlice(append([]int64{}, cols[d]...), len(cols[d]))
	}
	return out
}

func indexKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	self, indices := arg.Tensor(), arg.Tensors()
	if err := arg.Err(); err != nil {
		return err
	}
	var sb [8]int
	shape, offs, err := advanced(ctx, self, indices, sb[:0])
	if err != nil {
		return err
	}
	res, err := ctx.empty(self.DType(), shape)
	if err != nil {
		return err
	}
	size := self.DType().Size()
	dst, src := res.Storage().Bytes(), self.Storage().Bytes()
	for i, o := range offs {
		elemBytes(dst, i, src, o, size)
	}
	out[0] = value.FromTensor(res)
	return nil
}

func indexPutKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	self, indices, vals, acc := arg.Tensor(), arg.Tensors(), arg.Tensor(), arg.Bool()
	if err := arg.Err(); err != nil {
		return err
	}
	res, err := copyOf(ctx, self, self.DType())
	if err != nil {
		return err
	}
	var sb [8]int
	shape, offs, err := advanced(ctx, res, indices, sb[:0])
	if err != nil {
		return err
	}
	src, err := ctx.empty(self.DType(), shape)
	if err != nil {
		return err
	}
	defer ctx.Pool.Release(src)
	if err := tensor.Copy(src, vals); err != nil {
		return errorf("shape mismatch: value tensor of shape %v cannot be broadcast to indexing result of shape %v", vals.Sizes(), append([]int(nil), shape...))
	}
	flat, _ := new(tensor.Tensor).AsStrided(res, []int{res.Storage().Len() / res.DType().Size()}, []int{1}, 0)
	if self.DType().IsFloat() {
		sv := src.Float64s()
		for i, o := range offs {
			v := sv[i]
			if acc {
				v += flat.Float(o)
			}
			flat.SetFloat(v, o)
		}
	} else {
		// Integers exactly, through int64 (wrapping as C++ does).
		iv := src.Int64s()
		for i, o := range offs {
			v := iv[i]
			if acc {
				v += flat.Int(o)
			}
			one, _ := tensor.FromSlice([]int64{v})
			dst, _ := new(tensor.Tensor).AsStrided(res, nil, nil, o)
			_ = tensor.Copy(dst, one)
		}
	}
	out[0] = value.FromTensor(res)
	return nil
}

// alongDim iterates over every element of shape, giving its multi-index.
func alongDim(shape, idx []int, fn func(idx []int) error) error {
	idx = idx[:len(shape)]
	clear(idx)
	n := tensor.Numel(shape)
	for i := 0; i < n; i++ {
		if err := fn(idx); err != nil {
			return err
		}
		for d := len(shape) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}

func elemOffset(t *tensor.Tensor, idx []int) int {
	off := t.Offset()
	for d, i := range idx {
		off += i * t.Strides()[d]
	}
	return off
}

func gatherKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	self, dim, index := arg.Tensor(), arg.Int(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	d, err := wrapDim(dim, self.Dim())
	if err != nil {
		return err
	}
	if (self.Dim() == 0 || index.Dim() == 0) && self.Dim() <= 1 && index.Dim() <= 1 {
		// 0-d operands gather like 1-element vectors.
		s1, _ := new(tensor.Tensor).Reshape(self, []int{-1})
		i1, _ := new(tensor.Tensor).Reshape(index, []int{-1})
		if err := gatherKernel(ctx, []value.Value{value.FromTensor(s1), value.FromInt(0), value.FromTensor(i1), args[3]}, out); err != nil {
			return err
		}
		r := out[0].Tensor()
		h := ctx.header()
		if _, err := h.View(r, index.Sizes()); err != nil {
			return err
		}
		ctx.Pool.Release(r)
		out[0] = value.FromTensor(h)
		return nil
	}
	if index.Dim() != self.Dim() && !(index.Dim() <= 1 && self.Dim() <= 1) {
		return errorf("index tensor must have the same number of dimensions as input tensor: index %s, input %s", index.Type(), self.Type())
	}
	for i := 0; i < index.Dim(); i++ {
		if i != d && index.Size(i) > self.Size(i) {
			return errorf("size of index %s exceeds input %s at dimension %d", index.Type(), self.Type(), i)
		}
	}
	buf := ctx.scratchInts(index.Numel() + index.Dim())
	ids, err := readIndices(buf[:index.Numel()], index, self.Size(d), "index")
	if err != nil {
		return err
	}
	res, err := ctx.empty(self.DType(), index.Sizes())
	if err != nil {
		return err
	}
	size := self.DType().Size()
	dst, src := res.Storage().Bytes(), self.Storage().Bytes()
	n := 0
	err = alongDim(index.Sizes(), buf[index.Numel():], func(idx []int) error {
		saved := -1
		if len(idx) > 0 {
			saved = idx[d]
			idx[d] = ids[n]
		}
		elemBytes(dst, n, src, elemOffset(self, idx), size)
		if saved >= 0 {
			idx[d] = saved
		}
		n++
		return nil
	})
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(res)
	return nil
}

func indexSelectKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	self, dim, index := arg.Tensor(), arg.Int(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if index.Dim() > 1 {
		return errorf("index_select(): index should be a vector, got %s", index.Type())
	}
	d, err := wrapDim(dim, self.Dim())
	if err != nil {
		return err
	}
	if self.Dim() == 0 {
		return cloneKernel(ctx, args, out)
	}
	ids, err := intIndices(index, self.Size(d), "index")
	if err != nil {
		return err
	}
	shape := append([]int{}, self.Sizes()...)
	shape[d] = len(ids)
	res, err := ctx.empty(self.DType(), shape)
	if err != nil {
		return err
	}
	for i, id := range ids {
		from, _ := new(tensor.Tensor).Select(self, d, id)
		to, _ := new(tensor.Tensor).Select(res, d, i)
		if err := tensor.Copy(to, from); err != nil {
			return err
		}
	}
	out[0] = value.FromTensor(res)
	return nil
}

// scatterKernel is scatter.src, scatter.value (useValue) and scatter_add.
func scatterKernel(useValue, add bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		self, dim, index := arg.Tensor(), arg.Int(), arg.Tensor()
		var v value.Value
		var src *tensor.Tensor
		if useValue {
			v = arg.Scalar()
		} else {
			src = arg.Tensor()
		}
		if err := arg.Err(); err != nil {
			return err
		}
		d, err := wrapDim(dim, self.Dim())
		if err != nil {
			return err
		}
		if self.Dim() == 0 || index.Dim() == 0 {
			return errorf("scatter of 0-dimensional tensors is not supported: self %s, index %s", self.Type(), index.Type())
		}
		if useValue {
			if err := checkFits(v, self.DType()); err != nil {
				return err
			}
			if src, err = ctx.temp(self.DType(), index.Sizes()); err != nil {
				return err
			}
			defer ctx.releaseTemps()
			fillScalar(src, v)
		}
		if index.Dim() != self.Dim() || src.Dim() != self.Dim() && !useValue {
			return errorf("index %s, self %s and src %s must have the same number of dimensions", index.Type(), self.Type(), src.Type())
		}
		for i := 0; i < index.Dim(); i++ {
			if index.Size(i) > src.Size(i) || (i != d && index.Size(i) > self.Size(i)) {
				return errorf("index %s is too large for self %s or src %s at dimension %d", index.Type(), self.Type(), src.Type(), i)
			}
		}
		ids, err := intIndices(index, self.Size(d), "index")
		if err != nil {
			return err
		}
		res, err := copyOf(ctx, self, self.DType())
		if err != nil {
			return err
		}
		n := 0
		_ = alongDim(index.Sizes(), make([]int, index.Dim()), func(idx []int) error {
			sv := src.Float(idx...)
			saved := idx[d]
			idx[d] = ids[n]
			if add {
				sv += res.Float(idx...)
			}
			res.SetFloat(sv, idx...)
			idx[d] = saved
			n++
			return nil
		})
		out[0] = value.FromTensor(res)
		return nil
	}
}

func sliceScatterKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	self, src, dim, start := arg.Tensor(), arg.Tensor(), arg.Int(), arg.IndexInt(0)
	end, step := arg.IndexInt(1<<50), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	res, err := copyOf(ctx, self, self.DType())
	if err != nil {
		return err
	}
	v, err := new(tensor.Tensor).Slice(res, dim, start, end, step)
	if err != nil {
		return err
	}
	if !v.SameShape(src) {
		return errorf("expected src to have a size equal to the slice of self: src %s, slice %s", src.Type(), v.Type())
	}
	if err := tensor.Copy(v, src); err != nil {
		return err
	}
	out[0] = value.FromTensor(res)
	return nil
}

func selectScatterKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	self, src, dim, index := arg.Tensor(), arg.Tensor(), arg.Int(), arg.Int()
	if err := arg.Err(); err != nil {
		return err
	}
	res, err := copyOf(ctx, self, self.DType())
	if err != nil {
		return err
	}
	v, err := new(tensor.Tensor).Select(res, dim, index)
	if err != nil {
		return err
	}
	if !v.SameShape(src) {
		return errorf("expected src to have a size equal to the slice of self: src %s, slice %s", src.Type(), v.Type())
	}
	if err := tensor.Copy(v, src); err != nil {
		return err
	}
	out[0] = value.FromTensor(res)
	return nil
}

package kernels

import (
	"math"

	"github.com/seam-rt/seam/kernels/internal/par"
	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func init() {
	register(sumKernel(true), "aten.sum.dim_IntList")
	register(sumKernel(false), "aten.sum.default")
	register(meanKernel(true), "aten.mean.dim")
	register(meanKernel(false), "aten.mean.default")
	register(extremeKernel(true), "aten.amax.default")
	register(extremeKernel(false), "aten.amin.default")
	register(extremeAllKernel(true), "aten.max.default")
	register(extremeAllKernel(false), "aten.min.default")
	register(maxMinDim(true), "aten.max.dim")
	register(maxMinDim(false), "aten.min.dim")
	register(argKernel(true), "aten.argmax.default")
	register(argKernel(false), "aten.argmin.default")
	register(boolReduce(true, true), "aten.any.dim", "aten.any.dims")
	register(boolReduce(true, false), "aten.any.default")
	register(boolReduce(false, true), "aten.all.dim")
	register(boolReduce(false, false), "aten.all.default")
	register(prodKernel(true), "aten.prod.dim_int")
	register(prodKernel(false), "aten.prod.default")
	register(varKernel(false, false), "aten.var.correction")
	register(varKernel(true, false), "aten.std.correction")
	register(varKernel(false, true), "aten.var_mean.correction")
	register(varDimKernel, "aten.var.dim")
	register(logsumexpKernel, "aten.logsumexp.default")
	register(cumKernel(false), "aten.cumsum.default")
	register(cumKernel(true), "aten.cumprod.default")
}

// reduction is the geometry of a reduction: x's elements as a contiguous
// [outer, inner] float64 matrix whose rows are reduced, plus the result
// shape.
type reduction struct {
	outer, inner int
	vals         []float64 // outer*inner values, row by row
	shape        []int     // result shape (keepdim applied)
}

// reduceDims normalises dims (nil or empty: all) into a mask, held in
// ctx's scratch space until the next call.
func reduceDims(ctx *Context, x *tensor.Tensor, dims []int) ([]bool, error) {
	nd := x.Dim()
	if cap(ctx.mask) < max(nd, 1) {
		ctx.mask = make([]bool, max(nd, 1))
	}
	mask := ctx.mask[:max(nd, 1)]
	clear(mask)
	if len(dims) == 0 {
		for i := range mask {
			mask[i] = true
		}
		return mask, nil
	}
	for _, d := range dims {
		w, err := wrapDim(d, nd)
		if err != nil {
			return nil, err
		}
		if mask[w] {
			return nil, errorf("dim %d appears multiple times in the list of dims", w)
		}
		mask[w] = true
	}
	return mask, nil
}

// gather reads x into the [outer, inner] layout for the dims in mask. The
// values and the shape live in ctx's scratch space until the next call.
func gatherReduction(ctx *Context, x *tensor.Tensor, mask []bool, keepdim bool) (reduction, error) {
	nd := x.Dim()
	var r reduction
	var pb [8]int
	perm := pb[:0]
	r.shape = ctx.shape[:0]
	r.outer, r.inner = 1, 1
	for i := 0; i < nd; i++ {
		if !mask[i] {
			perm = append(perm, i)
			r.outer *= x.Size(i)
			r.shape = append(r.shape, x.Size(i))
		} else if keepdim {
			r.shape = append(r.shape, 1)
		}
	}
	for i := 0; i < nd; i++ {
		if mask[i] {
			perm = append(perm, i)
			r.inner *= x.Size(i)
		}
	}
	ctx.shape = r.shape[:0]
	p, err := ctx.header().Permute(x, perm)
	if err != nil {
		return r, err
	}
	r.vals = ctx.scratchF64(r.outer * r.inner)
	readFloats(r.vals, p)
	ctx.Pool.Release(p)
	return r, nil
}

// readFloats copies t's elements in logical order into dst as float64.
func readFloats(dst []float64, t *tensor.Tensor) {
	var w tensor.Walk
	w.Init(t.Sizes())
	w.Add(t.Strides(), 0)
	w.Coalesce()
	i := 0
	switch t.DType() {
	case tensor.Float32:
		d := tensor.Data[float32](t)
		for w.Next() {
			for k := 0; k < w.Len; k++ {
				dst[i] = float64(d[w.Off[0]+k*w.Step[0]])
				i++
			}
		}
	case tensor.Int64:
		d := tensor.Data[int64](t)
		for w.Next() {
			for k := 0; k < w.Len; k++ {
				dst[i] = float64(d[w.Off[0]+k*w.Step[0]])
				i++
			}
		}
	default:
		copy(dst, t.Float64s())
	}
}

// writeFloats stores float64 values into a contiguous tensor.
func writeFloats(t *tensor.Tensor, src []float64) {
	switch t.DType() {
	case tensor.Float32:
		d := tensor.Data[float32](t)[:len(src)]
		for i, v := range src {
			d[i] = float32(v)
		}
	case tensor.Float64:
		copy(tensor.Data[float64](t), src)
	default:
		idx := make([]int, t.Dim())
		for i, v := range src {
			rem := i
			for d := t.Dim() - 1; d >= 0; d-- {
				idx[d] = rem % t.Size(d)
				rem /= t.Size(d)
			}
			t.SetFloat(v, idx...)
		}
	}
}

// reduceArgs reads self, then dim and keepdim where the overload has them
// (withDim; the dims in ctx's buffer until the next call).
func reduceArgs(ctx *Context, arg *argReader, withDim bool) (x *tensor.Tensor, dims []int, keep bool, err error) {
	x = arg.Tensor()
	if withDim {
		dims = arg.Ints(ctx.dims[:0])
		if cap(dims) > cap(ctx.dims) {
			ctx.dims = dims[:0]
		}
		keep = arg.Bool()
	}
	return x, dims, keep, arg.Err()
}

// intReduce sums or multiplies integer tensors exactly in int64.
func intReduce(ctx *Context, x *tensor.Tensor, mask []bool, keep bool, dt tensor.DType, prod bool) (*tensor.Tensor, error) {
	r, err := gatherReduction(ctx, x, mask, keep)
	if err != nil {
		return nil, err
	}
	// Re-gather exactly as integers along the same permutation.
	perm := make([]int, 0, x.Dim())
	for i := 0; i < x.Dim(); i++ {
		if !mask[i] {
			perm = append(perm, i)
		}
	}
	for i := 0; i < x.Dim(); i++ {
		if mask[i] {
			perm = append(perm, i)
		}
	}
	p, _ := new(tensor.Tensor).Permute(x, perm)
	iv := p.Int64s()
	res := make([]int64, r.outer)
	for o := range res {
		acc := int64(0)
		if prod {
			acc = 1
		}
		for _, v := range iv[o*r.inner : (o+1)*r.inner] {
			if prod {
				acc *= v
			} else {
				acc += v
			}
		}
		res[o] = acc
	}
	out, err := ctx.empty(dt, r.shape)
	if err != nil {
		return nil, err
	}
	src, _ := tensor.FromSlice(res, r.shape...)
	return out, tensor.Copy(out, src)
}

// sumKernel and prodKernel are sum and prod: over dims (all of them when
// absent), in the input's float dtype or int64 unless dtype says
// otherwise; integers exactly, floats accumulated in float64.
func sumKernel(withDim bool) Kernel {
	return accumulateKernel(withDim, false)
}

func prodKernel(withDim bool) Kernel {
	return accumulateKernel(withDim, true)
}

func accumulateKernel(withDim, product bool) Kernel {
	// The reducer of a row of floats.
	row := func(vs []float64) float64 {
		s := 0.0
		for _, v := range vs {
			s += v
		}
		return s
	}
	if product {
		row = func(vs []float64) float64 {
			p := 1.0
			for _, v := range vs {
				p *= v
			}
			return p
		}
	}
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x, dims, keep, err := reduceArgs(ctx, &arg, withDim)
		if err != nil {
			return err
		}
		def := x.DType()
		if !def.IsFloat() {
			def = tensor.Int64
		}
		dt := arg.DType(def)
		if err := arg.Err(); err != nil {
			return err
		}
		mask, err := reduceDims(ctx, x, dims)
		if err != nil {
			return err
		}
		var res *tensor.Tensor
		if !dt.IsFloat() {
			res, err = intReduce(ctx, x, mask, keep, dt, product)
		} else {
			res, err = floatReduce(ctx, x, mask, keep, dt, row)
		}
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(res)
		return nil
	}
}

// floatReduce reduces each row with f (accumulating in float64).
func floatReduce(ctx *Context, x *tensor.Tensor, mask []bool, keep bool, dt tensor.DType, f func([]float64) float64) (*tensor.Tensor, error) {
	r, err := gatherReduction(ctx, x, mask, keep)
	if err != nil {
		return nil, err
	}
	// Row o's result goes to vals[o], which no later row reads (row o+1
	// starts at (o+1)*inner > o).
	var res []float64
	if r.inner > 0 {
		res = r.vals[:r.outer]
	} else {
		res = ctx.scratchF64(r.outer)
	}
	for o := range res {
		res[o] = f(r.vals[o*r.inner : (o+1)*r.inner])
	}
	out, err := ctx.empty(dt, r.shape)
	if err != nil {
		return nil, err
	}
	writeFloats(out, res)
	return out, nil
}

func meanKernel(withDim bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x, dims, keep, err := reduceArgs(ctx, &arg, withDim)
		if err != nil {
			return err
		}
		dt := arg.DType(x.DType())
		if err := arg.Err(); err != nil {
			return err
		}
		if !dt.IsFloat() {
			return errorf("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %v", dt)
		}
		mask, err := reduceDims(ctx, x, dims)
		if err != nil {
			return err
		}
		if res, ok, err := meanInnerF32(ctx, x, mask, keep, dt); ok || err != nil {
			if err != nil {
				return err
			}
			out[0] = value.FromTensor(res)
			return nil
		}
		res, err := floatReduce(ctx, x, mask, keep, dt, func(row []float64) float64 {
			s := 0.0
			for _, v := range row {
				s += v
			}
			return s / float64(len(row))
		})
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(res)
		return nil
	}
}

// meanInnerF32 is mean over the innermost dims of a contiguous float32
// tensor into float32 (a global average pool): each row summed in place
// in float64 by vec.Sum, without floatReduce's float64 copy of the input.
// ok is false for any other reduction.
func meanInnerF32(ctx *Context, x *tensor.Tensor, mask []bool, keep bool, dt tensor.DType) (*tensor.Tensor, bool, error) {
	nd := x.Dim()
	if x.DType() != tensor.Float32 || dt != tensor.Float32 || nd == 0 || !x.IsContiguous() || x.Numel() == 0 {
		return nil, false, nil
	}
	first := nd
	for first > 0 && mask[first-1] {
		first--
	}
	for i := 0; i < first; i++ {
		if mask[i] {
			return nil, false, nil
		}
	}
	inner := 1
	for i := first; i < nd; i++ {
		inner *= x.Size(i)
	}
	shape := ctx.shape[:0]
	for i := 0; i < nd; i++ {
		switch {
		case i < first:
			shape = append(shape, x.Size(i))
		case keep:
			shape = append(shape, 1)
		}
	}
	ctx.shape = shape[:0]
	res, err := ctx.empty(tensor.Float32, shape)
	if err != nil {
		return nil, true, err
	}
	in, o := tensor.Contig[float32](x), tensor.Contig[float32](res)
	// Rows on up to ctx.Threads goroutines, each summed alone.
	if k := par.Chunks(ctx.Threads, len(o), meanCost*float64(inner)); k > 1 {
		par.For(k, len(o), 1, func(lo, hi int) { vec.MeanRows(o[lo:hi], in[lo*inner:], inner) })
	} else {
		vec.MeanRows(o, in, inner)
	}
	return res, true, nil
}

// meanCost is a pooled element's work for par.Chunks, in the units of a
// multiply-add in a large GEMM: BenchmarkSplitOps/mean_hw measured about
// 0.3 ns an element on one core (AMD EPYC Zen 3) when each row was its own
// Sum, a GEMM about 0.035 ns a multiply-add. vec.MeanRows takes 0.13-0.15
// ns, so the weight now errs towards splitting less, not more.
const meanCost = 8

func extremeOf(row []float64, isMax bool) (float64, int) {
	best, at := math.NaN(), -1
	for i, v := range row {
		if v != v {
			return v, i // NaN wins, first one
		}
		if at < 0 || (isMax && v > best) || (!isMax && v < best) {
			best, at = v, i
		}
	}
	return best, at
}

func extremeKernel(isMax bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x, dims, keep, err := reduceArgs(ctx, &arg, true)
		if err != nil {
			return err
		}
		mask, err := reduceDims(ctx, x, dims)
		if err != nil {
			return err
		}
		if err := checkNonEmpty(x, mask); err != nil {
			return err
		}
		res, err := floatReduce(ctx, x, mask, keep, x.DType(), func(row []float64) float64 {
			v, _ := extremeOf(row, isMax)
			return v
		})
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(res)
		return nil
	}
}

func checkNonEmpty(x *tensor.Tensor, mask []bool) error {
	for i := 0; i < x.Dim(); i++ {
		if mask[i] && x.Size(i) == 0 {
			return errorf("expected reduction dim %d to have non-zero size", i)
		}
	}
	return nil
}

func extremeAllKernel(isMax bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x := arg.Tensor()
		if err := arg.Err(); err != nil {
			return err
		}
		if x.Numel() == 0 {
			return errorf("max(): expected a non-empty tensor")
		}
		mask, _ := reduceDims(ctx, x, nil)
		res, err := floatReduce(ctx, x, mask, false, x.DType(), func(row []float64) float64 {
			v, _ := extremeOf(row, isMax)
			return v
		})
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(res)
		return nil
	}
}

func maxMinDim(isMax bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x, dim, keep := arg.Tensor(), arg.Int(), arg.Bool()
		if err := arg.Err(); err != nil {
			return err
		}
		mask, err := reduceDims(ctx, x, []int{dim})
		if err != nil {
			return err
		}
		if err := checkNonEmpty(x, mask); err != nil {
			return err
		}
		r, err := gatherReduction(ctx, x, mask, keep)
		if err != nil {
			return err
		}
		vals := make([]float64, r.outer)
		idx := make([]int64, r.outer)
		for o := range vals {
			v, i := extremeOf(r.vals[o*r.inner:(o+1)*r.inner], isMax)
			vals[o], idx[o] = v, int64(i)
		}
		vt, err := ctx.empty(x.DType(), r.shape)
		if err != nil {
			return err
		}
		writeFloats(vt, vals)
		it, err := ctx.empty(tensor.Int64, r.shape)
		if err != nil {
			return err
		}
		copy(tensor.Data[int64](it), idx)
		out[0], out[1] = value.FromTensor(vt), value.FromTensor(it)
		return nil
	}
}

func argKernel(isMax bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x, dim, keep := arg.Tensor(), arg.OptInt(-1<<62), arg.Bool()
		if err := arg.Err(); err != nil {
			return err
		}
		if x.DType() == tensor.Bool {
			return dtypeErr("argmax/argmin", x.DType())
		}
		var dims []int
		if dim != -1<<62 { // dim=None: over the flattened tensor
			dims = []int{dim}
		}
		mask, err := reduceDims(ctx, x, dims)
		if err != nil {
			return err
		}
		if x.Numel() == 0 {
			return errorf("argmax(): expected a non-empty tensor")
		}
		if dims == nil && !keep {
			// Over the flattened tensor: a 0-d result.
			for i := range mask {
				mask[i] = true
			}
		}
		r, err := gatherReduction(ctx, x, mask, keep)
		if err != nil {
			return err
		}
		res, err := ctx.empty(tensor.Int64, r.shape)
		if err != nil {
			return err
		}
		d := tensor.Data[int64](res)
		for o := 0; o < r.outer; o++ {
			_, i := extremeOf(r.vals[o*r.inner:(o+1)*r.inner], isMax)
			d[o] = int64(i)
		}
		out[0] = value.FromTensor(res)
		return nil
	}
}

func boolReduce(isAny, withDim bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x, dims, keep, err := reduceArgs(ctx, &arg, withDim)
		if err != nil {
			return err
		}
		if withDim && args[1].Kind() == value.IntList && len(dims) == 0 {
			// any.dims with dim=[] reduces nothing: elementwise != 0.
			return binaryKernel(opNe, false, false)(ctx, []value.Value{args[0], value.FromInt(0)}, out)
		}
		mask, err := reduceDims(ctx, x, dims)
		if err != nil {
			return err
		}
		outDT := tensor.Bool
		if x.DType() == tensor.Uint8 {
			outDT = tensor.Uint8 // ATen keeps uint8 for any/all
		}
		res, err := floatReduce(ctx, x, mask, keep, outDT, func(row []float64) float64 {
			for _, v := range row {
				if (v != 0) == isAny {
					return b2f(isAny)
				}
			}
			return b2f(!isAny)
		})
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(res)
		return nil
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func variance(row []float64, correction float64) (float64, float64) {
	mean := 0.0
	for _, v := range row {
		mean += v
	}
	mean /= float64(len(row))
	ss := 0.0
	for _, v := range row {
		ss += (v - mean) * (v - mean)
	}
	return ss / math.Max(float64(len(row))-correction, 0), mean
}

func varKernel(std, withMean bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x, dims, corr, keep := arg.Tensor(), arg.Ints(nil), arg.OptScalarFloat(1), arg.Bool()
		if err := arg.Err(); err != nil {
			return err
		}
		return varOut(ctx, x, dims, corr, keep, std, withMean, out)
	}
}

func varDimKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, dims, unbiased, keep := arg.Tensor(), arg.Ints(nil), arg.Bool(), arg.Bool()
	if err := arg.Err(); err != nil {
		return err
	}
	return varOut(ctx, x, dims, b2f(unbiased), keep, false, false, out)
}

func varOut(ctx *Context, x *tensor.Tensor, dims []int, corr float64, keep, std, withMean bool, out []value.Value) error {
	if !x.DType().IsFloat() {
		return errorf("std and var only support floating point and complex dtypes, got %v", x.DType())
	}
	mask, err := reduceDims(ctx, x, dims)
	if err != nil {
		return err
	}
	res, err := floatReduce(ctx, x, mask, keep, x.DType(), func(row []float64) float64 {
		v, _ := variance(row, corr)
		if std {
			return math.Sqrt(v)
		}
		return v
	})
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(res)
	if withMean {
		m, err := floatReduce(ctx, x, mask, keep, x.DType(), func(row []float64) float64 {
			_, m := variance(row, corr)
			return m
		})
		if err != nil {
			return err
		}
		out[1] = value.FromTensor(m)
	}
	return nil
}

func logsumexpKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, dims, keep, err := reduceArgs(ctx, &arg, true)
	if err != nil {
		return err
	}
	mask, err := reduceDims(ctx, x, dims)
	if err != nil {
		return err
	}
	dt := x.DType()
	if !dt.IsFloat() {
		dt = DefaultFloat
	}
	res, err := floatReduce(ctx, x, mask, keep, dt, func(row []float64) float64 {
		m, _ := extremeOf(row, true)
		if math.IsInf(m, 0) || m != m {
			if len(row) == 0 {
				return math.Inf(-1)
			}
			return m // NaN, +Inf, or -Inf when every term is -Inf
		}
		s := 0.0
		for _, v := range row {
			s += math.Exp(v - m)
		}
		return m + math.Log(s)
	})
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(res)
	return nil
}

// cumKernel is cumsum/cumprod along dim. As ATen's acc_type on the CPU,
// floats accumulate in float64 and integers in int64, each output rounded.
func cumKernel(prod bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		defer ctx.releaseTemps()
		arg := readArgs(args)
		x, dim := arg.Tensor(), arg.Int()
		if err := arg.Err(); err != nil {
			return err
		}
		def := x.DType()
		if !def.IsFloat() {
			def = tensor.Int64
		}
		dt := arg.DType(def)
		if err := arg.Err(); err != nil {
			return err
		}
		d, err := wrapDim(dim, x.Dim())
		if err != nil {
			return err
		}
		if dt == tensor.Bool {
			return dtypeErr("cumsum", dt)
		}
		res, err := ctx.empty(dt, x.Sizes())
		if err != nil {
			return err
		}
		work, acc := res, tensor.Int64
		if dt.IsFloat() {
			acc = tensor.Float64
		}
		if acc != dt {
			if work, err = ctx.temp(acc, x.Sizes()); err != nil {
				return err
			}
		}
		if err := tensor.Copy(work, x); err != nil {
			return err
		}
		if x.Dim() == 0 || x.Numel() == 0 {
			out[0] = value.FromTensor(res)
			return tensor.Copy(res, work)
		}
		size := x.Size(d)
		stride := work.Strides()[d]
		outer := work.Numel() / size
		// Visit each line along d: lines start at offsets with index 0 in d.
		for o := 0; o < outer; o++ {
			base := (o/stride)*stride*size + o%stride
			switch work.DType() {
			case tensor.Int64:
				v := tensor.Data[int64](work)
				acc := v[base]
				for i := 1; i < size; i++ {
					p := base + i*stride
					if prod {
						acc *= v[p]
					} else {
						acc += v[p]
					}
					v[p] = acc
				}
			case tensor.Float64:
				v := tensor.Data[float64](work)
				acc := v[base]
				for i := 1; i < size; i++ {
					p := base + i*stride
					if prod {
						acc *= v[p]
					} else {
						acc += v[p]
					}
					v[p] = acc
				}
			}
		}
		out[0] = value.FromTensor(res)
		if work != res {
			return tensor.Copy(res, work)
		}
		return nil
	}
}

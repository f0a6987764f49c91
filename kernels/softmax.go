package kernels

import (
	"math"

	"github.com/seam-rt/seam/kernels/internal/par"
	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func init() {
	register(softmaxKernel(false, false, true), "aten._softmax.default")
	register(softmaxKernel(true, false, true), "aten._log_softmax.default")
	register(softmaxKernel(false, false, false), "aten.softmax.int")
	register(softmaxKernel(true, false, false), "aten.log_softmax.int")
	register(softmaxKernel(false, true, false), "aten._safe_softmax.default")
}

// softmaxKernel: internal=true is _softmax(self, dim, half_to_float);
// otherwise (self, dim, dtype). safe gives 0 for rows that are all -inf.
func softmaxKernel(logSoftmax, safe, internal bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		arg := readArgs(args)
		x, dim := arg.Tensor(), arg.Int()
		if err := arg.Err(); err != nil {
			return err
		}
		dt := x.DType()
		if internal {
			if arg.Bool() { // half_to_float
				dt = tensor.Float32
			}
		} else {
			dt = arg.DType(dt)
		}
		if err := arg.Err(); err != nil {
			return err
		}
		if !dt.IsFloat() {
			return dtypeErr("softmax", dt)
		}
		r, err := softmax(ctx, x, dim, dt, logSoftmax, safe)
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(r)
		return nil
	}
}

// softmax works on rows along dim: the last dim reads in place; other
// dims go through a transposed contiguous copy. A float64 result computes
// in float64, every other in float32.
func softmax(ctx *Context, x *tensor.Tensor, dim int, dt tensor.DType, logSoftmax, safe bool) (*tensor.Tensor, error) {
	defer ctx.releaseTemps()
	d, err := wrapDim(dim, x.Dim())
	if err != nil {
		return nil, err
	}
	out, err := ctx.empty(dt, x.Sizes())
	if err != nil {
		return nil, err
	}
	if x.Numel() == 0 {
		return out, nil
	}
	work := tensor.Float32
	if dt == tensor.Float64 {
		work = tensor.Float64
	}
	last := max(x.Dim()-1, 0)
	src, dst := x, out
	if d != last {
		// Move dim to the end, compute, and copy back through the same view.
		t, _ := new(tensor.Tensor).Transpose(x, d, last)
		if src, err = ctx.temp(work, t.Sizes()); err != nil {
			return nil, err
		}
		if err := tensor.Copy(src, t); err != nil {
			return nil, err
		}
		if dst, err = ctx.temp(work, t.Sizes()); err != nil {
			return nil, err
		}
	}
	if src.DType() != work || !src.IsContiguous() {
		c, err := ctx.temp(work, src.Sizes())
		if err != nil {
			return nil, err
		}
		if err := tensor.Copy(c, src); err != nil {
			return nil, err
		}
		src = c
	}
	if dst.DType() != work {
		if dst, err = ctx.temp(work, src.Sizes()); err != nil {
			return nil, err
		}
	}
	n := 1
	if x.Dim() > 0 {
		n = x.Size(d)
	}
	if work == tensor.Float64 {
		in, o := tensor.Contig[float64](src), tensor.Contig[float64](dst)
		for r := 0; r+n <= len(in) && n > 0; r += n {
			softmaxRow64(o[r:r+n], in[r:r+n], logSoftmax, safe)
		}
	} else if in, o := tensor.Contig[float32](src), tensor.Contig[float32](dst); !logSoftmax && !safe {
		if n > 0 {
			rows := len(in) / n
			// Rows on up to ctx.Threads goroutines; each row is computed
			// alone, so the split changes nothing.
			if k := par.Chunks(ctx.Threads, rows, softmaxCost*float64(n)); k > 1 {
				par.For(k, rows, 1, func(lo, hi int) { vec.SoftmaxRows(o[lo*n:], in[lo*n:], n, hi-lo, n, n) })
			} else {
				vec.SoftmaxRows(o, in, n, rows, n, n)
			}
		}
	} else {
		for r := 0; r+n <= len(in); r += n {
			softmaxRow(o[r:r+n], in[r:r+n], logSoftmax, safe)
		}
	}
	if dst != out {
		if d != last {
			back, _ := new(tensor.Tensor).Transpose(dst, d, last)
			return out, tensor.Copy(out, back)
		}
		return out, tensor.Copy(out, dst)
	}
	return out, nil
}

// softmaxRow follows ATen's vectorised last-dim softmax: subtract the max,
// exponentiate, scale by the reciprocal of the sum (accumulated in
// float64).
func softmaxRow(o, x []float32, logSoftmax, safe bool) {
	m := vec.Max(x)
	if safe && math.IsInf(float64(m), -1) {
		clear(o[:len(x)])
		return
	}
	s := vec.ExpShiftSum(o, x, m)
	if logSoftmax {
		vec.SubScalar(o, x, m)
		vec.SubScalar(o, o[:len(x)], float32(math.Log(s)))
		return
	}
	vec.MulScalar(o, o[:len(x)], float32(1/s))
}

// softmaxRow64 is softmaxRow in float64, as ATen's double kernel: the max,
// exp(x - max) summed, then scaled by 1/sum (log: x - max - log(sum)).
func softmaxRow64(o, x []float64, logSoftmax, safe bool) {
	m := math.Inf(-1)
	for _, v := range x {
		if v > m || v != v {
			m = v
			if v != v {
				break
			}
		}
	}
	if safe && math.IsInf(m, -1) {
		clear(o[:len(x)])
		return
	}
	s := 0.0
	for i, v := range x {
		o[i] = math.Exp(v - m)
		s += o[i]
	}
	if logSoftmax {
		ls := math.Log(s)
		for i, v := range x {
			o[i] = v - m - ls
		}
		return
	}
	r := 1 / s
	for i := range x {
		o[i] *= r
	}
}

// ScaledMaskedSoftmax is softmax(x*scale + mask) over the last dim, for a
// float32 x and a float32 mask that broadcasts to x's shape: attention's
// mul.Tensor -> add.Tensor -> _softmax.default(dim=-1) as one kernel, which
// an executor runs in place of the three when the two intermediates have no
// other use. Each row is scaled, masked and normalised while it is in
// cache; the arithmetic is the three ops' own, in the same order, so the
// result is theirs. args are (x, scale, mask); it is registered under no
// ATen name.
func ScaledMaskedSoftmax(ctx *Context, args, out []value.Value) error {
	if len(args) < 3 || len(out) < 1 {
		return errorf("scaled masked softmax takes (x, scale, mask) and one result")
	}
	arg := readArgs(args)
	x, scale, mask := arg.Tensor(), arg.Double(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if x.DType() != tensor.Float32 || mask.DType() != tensor.Float32 {
		return errorf("scaled masked softmax needs float32 operands, got %s and %s", x.Type(), mask.Type())
	}
	var sb [8]int
	shape, err := broadcastShapes(sb[:0], x.Sizes(), mask.Sizes())
	if err != nil || !tensor.EqualInts(shape, x.Sizes()) {
		return errorf("mask %s does not broadcast to %s", mask.Type(), x.Type())
	}
	defer ctx.releaseTemps()
	r, err := ctx.empty(tensor.Float32, x.Sizes())
	if err != nil {
		return err
	}
	if r.Numel() == 0 {
		out[0] = value.FromTensor(r)
		return nil
	}
	nd := x.Dim()
	if nd == 0 {
		// A single element: softmax of one value is 1 (NaN stays NaN).
		in, m := tensor.Data[float32](x)[x.Offset()], tensor.Data[float32](mask)[mask.Offset()]
		o := tensor.Contig[float32](r)
		o[0] = float32(in*float32(scale)) + m // rounded twice, as mul then add
		vec.SoftmaxRows(o, o, 1, 1, 1, 1)
		out[0] = value.FromTensor(r)
		return nil
	}
	if x.Strides()[nd-1] != 1 && x.Size(-1) != 1 {
		c, err := ctx.temp(tensor.Float32, x.Sizes())
		if err == nil {
			err = tensor.Copy(c, x)
		}
		if err != nil {
			ctx.Pool.Release(r)
			return err
		}
		x = c
	}
	n := shape[nd-1]
	if m := mask.Dim(); m > 0 && mask.Size(-1) > 1 && mask.Strides()[m-1] != 1 {
		c, err := ctx.temp(tensor.Float32, mask.Sizes())
		if err == nil {
			err = tensor.Copy(c, mask)
		}
		if err != nil {
			ctx.Pool.Release(r)
			return err
		}
		mask = c
	}
	var ms [8]int
	mstr := broadcastStrides(ms[:0], mask, shape)
	mStep := mstr[nd-1]
	if n == 1 {
		mStep = 0
	}
	o, xd, md := tensor.Data[float32](r), tensor.Data[float32](x), tensor.Data[float32](mask)
	var w tensor.Walk
	w.Init(shape[:nd-1])
	w.Add(r.Strides()[:nd-1], 0)
	w.Add(x.Strides()[:nd-1], x.Offset())
	w.Add(mstr[:nd-1], mask.Offset())
	if err := w.Err(); err != nil {
		ctx.Pool.Release(r)
		return err
	}
	s := float32(scale)
	for w.Next() {
		if mStep == 1 {
			o0, x0, m0, s0, s1, s2 := w.Off[0], w.Off[1], w.Off[2], w.Step[0], w.Step[1], w.Step[2]
			if k := par.Chunks(ctx.Threads, w.Len, softmaxCost*float64(n)); k > 1 {
				par.For(k, w.Len, 1, func(lo, hi int) {
					vec.ScaledMaskedSoftmaxRows(o[o0+lo*s0:], xd[x0+lo*s1:], md[m0+lo*s2:], s, n, hi-lo, s0, s1, s2)
				})
			} else {
				vec.ScaledMaskedSoftmaxRows(o[o0:], xd[x0:], md[m0:], s, n, w.Len, s0, s1, s2)
			}
			continue
		}
		// A mask constant along the rows (or rows of one element).
		for k := 0; k < w.Len; k++ {
			oo, xo, mo := w.Off[0]+k*w.Step[0], w.Off[1]+k*w.Step[1], w.Off[2]+k*w.Step[2]
			row := o[oo : oo+n]
			vec.MulScalar(row, xd[xo:xo+n], s)
			vec.AddScalar(row, row, md[mo])
			vec.SoftmaxRows(row, row, n, 1, n, n)
		}
	}
	out[0] = value.FromTensor(r)
	return nil
}

// softmaxCost is a softmax element's work for par.Chunks, in the units of
// a multiply-add: a max, an exp and a multiply.
const softmaxCost = 16

package kernels

import (
	"github.com/seam-rt/seam/kernels/internal/par"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// binaryCost is a float32 binary element's work for par.Chunks, in the
// units of a multiply-add in a large GEMM: two loads and a store, bound by
// the caches; BenchmarkSplitOps measured 0.27-0.6 ns an element on one
// core (AMD EPYC Zen 3, add and a broadcast gate), a GEMM about 0.035 ns
// a multiply-add.
const binaryCost = 8

// runBinaryThreads is runBinary on up to ctx.Threads goroutines for large
// float32 arithmetic (add, sub, mul, div, maximum, minimum: exact IEEE
// operations, the same in a vector lane as in a scalar tail). Operands
// that walk as a grid of two dimensions split the grid
// (binaryGridThreads); otherwise out is cut along its outermost dimension
// of more than one element, and each slice computed by runBinary on views
// of out and of the operands that span that dimension (an operand
// broadcast along it is read whole). The views are made, and released, on
// the calling goroutine: a pooled storage's reference count is not safe
// for concurrent use.
func runBinaryThreads(ctx *Context, op binOp, dt tensor.DType, out, ta *tensor.Tensor, a value.Value, tb *tensor.Tensor, b, alpha value.Value) error {
	shape := out.Sizes()
	d := 0
	for d < len(shape) && shape[d] == 1 {
		d++
	}
	splits := dt == tensor.Float32 && d < len(shape) && out.Numel() > 0 && (op <= opDiv || op == opMaximum || op == opMinimum)
	k := 1
	if splits {
		k = par.Count(par.Chunks(ctx.Threads, shape[d], binaryCost*float64(out.Numel()/shape[d])), shape[d], 1)
	}
	if k <= 1 {
		return runBinary(op, dt, out, ta, a, tb, b, alpha)
	}
	if dt == tensor.Float32 && binaryGridThreads(k, op, out, ta, a, tb, b, alpha) {
		return nil
	}
	views := make([]*tensor.Tensor, 0, 3*k)
	defer func() {
		for _, v := range views {
			ctx.Pool.Release(v)
		}
	}()
	for i := range k {
		lo, hi := par.Bounds(k, shape[d], 1, i)
		for _, t := range [3]*tensor.Tensor{out, ta, tb} {
			v, err := narrowAligned(ctx, t, len(shape), d, lo, hi)
			if err != nil {
				return err
			}
			views = append(views, v)
		}
	}
	errs := make([]error, k)
	par.ForChunks(k, shape[d], 1, func(i, lo, hi int) {
		v := views[3*i:]
		errs[i] = runBinary(op, dt, v[0], v[1], a, v[2], b, alpha)
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// binaryGridThreads runs a float32 op whose operands walk as a grid of
// at most two dimensions (contiguous tensors of the output's shape, a
// scalar, a row or a plane broadcast, a gate per plane) in k chunks of
// the grid's rows, or of its columns when it has too few rows to share
// evenly, and reports whether it did. Each chunk is a walk of its part of
// the grid, computed by the code runBinary runs (binaryWalkF32), so each
// element's arithmetic is the same. A view of each operand per chunk, and
// the broadcast analysis each view's call repeats, cost more than the
// arithmetic at a small transformer's sizes: an add of two [1,128,64]
// tensors took 4.0 us on two threads that way, 2.4 us this way, 1.5 on
// one (Intel Xeon).
func binaryGridThreads(k int, op binOp, out, ta *tensor.Tensor, a value.Value, tb *tensor.Tensor, b, alpha value.Value) bool {
	shape := out.Sizes()
	var w tensor.Walk
	w.Init(shape)
	w.Add(out.Strides(), 0)
	addOperand(&w, ta, shape)
	addOperand(&w, tb, shape)
	w.Coalesce()
	g, ok := w.Grid()
	if !ok || w.Err() != nil {
		return false
	}
	var xs, ys [1]float32
	o := tensor.Data[float32](out)
	xd, yd := load(&xs, ta, a, fromF64[float32]), load(&ys, tb, b, fromF64[float32])
	al := float32(1)
	if op == opAdd || op == opSub {
		f, _ := scalarOf(alpha)
		al = float32(f)
	}
	byRows := g.Rows >= 2*k
	n, align := g.Cols, 16
	if byRows {
		n, align = g.Rows, 1
	}
	par.For(k, n, align, func(lo, hi int) {
		var sw tensor.Walk
		var sizes, strides [2]int
		first := 0
		if byRows {
			sizes = [2]int{hi - lo, g.Cols}
		} else {
			sizes = [2]int{g.Rows, hi - lo}
		}
		sw.Init(sizes[:])
		for j := range 3 {
			strides = [2]int{g.RowStep[j], g.ColStep[j]}
			first = g.Off[j] + lo*g.ColStep[j]
			if byRows {
				first = g.Off[j] + lo*g.RowStep[j]
			}
			sw.Add(strides[:], first)
		}
		binaryWalkF32(op, o, xd, yd, &sw, al)
	})
	return true
}

// narrowAligned is a pooled view of t's items [lo, hi) along dimension d
// of an ndim-dimensional broadcast shape (t's dimensions aligned to its
// right), or, when t is nil or broadcast along d (absent there or of size
// 1), nil for a nil t and otherwise a view of all of t.
func narrowAligned(ctx *Context, t *tensor.Tensor, ndim, d, lo, hi int) (*tensor.Tensor, error) {
	if t == nil {
		return nil, nil
	}
	h := ctx.header()
	td := d - (ndim - t.Dim())
	if td < 0 || t.Size(td) == 1 {
		return h.Alias(t), nil
	}
	v, err := h.Narrow(t, td, lo, hi-lo)
	if err != nil {
		ctx.Pool.Release(h)
	}
	return v, err
}

// Parts runs fn(0) to fn(n-1) in k chunks of consecutive i on the caller
// and the process's workers, as a kernel's split runs its chunks (a chunk
// no worker has claimed by the time the caller gets to it runs in the
// caller), and returns when all have: for a run cut into parts that are
// each a whole program's run on some of the batch's samples. It counts
// in Splits as a kernel's split does.
func Parts(k, n int, fn func(i int)) {
	par.ForChunks(k, n, 1, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			fn(i)
		}
	})
}

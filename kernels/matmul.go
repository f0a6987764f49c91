package kernels

import (
	"github.com/seam-rt/seam/kernels/gemm"
	"github.com/seam-rt/seam/kernels/internal/par"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func init() {
	register(mmKernel, "aten.mm.default")
	register(bmmKernel, "aten.bmm.default")
	register(addmmKernel, "aten.addmm.default")
	register(baddbmmKernel, "aten.baddbmm.default")
	register(matmulKernel, "aten.matmul.default")
	register(linearKernel, "aten.linear.default")
	register(mvKernel, "aten.mv.default")
	register(dotKernel, "aten.dot.default")
	register(outerKernel, "aten.outer.default")
}

// gemmLayout says how gemm can read a rows×cols matrix with strides
// (s0, s1): row-major (trans=false) or as the transpose of a row-major
// matrix (trans=true), with leading dimension ld; ok=false needs a copy.
func gemmLayout(rows, cols, s0, s1 int) (trans bool, ld int, ok bool) {
	if s1 == 1 || cols <= 1 {
		ld = s0
		if rows <= 1 {
			ld = cols
		}
		if ld >= max(1, cols) {
			return false, ld, true
		}
	}
	if s0 == 1 || rows <= 1 {
		ld = s1
		if cols <= 1 {
			ld = rows
		}
		if ld >= max(1, rows) {
			return true, ld, true
		}
	}
	return false, 0, false
}

// matmulCore computes out = alpha*a@b + beta*out over matching batch dims:
// a is [..., m, k], b is [..., k, n], out is a contiguous [..., m, n] (read
// only when beta != 0). Operands gemm cannot read directly are copied.
func matmulCore(ctx *Context, a, b, out *tensor.Tensor, alpha, beta float64) error {
	defer ctx.releaseTemps()
	nd := a.Dim()
	m, k, n := a.Size(-2), a.Size(-1), b.Size(-1)
	if out.Numel() == 0 {
		return nil
	}
	if k == 0 {
		// An empty sum: the product part is zero.
		vals := out.Float64s()
		for i := range vals {
			vals[i] *= beta
			if beta == 0 {
				vals[i] = 0
			}
		}
		writeFloats(out, vals)
		return nil
	}
	dt := out.DType()
	native := dt
	if dt == tensor.Float16 || dt == tensor.BFloat16 {
		native = tensor.Float32
	}
	var err error
	prep := func(t *tensor.Tensor, rows, cols int) (*tensor.Tensor, bool, int, error) {
		s := t.Strides()
		if t.DType() == native {
			if tr, ld, ok := gemmLayout(rows, cols, s[nd-2], s[nd-1]); ok {
				return t, tr, ld, nil
			}
		}
		c, err := ctx.temp(native, t.Sizes())
		if err != nil {
			return nil, false, 0, err
		}
		return c, false, max(cols, 1), tensor.Copy(c, t)
	}
	a, ta, lda, err := prep(a, m, k)
	if err != nil {
		return err
	}
	b, tb, ldb, err := prep(b, k, n)
	if err != nil {
		return err
	}
	dst := out
	if native != dt {
		if dst, err = ctx.temp(native, out.Sizes()); err != nil {
			return err
		}
		if beta != 0 {
			if err := tensor.Copy(dst, out); err != nil {
				return err
			}
		}
	}
	batch := out.Sizes()[:nd-2]
	var w tensor.Walk
	w.Init(batch)
	w.Add(dst.Strides()[:nd-2], 0)
	w.Add(a.Strides()[:nd-2], 0)
	w.Add(b.Strides()[:nd-2], 0)
	w.Coalesce()
	if err := w.Err(); err != nil {
		return err
	}
	// The (out, a, b) offsets of every product in the batch.
	count := 1
	for _, d := range batch {
		count *= d
	}
	offs := ctx.scratchInts(3 * count)[:0]
	for w.Next() {
		for i := 0; i < w.Len; i++ {
			offs = append(offs, w.Off[0]+i*w.Step[0], w.Off[1]+i*w.Step[1], w.Off[2]+i*w.Step[2])
		}
	}
	bt := batchGemm{native: native, ta: ta, tb: tb, m: m, n: n, k: k, lda: lda, ldb: ldb,
		alpha: alpha, beta: beta, a: a, b: b, dst: dst, offs: offs}
	// Several products at once when each is too small to split (attention
	// heads); one at a time otherwise, each split inside the GEMM. A
	// product's arithmetic is the same either way.
	nprod := len(offs) / 3
	if chunks := par.Chunks(ctx.Threads, nprod, float64(m)*float64(n)*float64(k)); chunks > 1 {
		c := bt // only this branch moves a copy to the heap
		par.For(chunks, nprod, 1, func(lo, hi int) { c.run(lo, hi, 1) })
	} else {
		bt.run(0, nprod, ctx.Threads)
	}
	if dst != out {
		return tensor.Copy(out, dst)
	}
	return nil
}

// batchGemm is a batch of products of one shape, product i at offsets
// offs[3i:3i+3] of dst, a and b.
type batchGemm struct {
	native      tensor.DType
	ta, tb      bool
	m, n, k     int
	lda, ldb    int
	alpha, beta float64
	a, b, dst   *tensor.Tensor
	offs        []int
}

// run computes products [lo, hi), each on up to threads goroutines.
func (g *batchGemm) run(lo, hi, threads int) {
	m, n, k := g.m, g.n, g.k
	for i := lo; i < hi; i++ {
		oc, oa, ob := g.offs[3*i], g.offs[3*i+1], g.offs[3*i+2]
		switch g.native {
		case tensor.Float32:
			gemm.SgemmThreads(threads, g.ta, g.tb, m, n, k, float32(g.alpha), tensor.Data[float32](g.a)[oa:], g.lda,
				tensor.Data[float32](g.b)[ob:], g.ldb, float32(g.beta), tensor.Data[float32](g.dst)[oc:], max(n, 1))
		case tensor.Float64:
			gemm.Dgemm(g.ta, g.tb, m, n, k, g.alpha, tensor.Data[float64](g.a)[oa:], g.lda,
				tensor.Data[float64](g.b)[ob:], g.ldb, g.beta, tensor.Data[float64](g.dst)[oc:], max(n, 1))
		default:
			naiveIntGemm(g.ta, g.tb, m, n, k, int64(g.alpha), g.a, oa, g.lda, g.b, ob, g.ldb, int64(g.beta), g.dst, oc)
		}
	}
}

// naiveIntGemm covers integer matrix products, which ATen also supports on
// the CPU; they are rare enough that a plain loop serves.
func naiveIntGemm(ta, tb bool, m, n, k int, alpha int64, a *tensor.Tensor, oa, lda int, b *tensor.Tensor, ob, ldb int, beta int64, c *tensor.Tensor, oc int) {
	at := func(t *tensor.Tensor, off, ld int, tr bool, i, j int) int64 {
		if tr {
			i, j = j, i
		}
		idx := off + i*ld + j
		switch t.DType() {
		case tensor.Int64:
			return tensor.Data[int64](t)[idx]
		case tensor.Int32:
			return int64(tensor.Data[int32](t)[idx])
		case tensor.Int16:
			return int64(tensor.Data[int16](t)[idx])
		case tensor.Int8:
			return int64(tensor.Data[int8](t)[idx])
		case tensor.Uint8:
			return int64(tensor.Data[uint8](t)[idx])
		}
		return 0
	}
	res := make([]int64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s int64
			for p := 0; p < k; p++ {
				s += at(a, oa, lda, ta, i, p) * at(b, ob, ldb, tb, p, j)
			}
			if beta != 0 {
				s = alpha*s + beta*at(c, oc, max(n, 1), false, i, j)
			} else {
				s *= alpha
			}
			res[i*n+j] = s
		}
	}
	r, _ := tensor.FromSlice(res, m, n)
	v, _ := new(tensor.Tensor).AsStrided(c, []int{m, n}, []int{max(n, 1), 1}, c.Offset()+oc)
	_ = tensor.Copy(v, r)
}

func checkMatmulDTypes(a, b *tensor.Tensor, an, bn string) error {
	if a.DType() != b.DType() {
		return errorf("expected %s and %s to have the same dtype, but got: %v != %v", an, bn, a.DType(), b.DType())
	}
	if a.DType() == tensor.Bool {
		return dtypeErr("matrix multiplication", tensor.Bool)
	}
	return nil
}

func mmKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	a, b := arg.Tensor(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := mm(ctx, a, b, nil, 1, 0, "self", "mat2")
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

// mm computes alpha*a@b + beta*bias for 2-D a and b.
func mm(ctx *Context, a, b, bias *tensor.Tensor, alpha, beta float64, an, bn string) (*tensor.Tensor, error) {
	if a.Dim() != 2 || b.Dim() != 2 || a.Size(1) != b.Size(0) {
		if a.Dim() != 2 {
			return nil, errorf("%s must be a matrix, got %s", an, a.Type())
		}
		if b.Dim() != 2 {
			return nil, errorf("%s must be a matrix, got %s", bn, b.Type())
		}
		return nil, errorf("%s is %s but %s is %s: shapes cannot be multiplied (%dx%d and %dx%d)",
			an, a.Type(), bn, b.Type(), a.Size(0), a.Size(1), b.Size(0), b.Size(1))
	}
	if err := checkMatmulDTypes(a, b, an, bn); err != nil {
		return nil, err
	}
	sizes := [2]int{a.Size(0), b.Size(1)}
	r, err := ctx.empty(a.DType(), sizes[:])
	if err != nil {
		return nil, err
	}
	if bias != nil && beta != 0 {
		if bias.DType() != a.DType() {
			ctx.Pool.Release(r)
			return nil, errorf("self is %s but %s is %s: dtypes differ", bias.Type(), an, a.Type())
		}
		if err := tensor.Copy(r, bias); err != nil {
			ctx.Pool.Release(r)
			return nil, errorf("self %s cannot be broadcast to the result %s", bias.Type(), r.Type())
		}
	} else {
		beta = 0
	}
	if err := matmulCore(ctx, a, b, r, alpha, beta); err != nil {
		ctx.Pool.Release(r)
		return nil, err
	}
	return r, nil
}

func addmmKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	bias, a, b, beta, alpha := arg.Tensor(), arg.Tensor(), arg.Tensor(), arg.Scalar(), arg.Scalar()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := mm(ctx, a, b, bias, alpha.Double(), beta.Double(), "mat1", "mat2")
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

func bmm3(ctx *Context, a, b, bias *tensor.Tensor, alpha, beta float64, an, bn string) (*tensor.Tensor, error) {
	if a.Dim() != 3 || b.Dim() != 3 {
		return nil, errorf("batch1 must be a 3D tensor: %s is %s, %s is %s", an, a.Type(), bn, b.Type())
	}
	if a.Size(0) != b.Size(0) || a.Size(2) != b.Size(1) {
		return nil, errorf("%s is %s but %s is %s: shapes cannot be batch-multiplied", an, a.Type(), bn, b.Type())
	}
	if err := checkMatmulDTypes(a, b, an, bn); err != nil {
		return nil, err
	}
	sizes := [3]int{a.Size(0), a.Size(1), b.Size(2)}
	r, err := ctx.empty(a.DType(), sizes[:])
	if err != nil {
		return nil, err
	}
	if bias != nil && beta != 0 {
		if err := tensor.Copy(r, bias); err != nil {
			ctx.Pool.Release(r)
			return nil, errorf("self %s cannot be broadcast to %s", bias.Type(), r.Type())
		}
	} else {
		beta = 0
	}
	if err := matmulCore(ctx, a, b, r, alpha, beta); err != nil {
		ctx.Pool.Release(r)
		return nil, err
	}
	return r, nil
}

func bmmKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	a, b := arg.Tensor(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := bmm3(ctx, a, b, nil, 1, 0, "self", "mat2")
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

func baddbmmKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	bias, a, b, beta, alpha := arg.Tensor(), arg.Tensor(), arg.Tensor(), arg.ScalarFloat(), arg.ScalarFloat()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := bmm3(ctx, a, b, bias, alpha, beta, "batch1", "batch2")
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

// matmul is torch.matmul: 1-D operands gain a dim that is dropped again,
// batch dims broadcast.
func matmul(ctx *Context, a, b *tensor.Tensor) (*tensor.Tensor, error) {
	if a.Dim() == 0 || b.Dim() == 0 {
		return nil, errorf("both arguments to matmul need to be at least 1D, but they are %dD and %dD", a.Dim(), b.Dim())
	}
	if err := checkMatmulDTypes(a, b, "self", "other"); err != nil {
		return nil, err
	}
	av, bv := a, b
	if a.Dim() == 1 {
		av, _ = new(tensor.Tensor).Unsqueeze(a, 0)
	}
	if b.Dim() == 1 {
		bv, _ = new(tensor.Tensor).Unsqueeze(b, 1)
	}
	if av.Size(-1) != bv.Size(-2) {
		return nil, errorf("self is %s but other is %s: shapes cannot be multiplied", a.Type(), b.Type())
	}
	var sb [8]int
	batch, err := broadcastShapes(sb[:0], av.Sizes()[:av.Dim()-2], bv.Sizes()[:bv.Dim()-2])
	if err != nil {
		return nil, err
	}
	m, k, n := av.Size(-2), av.Size(-1), bv.Size(-1)
	ea, err := new(tensor.Tensor).Expand(av, append(append([]int{}, batch...), m, k))
	if err != nil {
		return nil, err
	}
	eb, err := new(tensor.Tensor).Expand(bv, append(append([]int{}, batch...), k, n))
	if err != nil {
		return nil, err
	}
	full := append(append([]int{}, batch...), m, n)
	r, err := ctx.empty(a.DType(), full)
	if err != nil {
		return nil, err
	}
	if err := matmulCore(ctx, ea, eb, r, 1, 0); err != nil {
		ctx.Pool.Release(r)
		return nil, err
	}
	// Drop the dims added for 1-D operands.
	final := append([]int{}, batch...)
	if a.Dim() > 1 {
		final = append(final, m)
	}
	if b.Dim() > 1 {
		final = append(final, n)
	}
	if len(final) != len(full) {
		h := ctx.header()
		if _, err := h.View(r, final); err != nil {
			return nil, err
		}
		ctx.Pool.Release(r)
		r = h
	}
	return r, nil
}

func matmulKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	a, b := arg.Tensor(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	r, err := matmul(ctx, a, b)
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

func mvKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	a, v := arg.Tensor(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if a.Dim() != 2 || v.Dim() != 1 {
		return errorf("vector + matrix @ vector expected, got %s and %s", a.Type(), v.Type())
	}
	return matmulKernel(ctx, args, out)
}

func dotKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	a, b := arg.Tensor(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if a.Dim() != 1 || b.Dim() != 1 {
		return errorf("1D tensors expected, but got %dD and %dD tensors", a.Dim(), b.Dim())
	}
	return matmulKernel(ctx, args, out)
}

func outerKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	a, b := arg.Tensor(), arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if a.Dim() != 1 || b.Dim() != 1 {
		return errorf("outer expects 1D tensors, got %dD and %dD", a.Dim(), b.Dim())
	}
	ua, _ := new(tensor.Tensor).Unsqueeze(a, 1)
	r, err := binary(ctx, opMul, value.FromTensor(ua), args[1], one)
	if err != nil {
		return err
	}
	out[0] = value.FromTensor(r)
	return nil
}

// linear is input @ weight.T + bias over any leading dims.
func linearKernel(ctx *Context, args, out []value.Value) error {
	arg := readArgs(args)
	x, w, bias := arg.Tensor(), arg.Tensor(), arg.OptTensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if w.Dim() != 2 || x.Dim() == 0 || x.Size(-1) != w.Size(1) {
		return errorf("input is %s but weight is %s: shapes cannot be multiplied", x.Type(), w.Type())
	}
	wt, _ := new(tensor.Tensor).Transpose(w, 0, 1)
	if x.Dim() == 2 {
		r, err := mm(ctx, x, wt, bias, 1, 1, "input", "weight")
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(r)
		return nil
	}
	r, err := matmul(ctx, x, wt)
	if err != nil {
		return err
	}
	if bias != nil {
		s, err := binary(ctx, opAdd, value.FromTensor(r), args[2], one)
		ctx.Pool.Release(r)
		if err != nil {
			return err
		}
		r = s
	}
	out[0] = value.FromTensor(r)
	return nil
}

// PackedMatmul is the kernel of x @ B (args: x), or bias + x @ B (args:
// bias, x) when withBias, for a constant float32 B packed once at load and
// shared by every run: x is a float32 matrix [m, B.K()], the result
// [m, B.N()]; the bias broadcasts to it, as addmm's self does. A bias of
// one row (a Linear's [N]) is added inside the product while each tile is
// in registers, so the result is written once; any other is copied into
// the result first. Both round as the copy always did.
func PackedMatmul(b *gemm.PackedB, withBias bool) Kernel {
	names := []string{"mat1"} // no schema names them: the runtime makes the call
	if withBias {
		names = []string{"self", "mat1"}
	}
	return func(ctx *Context, args, out []value.Value) error {
		defer ctx.releaseTemps()
		arg := readArgs(args, names...)
		var bias *tensor.Tensor
		if withBias {
			bias = arg.Tensor()
		}
		x := arg.Tensor()
		if err := arg.Err(); err != nil {
			return err
		}
		if x.Dim() != 2 || x.Size(1) != b.K() || x.DType() != tensor.Float32 {
			return errorf("mat1 %s does not fit the packed f32[%d, %d] weight", x.Type(), b.K(), b.N())
		}
		m := x.Size(0)
		sizes := [2]int{m, b.N()}
		r, err := ctx.empty(tensor.Float32, sizes[:])
		if err != nil {
			return err
		}
		// A bias of one row joins the product in registers; any other is
		// copied into the result, which the product then adds to.
		beta, row := float32(0), []float32(nil)
		if bias != nil {
			if bias.DType() != tensor.Float32 {
				ctx.Pool.Release(r)
				return errorf("self %s is not f32", bias.Type())
			}
			if row = biasRow(bias, m, b.N()); row == nil {
				if err := tensor.Copy(r, bias); err != nil {
					ctx.Pool.Release(r)
					return errorf("self %s cannot be broadcast to the result %s", bias.Type(), r.Type())
				}
				beta = 1
			}
		}
		s := x.Strides()
		ta, lda, ok := gemmLayout(m, b.K(), s[0], s[1])
		if !ok {
			c, err := ctx.temp(tensor.Float32, x.Sizes())
			if err == nil {
				err = tensor.Copy(c, x)
			}
			if err != nil {
				ctx.Pool.Release(r)
				return err
			}
			x, ta, lda = c, false, b.K()
		}
		if m > 0 && b.N() > 0 {
			gemm.SgemmPackedThreads(ctx.Threads, ta, m, 1, tensor.Data[float32](x), lda, b, beta, tensor.Contig[float32](r), b.N(), row)
		}
		out[0] = value.FromTensor(r)
		return nil
	}
}

// biasRow returns the n values that every row of a float32 bias broadcast
// to [m, n] holds, when they are one contiguous row in memory: a bias of
// [n] (a linear layer's), [1, n], or [m, n] expanded from one row. It
// returns nil for any other bias (one value per row or per element, a
// scalar, a strided row, a shape that does not broadcast), which the
// caller copies into the result instead.
func biasRow(bias *tensor.Tensor, m, n int) []float32 {
	d := bias.Dim()
	if bias.DType() != tensor.Float32 || d < 1 || d > 2 || n < 1 || bias.Size(-1) != n {
		return nil
	}
	st := bias.Strides()
	if n > 1 && st[d-1] != 1 {
		return nil
	}
	if d == 2 && bias.Size(0) != 1 && (bias.Size(0) != m || st[0] != 0) {
		return nil
	}
	v := tensor.Data[float32](bias)
	if len(v) < n {
		return nil
	}
	return v[:n]
}

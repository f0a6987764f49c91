package kernels

import (
	"math"

	"github.com/seam-rt/seam/kernels/internal/par"
	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func init() {
	register(nativeLayerNorm, "aten.native_layer_norm.default")
	register(layerNorm, "aten.layer_norm.default")
	register(rmsNorm, "aten.rms_norm.default")
	register(batchNormInference(false), "aten._native_batch_norm_legit_no_training.default")
	register(batchNormInference(true), "aten._native_batch_norm_legit.default")
	register(groupNorm, "aten.native_group_norm.default")
}

// floatRows returns x as contiguous float32 (a temp when it is not), for
// row-wise kernels.
func floatRows(ctx *Context, x *tensor.Tensor) ([]float32, error) {
	if x.DType() == tensor.Float32 && x.IsContiguous() {
		return tensor.Contig[float32](x), nil
	}
	c, err := ctx.temp(tensor.Float32, x.Sizes())
	if err != nil {
		return nil, err
	}
	if err := tensor.Copy(c, x); err != nil {
		return nil, err
	}
	return tensor.Contig[float32](c), nil
}

// affine reads an optional per-feature weight or bias of n elements.
func affine(ctx *Context, t *tensor.Tensor, n int, name string) ([]float32, error) {
	if t == nil {
		return nil, nil
	}
	if t.Numel() != n {
		return nil, errorf("%s is %s but the normalized shape has %d elements", name, t.Type(), n)
	}
	return floatRows(ctx, t)
}

// float64Rows returns x as contiguous float64 (a temp when it is not):
// float64 inputs normalise in float64, as ATen's double kernels do.
func float64Rows(ctx *Context, x *tensor.Tensor) ([]float64, error) {
	if x.DType() == tensor.Float64 && x.IsContiguous() {
		return tensor.Contig[float64](x), nil
	}
	c, err := ctx.temp(tensor.Float64, x.Sizes())
	if err != nil {
		return nil, err
	}
	if err := tensor.Copy(c, x); err != nil {
		return nil, err
	}
	return tensor.Contig[float64](c), nil
}

// affine64 is affine in float64.
func affine64(ctx *Context, t *tensor.Tensor, n int, name string) ([]float64, error) {
	if t == nil {
		return nil, nil
	}
	if t.Numel() != n {
		return nil, errorf("%s is %s but the normalized shape has %d elements", name, t.Type(), n)
	}
	return float64Rows(ctx, t)
}

// moments64 is the mean and biased variance of x, in two passes.
func moments64(x []float64) (mean, variance float64) {
	if len(x) == 0 {
		return 0, 0
	}
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x))
}

// normalize64 writes (x - mean)*rstd, times g and plus b where given
// (indexed by ch(i)).
func normalize64(o, x []float64, mean, rstd float64, g, b []float64, ch func(int) int) {
	for i, v := range x {
		y := (v - mean) * rstd
		if g != nil {
			y *= g[ch(i)]
		}
		if b != nil {
			y += b[ch(i)]
		}
		o[i] = y
	}
}

func identity(i int) int { return i }

// layerNorm64 is layerNormCore for float64 input.
func layerNorm64(ctx *Context, x, w, b *tensor.Tensor, axis, n, rows int, eps float64) (out, mean, rstd *tensor.Tensor, err error) {
	in, err := float64Rows(ctx, x)
	if err != nil {
		return nil, nil, nil, err
	}
	gw, err := affine64(ctx, w, n, "weight")
	if err != nil {
		return nil, nil, nil, err
	}
	gb, err := affine64(ctx, b, n, "bias")
	if err != nil {
		return nil, nil, nil, err
	}
	ss := append([]int(nil), x.Sizes()[:axis]...)
	for range x.Sizes()[axis:] {
		ss = append(ss, 1)
	}
	if out, err = ctx.empty(tensor.Float64, x.Sizes()); err != nil {
		return nil, nil, nil, err
	}
	if mean, err = ctx.empty(tensor.Float64, ss); err != nil {
		return nil, nil, nil, err
	}
	if rstd, err = ctx.empty(tensor.Float64, ss); err != nil {
		return nil, nil, nil, err
	}
	o, ms, rs := tensor.Contig[float64](out), tensor.Contig[float64](mean), tensor.Contig[float64](rstd)
	for r := 0; r < rows; r++ {
		row := in[r*n : (r+1)*n]
		m, v := moments64(row)
		ms[r], rs[r] = m, 1/math.Sqrt(v+eps)
		normalize64(o[r*n:(r+1)*n], row, m, rs[r], gw, gb, identity)
	}
	return out, mean, rstd, nil
}

// layerNormCore normalises the trailing dims of x (N elements per row);
// mean and rstd may be nil.
func layerNormCore(ctx *Context, x *tensor.Tensor, normalized []int, w, b *tensor.Tensor, eps float64) (out, mean, rstd *tensor.Tensor, err error) {
	defer ctx.releaseTemps()
	axis := x.Dim() - len(normalized)
	if axis < 0 || !tensor.EqualInts(x.Sizes()[axis:], normalized) {
		n := append([]int(nil), normalized...)
		return nil, nil, nil, errorf("given normalized_shape=%v, expected input with shape [*, %v], but got input of size %v", n, n, x.Sizes())
	}
	if !x.DType().IsFloat() {
		return nil, nil, nil, dtypeErr("layer_norm", x.DType())
	}
	n := tensor.Numel(normalized)
	rows := 1
	for _, s := range x.Sizes()[:axis] {
		rows *= s
	}
	if x.DType() == tensor.Float64 {
		return layerNorm64(ctx, x, w, b, axis, n, rows, eps)
	}
	in, err := floatRows(ctx, x)
	if err != nil {
		return nil, nil, nil, err
	}
	gw, err := affine(ctx, w, n, "weight")
	if err != nil {
		return nil, nil, nil, err
	}
	gb, err := affine(ctx, b, n, "bias")
	if err != nil {
		return nil, nil, nil, err
	}
	if out, err = ctx.empty(x.DType(), x.Sizes()); err != nil {
		return nil, nil, nil, err
	}
	var statShape [8]int
	ss := append(statShape[:0], x.Sizes()[:axis]...)
	for range normalized {
		ss = append(ss, 1)
	}
	if mean, err = ctx.empty(x.DType(), ss); err != nil {
		return nil, nil, nil, err
	}
	if rstd, err = ctx.empty(x.DType(), ss); err != nil {
		return nil, nil, nil, err
	}
	o := tensor.Contig[float32](out)
	dst := o
	if x.DType() != tensor.Float32 {
		t, err := ctx.temp(tensor.Float32, x.Sizes())
		if err != nil {
			return nil, nil, nil, err
		}
		dst = tensor.Contig[float32](t)
		defer func() { _ = tensor.Copy(out, t) }()
	}
	means, rstds := ctx.scratchF64(2 * rows)[:rows], ctx.scratchF64(2 * rows)[rows:]
	if gw != nil && gb != nil && n > 0 {
		// Rows on up to ctx.Threads goroutines, each computed alone.
		if k := par.Chunks(ctx.Threads, rows, layerNormCost*float64(n)); k > 1 {
			par.For(k, rows, 1, func(lo, hi int) {
				vec.LayerNormRows(dst[lo*n:], in[lo*n:], gw, gb, means[lo:], rstds[lo:], n, hi-lo, eps)
			})
		} else {
			vec.LayerNormRows(dst, in, gw, gb, means, rstds, n, rows, eps)
		}
	} else {
		for r := 0; r < rows; r++ {
			row := in[r*n : (r+1)*n]
			m, rs := layerNormRow(dst[r*n:(r+1)*n], row, gw, gb, eps)
			means[r], rstds[r] = m, rs
		}
	}
	writeFloats(mean, means)
	writeFloats(rstd, rstds)
	return out, mean, rstd, nil
}

// layerNormRow follows ATen's CPU kernel: moments in higher precision, then
// y = (x - mean) * rstd * gamma + beta in float32.
func layerNormRow(o, x, g, b []float32, eps float64) (float64, float64) {
	if len(x) == 0 {
		return 0, math.Inf(1)
	}
	mean, variance := vec.MeanVar(x)
	rstd := 1 / math.Sqrt(math.Max(variance, 0)+eps)
	m32, r32 := float32(mean), float32(rstd)
	o = o[:len(x)]
	if g != nil && b != nil {
		vec.Normalize(o, x, g, b, m32, r32)
		return mean, rstd
	}
	for i, v := range x {
		y := (v - m32) * r32
		if g != nil {
			y *= g[i]
		}
		if b != nil {
			y += b[i]
		}
		o[i] = y
	}
	return mean, rstd
}

func layerNormArgs(args []value.Value, buf []int) (x, w, b *tensor.Tensor, normalized []int, eps float64, err error) {
	arg := readArgs(args)
	x, normalized, w, b, eps = arg.Tensor(), arg.Ints(buf), arg.OptTensor(), arg.OptTensor(), arg.Double()
	return x, w, b, normalized, eps, arg.Err()
}

func nativeLayerNorm(ctx *Context, args, out []value.Value) error {
	var buf [8]int
	x, w, b, normalized, eps, err := layerNormArgs(args, buf[:0])
	if err != nil {
		return err
	}
	o, m, r, err := layerNormCore(ctx, x, normalized, w, b, eps)
	if err != nil {
		return err
	}
	out[0], out[1], out[2] = value.FromTensor(o), value.FromTensor(m), value.FromTensor(r)
	return nil
}

func layerNorm(ctx *Context, args, out []value.Value) error {
	var buf [8]int
	x, w, b, normalized, eps, err := layerNormArgs(args, buf[:0])
	if err != nil {
		return err
	}
	o, m, r, err := layerNormCore(ctx, x, normalized, w, b, eps)
	if err != nil {
		return err
	}
	ctx.Pool.Release(m)
	ctx.Pool.Release(r)
	out[0] = value.FromTensor(o)
	return nil
}

// rmsNorm is ATen's composite rms_norm: x * rsqrt(mean(x^2) + eps) * weight
// in float32 (opmath), with eps defaulting to the dtype's machine epsilon.
func rmsNorm(ctx *Context, args, out []value.Value) error {
	defer ctx.releaseTemps()
	var buf [8]int
	arg := readArgs(args)
	x, normalized, w := arg.Tensor(), arg.Ints(buf[:0]), arg.OptTensor()
	if err := arg.Err(); err != nil {
		return err
	}
	eps := arg.OptDouble(epsilonOf(x.DType()))
	if err := arg.Err(); err != nil {
		return err
	}
	axis := x.Dim() - len(normalized)
	if axis < 0 || !tensor.EqualInts(x.Sizes()[axis:], normalized) {
		n := append([]int(nil), normalized...)
		return errorf("given normalized_shape=%v, expected input with shape [*, %v], but got input of size %v", n, n, x.Sizes())
	}
	if !x.DType().IsFloat() {
		return dtypeErr("rms_norm", x.DType())
	}
	n := tensor.Numel(normalized)
	if x.DType() == tensor.Float64 {
		in, err := float64Rows(ctx, x)
		if err != nil {
			return err
		}
		g, err := affine64(ctx, w, n, "weight")
		if err != nil {
			return err
		}
		res, err := ctx.empty(tensor.Float64, x.Sizes())
		if err != nil {
			return err
		}
		o := tensor.Contig[float64](res)
		for r := 0; n > 0 && r+n <= len(in); r += n {
			ss := 0.0
			for _, v := range in[r : r+n] {
				ss += v * v
			}
			normalize64(o[r:r+n], in[r:r+n], 0, 1/math.Sqrt(ss/float64(n)+eps), g, nil, identity)
		}
		out[0] = value.FromTensor(res)
		return nil
	}
	in, err := floatRows(ctx, x)
	if err != nil {
		return err
	}
	g, err := affine(ctx, w, n, "weight")
	if err != nil {
		return err
	}
	res, err := ctx.empty(x.DType(), x.Sizes())
	if err != nil {
		return err
	}
	o := tensor.Contig[float32](res)
	tmp := res
	if x.DType() != tensor.Float32 {
		if tmp, err = ctx.temp(tensor.Float32, x.Sizes()); err != nil {
			return err
		}
		o = tensor.Contig[float32](tmp)
	}
	for r := 0; n > 0 && r+n <= len(in); r += n {
		row, dst := in[r:r+n], o[r:r+n]
		ss := 0.0
		for _, v := range row {
			ss += float64(v) * float64(v)
		}
		scale := float32(1 / math.Sqrt(ss/float64(n)+eps))
		for i, v := range row {
			y := v * scale
			if g != nil {
				y *= g[i]
			}
			dst[i] = y
		}
	}
	if tmp != res {
		if err := tensor.Copy(res, tmp); err != nil {
			return err
		}
	}
	out[0] = value.FromTensor(res)
	return nil
}

func epsilonOf(dt tensor.DType) float64 {
	switch dt {
	case tensor.Float64:
		return 2.220446049250313e-16
	case tensor.Float16:
		return 0.0009765625
	case tensor.BFloat16:
		return 0.0078125
	}
	return 1.1920928955078125e-07
}

// batchNormEval normalises per channel (dim 1) with given statistics, as
// ATen's CPU inference path: y = x*alpha + beta with alpha = w/sqrt(var+eps)
// and beta = b - mean*alpha.
func batchNormEval(ctx *Context, x, w, b, mean, variance *tensor.Tensor, eps float64) (*tensor.Tensor, error) {
	defer ctx.releaseTemps()
	if x.Dim() < 2 {
		return nil, errorf("batch_norm expects an input with at least 2 dims, got %s", x.Type())
	}
	if !x.DType().IsFloat() {
		return nil, dtypeErr("batch_norm", x.DType())
	}
	c := x.Size(1)
	var stats [4][]float64
	buf := ctx.scratchF64(6 * c)
	for i, t := range [...]*tensor.Tensor{w, b, mean, variance} {
		if t == nil {
			continue
		}
		if t.Numel() != c {
			return nil, errorf("batch_norm: expected %d per-channel values, got %s", c, t.Type())
		}
		stats[i] = buf[i*c : (i+1)*c]
		readFloats(stats[i], t)
	}
	ab := ctx.scratchF32(2 * c)
	alpha, beta := ab[:c], ab[c:]
	alpha64, beta64 := buf[4*c:5*c], buf[5*c:]
	for ch := 0; ch < c; ch++ {
		m, v := 0.0, 1.0
		if stats[2] != nil {
			m = stats[2][ch]
		}
		if stats[3] != nil {
			v = stats[3][ch]
		}
		a := 1 / math.Sqrt(v+eps)
		if stats[0] != nil {
			a *= stats[0][ch]
		}
		bb := -m * a
		if stats[1] != nil {
			bb += stats[1][ch]
		}
		alpha[ch], beta[ch] = float32(a), float32(bb)
		alpha64[ch], beta64[ch] = a, bb
	}
	inner := 1
	for _, s := range x.Sizes()[2:] {
		inner *= s
	}
	if x.DType() == tensor.Float64 {
		in, err := float64Rows(ctx, x)
		if err != nil {
			return nil, err
		}
		out, err := ctx.empty(tensor.Float64, x.Sizes())
		if err != nil {
			return nil, err
		}
		o := tensor.Contig[float64](out)
		for i, v := range in {
			ch := i / max(inner, 1) % c
			o[i] = v*alpha64[ch] + beta64[ch]
		}
		return out, nil
	}
	in, err := floatRows(ctx, x)
	if err != nil {
		return nil, err
	}
	out, err := ctx.empty(x.DType(), x.Sizes())
	if err != nil {
		return nil, err
	}
	dstT := out
	if x.DType() != tensor.Float32 {
		if dstT, err = ctx.temp(tensor.Float32, x.Sizes()); err != nil {
			return nil, err
		}
	}
	o := tensor.Contig[float32](dstT)
	for i := 0; i*inner < len(in) && inner > 0; i++ {
		ch := i % c
		a, bb := alpha[ch], beta[ch]
		vec.ScaleAdd(o[i*inner:(i+1)*inner], in[i*inner:(i+1)*inner], a, bb)
	}
	if dstT != out {
		if err := tensor.Copy(out, dstT); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// batchNormArgs reads input, weight, bias, running_mean and running_var,
// and, after training and momentum (legit) or momentum alone, eps.
func batchNormArgs(args []value.Value, legit bool) (x, w, b, m, v *tensor.Tensor, eps float64, err error) {
	arg := readArgs(args)
	x, w, b, m, v = arg.Tensor(), arg.OptTensor(), arg.OptTensor(), arg.Tensor(), arg.Tensor()
	if legit && arg.Bool() {
		return nil, nil, nil, nil, nil, 0, errorf("training-mode batch norm (which updates running statistics) is not supported")
	}
	arg.Skip(1) // momentum
	eps = arg.Double()
	return x, w, b, m, v, eps, arg.Err()
}

// emptyStats are the zero-size save_mean/save_invstd that inference batch
// norm returns.
func emptyStats(ctx *Context, dt tensor.DType, out []value.Value) error {
	zero := [1]int{0}
	for i := 1; i <= 2; i++ {
		t, err := ctx.empty(dt, zero[:])
		if err != nil {
			return err
		}
		out[i] = value.FromTensor(t)
	}
	return nil
}

// batchNormInference is _native_batch_norm_legit_no_training, and
// _native_batch_norm_legit when not training (legit).
func batchNormInference(legit bool) Kernel {
	return func(ctx *Context, args, out []value.Value) error {
		x, w, b, m, v, eps, err := batchNormArgs(args, legit)
		if err != nil {
			return err
		}
		r, err := batchNormEval(ctx, x, w, b, m, v, eps)
		if err != nil {
			return err
		}
		out[0] = value.FromTensor(r)
		return emptyStats(ctx, x.DType(), out)
	}
}

// groupNorm is native_group_norm: statistics per (sample, group), affine
// per channel; returns (out, mean [N, G], rstd [N, G]).
func groupNorm(ctx *Context, args, out []value.Value) error {
	defer ctx.releaseTemps()
	arg := readArgs(args)
	x, w, b := arg.Tensor(), arg.OptTensor(), arg.OptTensor()
	n, c, hw, g, eps := arg.Int(), arg.Int(), arg.Int(), arg.Int(), arg.Double()
	if err := arg.Err(); err != nil {
		return err
	}
	if g <= 0 || c%g != 0 || n*c*hw != x.Numel() || !x.DType().IsFloat() {
		return errorf("input %s does not match N=%d C=%d HxW=%d group=%d", x.Type(), n, c, hw, g)
	}
	if x.DType() == tensor.Float64 {
		return groupNorm64(ctx, x, w, b, n, c, hw, g, eps, out)
	}
	in, err := floatRows(ctx, x)
	if err != nil {
		return err
	}
	gw, err := affine(ctx, w, c, "weight")
	if err != nil {
		return err
	}
	gb, err := affine(ctx, b, c, "bias")
	if err != nil {
		return err
	}
	res, err := ctx.empty(x.DType(), x.Sizes())
	if err != nil {
		return err
	}
	o := tensor.Contig[float32](res)
	if x.DType() != tensor.Float32 {
		t, err := ctx.temp(tensor.Float32, x.Sizes())
		if err != nil {
			return err
		}
		o = tensor.Contig[float32](t)
		defer func() { _ = tensor.Copy(res, t) }()
	}
	stat := [2]int{n, g}
	mt, err := ctx.empty(x.DType(), stat[:])
	if err != nil {
		return err
	}
	rt, err := ctx.empty(x.DType(), stat[:])
	if err != nil {
		return err
	}
	means, rstds := make([]float64, n*g), make([]float64, n*g)
	per := c / g * hw
	for i := 0; i < n*g; i++ {
		block := in[i*per : (i+1)*per]
		s := 0.0
		for _, v := range block {
			s += float64(v)
		}
		mean := s / float64(max(per, 1))
		ss := 0.0
		for _, v := range block {
			ss += (float64(v) - mean) * (float64(v) - mean)
		}
		rstd := 1 / math.Sqrt(ss/float64(max(per, 1))+eps)
		means[i], rstds[i] = mean, rstd
		for j, v := range block {
			ch := (i%g)*(c/g) + j/max(hw, 1)
			y := (v - float32(mean)) * float32(rstd)
			if gw != nil {
				y *= gw[ch]
			}
			if gb != nil {
				y += gb[ch]
			}
			o[i*per+j] = y
		}
	}
	writeFloats(mt, means)
	writeFloats(rt, rstds)
	out[0], out[1], out[2] = value.FromTensor(res), value.FromTensor(mt), value.FromTensor(rt)
	return nil
}

// groupNorm64 is groupNorm for float64 input.
func groupNorm64(ctx *Context, x, w, b *tensor.Tensor, n, c, hw, g int, eps float64, out []value.Value) error {
	in, err := float64Rows(ctx, x)
	if err != nil {
		return err
	}
	gw, err := affine64(ctx, w, c, "weight")
	if err != nil {
		return err
	}
	gb, err := affine64(ctx, b, c, "bias")
	if err != nil {
		return err
	}
	stat := [2]int{n, g}
	res, err := ctx.empty(tensor.Float64, x.Sizes())
	if err != nil {
		return err
	}
	mt, err := ctx.empty(tensor.Float64, stat[:])
	if err != nil {
		return err
	}
	rt, err := ctx.empty(tensor.Float64, stat[:])
	if err != nil {
		return err
	}
	o, ms, rs := tensor.Contig[float64](res), tensor.Contig[float64](mt), tensor.Contig[float64](rt)
	per := c / g * hw
	for i := 0; i < n*g; i++ {
		block := in[i*per : (i+1)*per]
		m, v := moments64(block)
		ms[i], rs[i] = m, 1/math.Sqrt(v+eps)
		first := (i % g) * (c / g)
		normalize64(o[i*per:(i+1)*per], block, m, rs[i], gw, gb, func(j int) int { return first + j/max(hw, 1) })
	}
	out[0], out[1], out[2] = value.FromTensor(res), value.FromTensor(mt), value.FromTensor(rt)
	return nil
}

// layerNormCost is a layer norm element's work for par.Chunks, in the
// units of a multiply-add: two passes for the moments, one to normalise
// (6), doubled because a layer norm left whole on the caller reads rows
// that the ops before it wrote on other cores. A transformer's
// [128, 64] layer norms on two threads (Intel Xeon, every run split): at
// 6 they ran unsplit at 0.76-0.80x of their one-thread time, at 12 split
// at 1.01-1.06x.
const layerNormCost = 12

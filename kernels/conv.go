package kernels

import (
	"math"
	"sync"

	"github.com/seam-rt/seam/kernels/gemm"
	"github.com/seam-rt/seam/kernels/internal/par"
	"github.com/seam-rt/seam/kernels/internal/vec"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func init() {
	register(convolutionKernel, "aten.convolution.default")
	register(maxPool2dKernel, "aten.max_pool2d_with_indices.default")
	register(avgPool2dKernel, "aten.avg_pool2d.default")
	register(adaptiveAvgPool2dKernel, "aten._adaptive_avg_pool2d.default", "aten.adaptive_avg_pool2d.default")
}

// convolutionKernel handles 1-D and 2-D (non-transposed) convolution with
// stride, padding, dilation, groups and bias, directly or as im2col plus
// gemm per (sample, group). 1-D runs as 2-D with height 1.
func convolutionKernel(ctx *Context, args, out []value.Value) error {
	return convolution(ctx, args, out, nil)
}

// ConvolutionAct is aten.convolution.default followed by the activation
// act (aten.relu.default, aten.hardswish.default or
// aten.hardsigmoid.default) as one kernel, which an executor runs in
// place of the two when the convolution's result has no other use: a
// float32 output plane is activated as soon as it is computed, while it
// is in cache, by the loop the activation's own kernel runs, so the
// result is the two ops' own. ok is false for any other act.
func ConvolutionAct(act string) (k Kernel, ok bool) { return ConvolutionWith(act, nil) }

// ConvolutionWith is aten.convolution.default with the activation act
// fused as ConvolutionAct fuses it ("" for none) and, unless w is nil, the
// weight packed once (PackConvWeight of the constant weight every call
// passes) for the product that a 1x1 convolution of 1x1 planes is (a
// squeeze-excite block's gates), which would otherwise transpose and pack
// it on every call. ok is false for an act ConvolutionAct refuses.
func ConvolutionWith(act string, w *PackedConvWeight) (k Kernel, ok bool) {
	o := &convOpts{names: convNames(), packed: w}
	if act != "" {
		switch act {
		case "aten.relu.default":
			o.act = vec.Relu
		case "aten.hardswish.default":
			o.act = vec.Hardswish
		case "aten.hardsigmoid.default":
			o.act = vec.Hardsigmoid
		default:
			return nil, false
		}
		if o.actKernel, ok = Lookup(act); !ok {
			return nil, false
		}
	}
	if o.names == nil {
		return nil, false
	}
	return func(ctx *Context, args, out []value.Value) error {
		return convolution(ctx, args, out, o)
	}, true
}

// convNames are the convolution schema's argument names: no registry
// wrapper names ConvolutionWith's arguments, so it names them itself.
func convNames() []string {
	s, ok := ops.Lookup("aten.convolution.default")
	if !ok {
		return nil
	}
	names := make([]string, len(s.Args))
	for i, sa := range s.Args {
		names[i] = sa.Name
	}
	return names
}

// convOpts is what ConvolutionWith adds to a convolution: an activation,
// act on float32 planes and actKernel (the activation's registered
// kernel) on results of other dtypes, and a packed weight; names are the
// convolution's argument names.
type convOpts struct {
	act       func(dst, x []float32)
	actKernel Kernel
	packed    *PackedConvWeight
	names     []string
}

// PackedConvWeight is a float32 convolution weight [o, c, 1, 1] (or
// [o, c, 1]) packed once as the B operand (W^T, c x o) of the product a
// 1x1 convolution of 1x1 planes is; read-only, shared by every run.
type PackedConvWeight struct{ b *gemm.PackedB }

// PackConvWeight packs w for ConvolutionWith, or returns nil when w is not
// a contiguous float32 weight of a 1x1 kernel.
func PackConvWeight(w *tensor.Tensor) *PackedConvWeight {
	if w.DType() != tensor.Float32 || !w.IsContiguous() || w.Dim() < 3 || w.Dim() > 4 || w.Numel() == 0 {
		return nil
	}
	for _, s := range w.Sizes()[2:] {
		if s != 1 {
			return nil
		}
	}
	o, c := w.Size(0), w.Size(1)
	return &PackedConvWeight{gemm.PackB(true, c, o, tensor.Contig[float32](w), c)}
}

func convolution(ctx *Context, args, out []value.Value, o *convOpts) error {
	fused, err := convolutionInto(ctx, args, out, o)
	if err != nil || o == nil || o.act == nil || fused {
		return err
	}
	// A result of another dtype: the activation's own kernel on it.
	res := []value.Value{{}}
	if err := o.actKernel(ctx, out[:1], res); err != nil {
		return err
	}
	ctx.Release(out[0])
	out[0] = res[0]
	return nil
}

// convolutionInto computes the convolution into out[0]; with an
// activation, it reports whether the float32 planes were activated as
// they were written.
func convolutionInto(ctx *Context, args, out []value.Value, opts *convOpts) (bool, error) {
	defer ctx.releaseTemps()
	var names []string
	if opts != nil {
		names = opts.names
	}
	arg := readArgs(args, names...)
	x, w, bias := arg.Tensor(), arg.Tensor(), arg.OptTensor()
	if err := arg.Err(); err != nil {
		return false, err
	}
	// The spatial rank says how many entries stride, padding and dilation
	// have.
	nd := x.Dim() - 2
	if nd != 1 && nd != 2 || w.Dim() != x.Dim() {
		return false, errorf("expected a 3-D or 4-D input with a weight of the same rank, got input %s and weight %s", x.Type(), w.Type())
	}
	stride, padding, dilation := arg.Pair(nd, [2]int{1, 1}), arg.Pair(nd, [2]int{0, 0}), arg.Pair(nd, [2]int{1, 1})
	transposed := arg.Bool()
	arg.Skip(1) // output_padding, which only a transposed convolution has
	groups := arg.Int()
	if err := arg.Err(); err != nil {
		return false, err
	}
	if transposed {
		return false, errorf("transposed convolution is not supported")
	}
	if x.DType() != w.DType() || !x.DType().IsFloat() {
		return false, errorf("input %s and weight %s must have the same float dtype", x.Type(), w.Type())
	}
	n, c := x.Size(0), x.Size(1)
	o := w.Size(0)
	if groups <= 0 || c%groups != 0 || o%groups != 0 || w.Size(1)*groups != c {
		return false, errorf("weight %s with groups=%d does not fit input %s (expected %d input channels)", w.Type(), groups, x.Type(), w.Size(1)*max(groups, 1))
	}
	// Geometry as 2-D.
	h, wd, kh, kw := 1, x.Size(-1), 1, w.Size(-1)
	sh, sw, ph, pw, dh, dw := 1, stride[nd-1], 0, padding[nd-1], 1, dilation[nd-1]
	if nd == 2 {
		h, kh = x.Size(2), w.Size(2)
		sh, ph, dh = stride[0], padding[0], dilation[0]
	}
	for _, v := range []int{sh, sw, dh, dw} {
		if v <= 0 {
			return false, errorf("stride and dilation must be positive: stride %v, dilation %v", stride, dilation)
		}
	}
	if ph < 0 || pw < 0 {
		return false, errorf("negative padding %v is not supported", padding)
	}
	oh := (h+2*ph-dh*(kh-1)-1)/sh + 1
	ow := (wd+2*pw-dw*(kw-1)-1)/sw + 1
	if oh <= 0 || ow <= 0 {
		return false, errorf("input %s is too small for kernel %s (output would be %dx%d)", x.Type(), w.Type(), oh, ow)
	}
	if bias != nil && (bias.Dim() != 1 || bias.Size(0) != o) {
		return false, errorf("bias %s must have %d elements", bias.Type(), o)
	}
	var sb [4]int
	shape := append(sb[:0], n, o)
	if nd == 2 {
		shape = append(shape, oh)
	}
	shape = append(shape, ow)
	res, err := ctx.empty(x.DType(), shape)
	if err != nil {
		return false, err
	}
	if x.DType() == tensor.Float64 {
		return false, convolution64(ctx, x, w, bias, res, conv2D{n, c, h, wd, o, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, groups}, out)
	}
	in, err := floatRows(ctx, x)
	if err != nil {
		return false, err
	}
	wt, err := floatRows(ctx, w)
	if err != nil {
		return false, err
	}
	var bv []float32
	if bias != nil {
		if bv, err = floatRows(ctx, bias); err != nil {
			return false, err
		}
	}
	dstT := res
	if res.DType() != tensor.Float32 {
		if dstT, err = ctx.temp(tensor.Float32, shape); err != nil {
			return false, err
		}
	}
	dst := tensor.Contig[float32](dstT)
	cv := &conv{n: n, c: c, h: h, w: wd, o: o, groups: groups, cg: c / groups, og: o / groups,
		kh: kh, kw: kw, sh: sh, sw: sw, ph: ph, pw: pw, dh: dh, dw: dw, oh: oh, ow: ow,
		in: in, wt: wt, bias: bv, dst: dst}
	if opts != nil {
		if opts.act != nil && dstT == res {
			cv.act = opts.act
		}
		if p := opts.packed; p != nil && p.b.K() == c && p.b.N() == o {
			cv.packed = p.b
		}
	}
	if err := cv.run(ctx); err != nil {
		return false, err
	}
	if dstT != res {
		if err := tensor.Copy(res, dstT); err != nil {
			return false, err
		}
	}
	out[0] = value.FromTensor(res)
	return cv.act != nil, nil
}

// directCost and depthwiseCost are a multiply-add's work for par.Chunks
// in the direct and the depthwise kernels, in the units of one in a large
// GEMM: measured on mobilenet_tiny_b8 (AMD EPYC Zen 3, one core), about 8
// and 6 GMAC/s against 25-30, since they load a weight and an input per
// multiply-add where a GEMM reuses both from registers.
const (
	directCost    = 3
	depthwiseCost = 4
)

// conv is one float32 convolution: NCHW input, OIHW weight, 2-D geometry.
type conv struct {
	n, c, h, w, o, groups, cg, og  int
	kh, kw, sh, sw, ph, pw, dh, dw int
	oh, ow                         int
	in, wt, bias, dst              []float32
	// act, when set, activates each output plane in place once written.
	act func(dst, x []float32)
	// packed, when set, is the weight as PackConvWeight packs it, for
	// pointwise1x1.
	packed *gemm.PackedB
}

// The direct kernel computes a convolution with at most directMaxOG
// output channels per group, or one wider than 1x1 (which im2col would
// copy kh*kw times) with at most directMaxTaps taps per output (few input
// channels) or at most directMaxPlane outputs: past these, im2col (none for
// 1x1) and a GEMM of that many rows and that long a k wins.
const (
	directMaxOG    = 4
	directMaxTaps  = 32
	directMaxPlane = 64
)

// direct reports whether the direct kernel computes cv.
func (cv *conv) direct() bool {
	wide := cv.kh*cv.kw > 1 || cv.sh*cv.sw > 1 || cv.ph+cv.pw > 0
	return cv.og <= directMaxOG || wide && (cv.cg*cv.kh*cv.kw <= directMaxTaps || cv.oh*cv.ow <= directMaxPlane)
}

// run computes every output plane: directly (depthwise and small-group
// convolutions, where the GEMM would have a handful of rows), or as im2col
// plus a GEMM per (sample, group), split by samples, or inside the GEMM
// for one sample, when ctx.Threads allows.
func (cv *conv) run(ctx *Context) error {
	planes := cv.oh * cv.ow
	macs := float64(planes * cv.cg * cv.kh * cv.kw)
	one := cv.kh == 1 && cv.kw == 1 && cv.sh == 1 && cv.sw == 1 && cv.ph == 0 && cv.pw == 0
	if one && cv.groups == 1 {
		if planes == 1 {
			cv.pointwise1x1(ctx.Threads)
		} else {
			cv.pointwise(ctx.Threads)
		}
		return nil
	}
	if cv.depthwise8() {
		cv.runDepthwise8(ctx, macs)
		return nil
	}
	if cv.direct() {
		// One item is one (sample, group).
		items := cv.n * cv.groups
		lay := cv.directLayout()
		offs := cv.tapOffsets(ctx.scratchInts(cv.cg*cv.kh*cv.kw), lay)
		if k := par.Chunks(ctx.Threads, items, directCost*macs*float64(cv.og)); k > 1 {
			// A copy, so that only this branch moves it to the heap.
			c := *cv
			par.For(k, items, 1, func(lo, hi int) {
				buf := getF32(lay.bufLen(c.groups, c.og))
				c.directGroups(lo, hi, *buf, offs, lay)
				f32Pool.Put(buf)
			})
		} else {
			cv.directGroups(0, items, ctx.scratchF32(lay.bufLen(cv.groups, cv.og)), offs, lay)
		}
		return nil
	}
	kk := cv.cg * cv.kh * cv.kw
	k := par.Chunks(ctx.Threads, cv.n, macs*float64(cv.o))
	if k > 1 && cv.n%k != 0 && cv.n < 4*k {
		// Whole samples would split unevenly (3 on two threads: 2 and 1);
		// the GEMM's columns split evenly.
		k = 1
	}
	var col []float32
	if !one {
		colT, err := ctx.temp(tensor.Float32, []int{k * kk * planes})
		if err != nil {
			return err
		}
		col = tensor.Contig[float32](colT)
	}
	if k > 1 {
		// Each chunk of samples has its own im2col buffer.
		chunk := (cv.n + k - 1) / k
		c := *cv
		par.For(k, cv.n, chunk, func(lo, hi int) {
			var buf []float32
			if col != nil {
				buf = col[lo/chunk*kk*planes:][:kk*planes]
			}
			c.gemmSamples(lo, hi, buf, 1)
		})
		return nil
	}
	cv.gemmSamples(0, cv.n, col, ctx.Threads)
	return nil
}

// depthwise8 reports whether cv runs as blocks of eight depthwise
// channels laid out as pixels of eight channels (vec.TapsHWC8): one FMA per
// tap for eight channels, no wide rows and no call per plane, which on the
// small planes of a MobileNet cost more than the arithmetic.
func (cv *conv) depthwise8() bool {
	return vec.HWC8() && cv.cg == 1 && cv.og == 1 && cv.groups >= 8 && cv.h*cv.w >= 8 && cv.oh*cv.ow >= 8
}

// runDepthwise8 computes a depthwise convolution eight channels at a time:
// one item is one (sample, block of eight channels), split across
// goroutines when ctx.Threads allows; the channels past the last multiple
// of eight run in the plane-at-a-time kernel. Items go sample by sample,
// so a split gives each goroutine whole samples, as the products and the
// elementwise kernels around it do: each core reads the planes it wrote
// rather than the other core's.
func (cv *conv) runDepthwise8(ctx *Context, macs float64) {
	pt := ctx.hwc8Tables(cv)
	in, out, tp, wp8 := pt.in, pt.out, pt.taps, pt.w
	items := cv.groups / 8 * cv.n
	bufLen := cv.depthwise8Len()
	if k := par.Chunks(ctx.Threads, items, depthwiseCost*macs*8); k > 1 {
		c := *cv
		par.For(k, items, 1, func(lo, hi int) {
			buf := getF32(bufLen)
			c.depthwise8Blocks(lo, hi, *buf, in, out, tp, wp8)
			f32Pool.Put(buf)
		})
	} else {
		cv.depthwise8Blocks(0, items, ctx.scratchF32(bufLen), in, out, tp, wp8)
	}
	if cv.groups%8 == 0 {
		return
	}
	lay := cv.directLayout()
	toffs := cv.tapOffsets(ctx.scratchInts(cv.kh*cv.kw), lay)
	buf := ctx.scratchF32(lay.bufLen(cv.groups, cv.og))
	for b := 0; b < cv.n; b++ {
		cv.directGroups(b*cv.groups+cv.groups&^7, (b+1)*cv.groups, buf, toffs, lay)
	}
}

// hwc8Geometry is what runDepthwise8's pixel tables depend on.
type hwc8Geometry struct{ h, w, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw int }

// hwc8Pixels are runDepthwise8's tables for one geometry: where input
// pixel (y, x) goes in the padded plane, where output pixel (oy, ox)'s
// window starts, each tap's offset from there, and each tap's place in a
// block's packed weights. They are read-only once made.
type hwc8Pixels struct{ in, out, taps, w vec.Pixels }

// maxHWC8Tables bounds the tables a Context keeps: a program has a few
// depthwise geometries, one with dynamic sizes may meet many.
const maxHWC8Tables = 64

// hwc8Tables returns cv's pixel tables, made once per geometry and kept in
// ctx: building them is a serial prefix of every call that a split cannot
// share (8.7 us of a batch-8 [16, 48x48] stride-2 depthwise convolution's
// 63 us on two threads, Intel Xeon).
func (ctx *Context) hwc8Tables(cv *conv) *hwc8Pixels {
	g := hwc8Geometry{cv.h, cv.w, cv.oh, cv.ow, cv.kh, cv.kw, cv.sh, cv.sw, cv.ph, cv.pw, cv.dh, cv.dw}
	if t := ctx.hwc8[g]; t != nil {
		return t
	}
	if ctx.hwc8 == nil || len(ctx.hwc8) >= maxHWC8Tables {
		ctx.hwc8 = map[hwc8Geometry]*hwc8Pixels{}
	}
	hw, plane, taps := cv.h*cv.w, cv.oh*cv.ow, cv.kh*cv.kw
	wp := cv.w + 2*cv.pw
	ints := make([]int, hw+plane+2*taps)
	inPix, outPix, offs, wPix := ints[:hw], ints[hw:][:plane], ints[hw+plane:][:taps], ints[hw+plane+taps:][:taps]
	for y := 0; y < cv.h; y++ {
		for x := 0; x < cv.w; x++ {
			inPix[y*cv.w+x] = ((y+cv.ph)*wp + x + cv.pw) * 8
		}
	}
	for oy := 0; oy < cv.oh; oy++ {
		for ox := 0; ox < cv.ow; ox++ {
			outPix[oy*cv.ow+ox] = (oy*cv.sh*wp + ox*cv.sw) * 8
		}
	}
	for ki := 0; ki < cv.kh; ki++ {
		for kj := 0; kj < cv.kw; kj++ {
			offs[ki*cv.kw+kj] = (ki*cv.dh*wp + kj*cv.dw) * 8
			wPix[ki*cv.kw+kj] = (ki*cv.kw + kj) * 8
		}
	}
	t := &hwc8Pixels{vec.NewPixels(inPix), vec.NewPixels(outPix), vec.NewPixels(offs), vec.NewPixels(wPix)}
	ctx.hwc8[g] = t
	return t
}

// depthwise8Len is the scratch depthwise8Blocks needs: the padded input
// plane of eight channels, the output pixels, the block's weights and
// biases.
func (cv *conv) depthwise8Len() int {
	return ((cv.h+2*cv.ph)*(cv.w+2*cv.pw) + cv.oh*cv.ow + cv.kh*cv.kw + 1) * 8
}

// depthwise8Blocks computes items [lo, hi) (item i is channels 8*(i%nb)
// to 8*(i%nb)+7 of sample i/nb, for the nb blocks of eight): the eight
// input planes packed into the padded pixels (whose border stays zero
// from the first clear), vec.TapsHWC8, the result unpacked into the
// output planes and activated there.
func (cv *conv) depthwise8Blocks(lo, hi int, buf []float32, inPix, outPix, offs, wPix vec.Pixels) {
	hw, plane, taps := cv.h*cv.w, cv.oh*cv.ow, offs.Len()
	pad := buf[:(cv.h+2*cv.ph)*(cv.w+2*cv.pw)*8]
	pix := buf[len(pad):][:plane*8]
	w := buf[len(pad)+len(pix):][:taps*8]
	bias := buf[len(pad)+len(pix)+len(w):][:8]
	clear(pad)
	clear(bias)
	nb := cv.groups / 8
	for it := lo; it < hi; it++ {
		g, b := it%nb*8, it/nb
		if it == lo || nb > 1 {
			vec.PackHWC8(w, wPix, cv.wt[g*taps:], taps)
			if cv.bias != nil {
				copy(bias, cv.bias[g:g+8])
			}
		}
		vec.PackHWC8(pad, inPix, cv.in[(b*cv.c+g)*hw:], hw)
		vec.TapsHWC8(pix, pad, outPix, offs, w, bias)
		out := cv.dst[(b*cv.o+g)*plane:][:8*plane]
		vec.UnpackHWC8(out, plane, pix, plane)
		if cv.act != nil {
			cv.act(out, out)
		}
	}
}

// pointwise1x1 computes a 1x1 convolution of 1x1 planes (squeeze-excite's
// gates) as the Linear layer it is: out[n, o] = x[n, c] * w[o, c]^T for
// all samples in one product, then the bias and the activation, instead
// of a product of one column per sample.
func (cv *conv) pointwise1x1(threads int) {
	if cv.packed != nil {
		// The bias joins the product in registers, rounded as the add
		// below rounds it.
		gemm.SgemmPackedThreads(threads, false, cv.n, 1, cv.in, cv.c, cv.packed, 0, cv.dst, cv.o, cv.bias)
		if cv.act != nil {
			cv.act(cv.dst, cv.dst)
		}
		return
	}
	gemm.SgemmThreads(threads, false, true, cv.n, cv.o, cv.c, 1, cv.in, cv.c, cv.wt, cv.c, 0, cv.dst, cv.o)
	if cv.bias != nil {
		for b := 0; b < cv.n; b++ {
			vec.Add(cv.dst[b*cv.o:(b+1)*cv.o], cv.dst[b*cv.o:(b+1)*cv.o], cv.bias)
		}
	}
	if cv.act != nil {
		cv.act(cv.dst, cv.dst)
	}
}

// pointwise computes a 1x1 convolution without groups as one product of
// the weight by the pixels of all samples (gemm.SgemmBatchColsThen: a
// small plane's pixels alone would leave most of a register tile empty,
// and A would be packed once per sample), the bias added in the product's
// registers, then the activation on each split's columns as soon as they
// are final: on the core that wrote them, rather than over the whole
// output on the caller's.
func (cv *conv) pointwise(threads int) {
	plane := cv.oh * cv.ow
	var then func(lo, hi int)
	if cv.act != nil {
		then = cv.activateCols
	}
	gemm.SgemmBatchColsThen(threads, cv.o, plane, cv.c, cv.n, 1, cv.wt, cv.c, cv.in, plane, cv.c*plane, 0, cv.dst, plane, cv.o*plane, cv.bias, then)
}

// activateCols activates columns [lo, hi) of the samples' pixels laid end
// to end (column j is pixel j%plane of sample j/plane) in every output
// channel: the whole samples among them in one call, since their planes
// are contiguous, the part-samples at either end row by row.
func (cv *conv) activateCols(lo, hi int) {
	plane := cv.oh * cv.ow
	rows := func(s, p0, p1 int) {
		for o := 0; o < cv.o; o++ {
			seg := cv.dst[(s*cv.o+o)*plane:][p0:p1]
			cv.act(seg, seg)
		}
	}
	first, last := (lo+plane-1)/plane, hi/plane // the whole samples [first, last)
	if first > last {
		// lo and hi fall within one sample.
		rows(lo/plane, lo%plane, hi%plane)
		return
	}
	if lo%plane != 0 {
		rows(lo/plane, lo%plane, plane)
	}
	if first < last {
		whole := cv.dst[first*cv.o*plane : last*cv.o*plane]
		cv.act(whole, whole)
	}
	if hi%plane != 0 {
		rows(last, 0, hi%plane)
	}
}

// gemmSamples computes samples [lo, hi) as im2col (into col, unless the
// convolution is 1x1) and a GEMM per group on up to threads goroutines.
func (cv *conv) gemmSamples(lo, hi int, col []float32, threads int) {
	plane := cv.oh * cv.ow
	kk := cv.cg * cv.kh * cv.kw
	hw := cv.h * cv.w
	for b := lo; b < hi; b++ {
		for g := 0; g < cv.groups; g++ {
			src := cv.in[(b*cv.c+g*cv.cg)*hw : (b*cv.c+(g+1)*cv.cg)*hw]
			a := src
			if col != nil {
				im2col(col, src, cv.cg, cv.h, cv.w, cv.kh, cv.kw, cv.sh, cv.sw, cv.ph, cv.pw, cv.dh, cv.dw, cv.oh, cv.ow)
				a = col
			}
			outG := cv.dst[(b*cv.o+g*cv.og)*plane : (b*cv.o+(g+1)*cv.og)*plane]
			// A batch of one: B read in place, the bias added in registers.
			var bias []float32
			if cv.bias != nil {
				bias = cv.bias[g*cv.og : (g+1)*cv.og]
			}
			gemm.SgemmBatchColsThreads(threads, cv.og, plane, kk, 1, 1, cv.wt[g*cv.og*kk:(g+1)*cv.og*kk], kk, a, plane, 0, 0, outG, plane, 0, bias)
			if cv.act != nil {
				cv.act(outG, outG)
			}
		}
	}
}

// directLayout is where the direct kernel puts one group's input: each
// channel zero-padded and split by stride into sh*sw phase planes of hq x
// wq (phase (ry, rx) holds the padded rows ry, ry+sh, ... and columns rx,
// rx+sw, ...), so that every tap of every output reads a shifted copy of
// one phase plane. Outputs are computed wq apart (wide rows; the columns
// past ow are thrown away), wide of them in all.
type directLayout struct {
	hq, wq, phase, chans, wide int
}

func (cv *conv) directLayout() directLayout {
	hq := (cv.h + 2*cv.ph + cv.sh - 1) / cv.sh
	wq := (cv.w + 2*cv.pw + cv.sw - 1) / cv.sw
	phase := hq * wq
	// vec.Taps keeps 64 outputs in registers at a time and goes 8 at a
	// time (waiting on FMA latency) past the last 64: a wide plane a little
	// short of 64 is cheaper computed to the next 64.
	wide := roundUp((cv.oh-1)*wq+cv.ow, 8)
	if wide%64 >= 40 {
		wide = roundUp(wide, 64)
	}
	return directLayout{hq: hq, wq: wq, phase: phase, chans: cv.cg * cv.sh * cv.sw * phase, wide: wide}
}

// directBlock is how many groups of one sample the direct kernel pads and
// computes at once: enough to spread a depthwise convolution's per-call
// work over many small planes, few enough that their padded inputs stay
// in L2 (64 KiB of them).
func (l directLayout) directBlock(groups int) int { return max(1, min(groups, 16384/l.chans)) }

// bufLen is the scratch one goroutine needs for og output channels per
// group: a block of padded groups, with room for the widest read past
// their end, their wide outputs, and a zero bias.
func (l directLayout) bufLen(groups, og int) int {
	gb := l.directBlock(groups)
	return gb*l.chans + l.wide + gb*og*l.wide + gb*og
}

// f32Pool holds the scratch of the goroutines a kernel starts (the
// caller's own goroutine uses its Context's).
var f32Pool sync.Pool

// getF32 returns a pooled buffer of at least n float32s, sliced to n.
func getF32(n int) *[]float32 {
	b, _ := f32Pool.Get().(*[]float32)
	if b == nil {
		b = new([]float32)
	}
	if cap(*b) < n {
		*b = make([]float32, n)
	}
	*b = (*b)[:n]
	return b
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }

// tapOffsets lists where each tap (input channel, kernel row, kernel
// column, in the weight's order) reads the padded input, relative to its
// output: tap (ic, ki, kj) of output (y, x) is padded row y*sh + ki*dh,
// column x*sw + kj*dw, in phase ((ki*dh)%sh, (kj*dw)%sw).
func (cv *conv) tapOffsets(offs []int, l directLayout) []int {
	i := 0
	for ic := 0; ic < cv.cg; ic++ {
		for ki := 0; ki < cv.kh; ki++ {
			ry, qy := ki*cv.dh%cv.sh, ki*cv.dh/cv.sh
			for kj := 0; kj < cv.kw; kj++ {
				rx, qx := kj*cv.dw%cv.sw, kj*cv.dw/cv.sw
				offs[i] = ic*cv.sh*cv.sw*l.phase + (ry*cv.sw+rx)*l.phase + qy*l.wq + qx
				i++
			}
		}
	}
	return offs
}

// directGroups computes the output planes of items [lo, hi) (item i is
// sample i/groups, group i%groups), a block of consecutive groups of one
// sample at a time: their inputs padded and split by phase, then per
// group vec.TapsChannels over all its output channels and taps (the bias
// first), or for one channel per group vec.TapsPlanes over the whole
// block, and the wide rows copied out.
func (cv *conv) directGroups(lo, hi int, buf []float32, offs []int, l directLayout) {
	gb := l.directBlock(cv.groups)
	og, taps, hw, plane := cv.og, cv.cg*cv.kh*cv.kw, cv.h*cv.w, cv.oh*cv.ow
	pad := buf[:gb*l.chans+l.wide]
	wide := buf[len(pad):][:gb*og*l.wide]
	zero := buf[len(pad)+len(wide):][:gb*og]
	clear(zero)
	// padGroups writes the same places for every block, so the zeros of
	// the border, cleared once here, stay.
	clear(pad)
	for it := lo; it < hi; {
		b, g := it/cv.groups, it%cv.groups
		n := min(hi-it, gb, cv.groups-g) // groups g..g+n-1 of sample b
		cv.padGroups(pad[:n*l.chans+l.wide], cv.in[(b*cv.c+g*cv.cg)*hw:][:n*cv.cg*hw], n, l)
		bias := zero[:n*og]
		if cv.bias != nil {
			bias = cv.bias[g*og : (g+n)*og]
		}
		w := cv.wt[g*og*taps:][:n*og*taps]
		if og == 1 {
			vec.TapsPlanes(wide, l.wide, l.wide, pad, l.chans, offs, w, taps, bias)
		} else {
			for j := 0; j < n; j++ {
				vec.TapsChannels(wide[j*og*l.wide:], l.wide, l.wide, pad[j*l.chans:], offs, w[j*og*taps:][:og*taps], bias[j*og:(j+1)*og])
			}
		}
		for k := 0; k < n*og; k++ {
			out := cv.dst[(b*cv.o+g*og+k)*plane:][:plane]
			vec.CopyRows(out, cv.ow, wide[k*l.wide:], l.wq, cv.ow, cv.oh)
			if cv.act != nil {
				cv.act(out, out)
			}
		}
		it += n
	}
}

// padGroups lays out the input channels of n consecutive groups (src, n*cg
// h x w planes) in pad as directLayout describes, one group l.chans after
// the other. It writes no other place, so a pad cleared once keeps zeros
// everywhere else.
func (cv *conv) padGroups(pad, src []float32, n int, l directLayout) {
	sh, sw := cv.sh, cv.sw
	for ic := 0; ic < n*cv.cg; ic++ {
		base := ic * sh * sw * l.phase
		if sh == 2 && sw == 2 && cv.w%2 == 0 {
			// The input rows of each row phase at once: rows iy0, iy0+2, ...
			// are rows qy0, qy0+1, ... of phase ry, their even and odd
			// columns split into phases (ry, pw&1) and (ry, (pw+1)&1).
			plane := src[ic*cv.h*cv.w:][:cv.h*cv.w]
			pw := cv.pw
			for ry := 0; ry < 2; ry++ {
				iy0 := (ry - cv.ph%2 + 2) % 2
				rows := (cv.h - iy0 + 1) / 2
				if rows <= 0 {
					continue
				}
				row := base + ry*2*l.phase + (iy0+cv.ph)/2*l.wq
				vec.DeinterleaveRows(pad[row+pw&1*l.phase+pw>>1:], pad[row+(pw+1)&1*l.phase+(pw+1)>>1:], l.wq,
					plane[iy0*cv.w:], 2*cv.w, cv.w/2, rows)
			}
			continue
		}
		if sh == 1 && sw == 1 {
			vec.CopyRows(pad[base+cv.ph*l.wq+cv.pw:], l.wq, src[ic*cv.h*cv.w:], cv.w, cv.w, cv.h)
			continue
		}
		// Padded row r = iy + ph is row qy of phase ry.
		ry, qy := cv.ph%sh, cv.ph/sh
		for iy := 0; iy < cv.h; iy, ry = iy+1, ry+1 {
			if ry == sh {
				ry, qy = 0, qy+1
			}
			line := src[(ic*cv.h+iy)*cv.w:][:cv.w]
			row := base + ry*sw*l.phase + qy*l.wq
			switch sw {
			case 1:
				vec.CopyRows(pad[row+cv.pw:], cv.w, line, cv.w, cv.w, 1)
				continue
			case 2:
				// Even columns to one phase, odd ones to the other.
				pw := cv.pw
				vec.Deinterleave(pad[row+pw&1*l.phase+pw>>1:][:(cv.w+1)/2], pad[row+(pw+1)&1*l.phase+(pw+1)>>1:][:cv.w/2], line)
				continue
			}
			// Columns ix with (ix + pw) % sw == rx go to phase rx, from
			// column (ix + pw) / sw.
			for rx := 0; rx < sw; rx++ {
				ix0 := ((rx-cv.pw)%sw + sw) % sw
				d := pad[row+rx*l.phase+(ix0+cv.pw)/sw:]
				j := 0
				for ix := ix0; ix < cv.w; ix += sw {
					d[j] = line[ix]
					j++
				}
			}
		}
	}
}

// im2col lays out the receptive fields of one group's channels as a
// [c*kh*kw, oh*ow] matrix, zero where the window reads padding. Each output
// row is split once into its padded ends and the run of columns that read
// the input (a plain copy at stride 1).
func im2col(col, src []float32, c, h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow int) {
	plane := oh * ow
	if sh == 1 && sw == 1 && ow == w {
		im2colSame(col, src, c, h, w, kh, kw, ph, pw, dh, dw, oh)
		return
	}
	for ch := 0; ch < c; ch++ {
		for ki := 0; ki < kh; ki++ {
			for kj := 0; kj < kw; kj++ {
				row := col[((ch*kh+ki)*kw+kj)*plane:][:plane]
				// Columns xo in [x0, x1) read ix = xo*sw + off in [0, w).
				off := kj*dw - pw
				x0 := 0
				if off < 0 {
					x0 = min((-off+sw-1)/sw, ow)
				}
				x1 := 0
				if w-1-off >= 0 {
					x1 = min((w-1-off)/sw+1, ow)
				}
				x1 = max(x1, x0)
				for y := 0; y < oh; y++ {
					iy := y*sh - ph + ki*dh
					r := row[y*ow : (y+1)*ow]
					if iy < 0 || iy >= h {
						clear(r)
						continue
					}
					line := src[(ch*h+iy)*w : (ch*h+iy+1)*w]
					clear(r[:x0])
					clear(r[x1:])
					if sw == 1 && x0 < x1 {
						copy(r[x0:x1], line[x0+off:])
						continue
					}
					for xo, ix := x0, x0*sw+off; xo < x1; xo, ix = xo+1, ix+sw {
						r[xo] = line[ix]
					}
				}
			}
		}
	}
}

// im2colSame is im2col at stride 1 when output rows are as wide as input
// rows ("same" padding along the width): each tap's row of col is then the
// input plane shifted by a constant, so it is one copy, with the columns
// and rows that fall in the padding cleared afterwards.
func im2colSame(col, src []float32, c, h, w, kh, kw, ph, pw, dh, dw, oh int) {
	plane := oh * w
	for ch := 0; ch < c; ch++ {
		in := src[ch*h*w : (ch+1)*h*w]
		for ki := 0; ki < kh; ki++ {
			dy := ki*dh - ph
			// Output rows y in [y0, y1) read input rows y+dy in [0, h).
			y0, y1 := max(0, -dy), min(oh, h-dy)
			for kj := 0; kj < kw; kj++ {
				row := col[((ch*kh+ki)*kw+kj)*plane:][:plane]
				dx := kj*dw - pw
				x0, x1 := max(0, -dx), min(w, w-dx)
				if y0 >= y1 || x0 >= x1 {
					clear(row)
					continue
				}
				clear(row[:y0*w])
				clear(row[y1*w:])
				// Rows y0..y1-1 from the first valid column of the first row to
				// the last valid column of the last row; in between, the
				// columns outside [x0, x1) pick up neighbouring input and are
				// cleared below.
				start, end := y0*w+x0, (y1-1)*w+x1
				shift := dy*w + dx
				copy(row[start:end], in[start+shift:end+shift])
				if x0 > 0 || x1 < w {
					for y := y0; y < y1; y++ {
						r := row[y*w : (y+1)*w]
						clear(r[:x0])
						clear(r[x1:])
					}
				}
			}
		}
	}
}

// poolOutput is ATen's pooling_output_shape.
func poolOutput(in, k, pad, stride, dil int, ceil bool) int {
	num := in + 2*pad - dil*(k-1) - 1
	if ceil {
		num += stride - 1
	}
	o := floorDiv(num, stride) + 1
	if ceil && (o-1)*stride >= in+pad {
		o--
	}
	return o
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// poolGeom is the kernel/stride/padding(/dilation) of 2-D pooling over
// a 3-D or 4-D input.
type poolGeom struct {
	planes, h, w, oh, ow int
	kh, kw, sh, sw       int
	ph, pw, dh, dw       int
}

// poolArgs reads the pooling geometry; the output shape is appended to
// shapeBuf[:0].
func poolArgs(arg *argReader, x *tensor.Tensor, withDilation bool, shapeBuf []int) (poolGeom, []int, error) {
	var g poolGeom
	if x.Dim() != 3 && x.Dim() != 4 {
		return g, nil, errorf("expected 3D or 4D input, got %s", x.Type())
	}
	k := arg.Pair(2, [2]int{1, 1})
	s := arg.Pair(2, k) // stride=[] is the kernel size
	p := arg.Pair(2, [2]int{0, 0})
	d := [2]int{1, 1}
	if withDilation {
		d = arg.Pair(2, d)
	}
	ceil := arg.Bool()
	if err := arg.Err(); err != nil {
		return g, nil, err
	}
	g.kh, g.kw, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw = k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1]
	if g.kh <= 0 || g.kw <= 0 || g.sh <= 0 || g.sw <= 0 || g.dh <= 0 || g.dw <= 0 {
		return g, nil, errorf("kernel size, stride and dilation must be positive")
	}
	if g.ph < 0 || g.pw < 0 || g.ph > g.kh/2 || g.pw > g.kw/2 {
		return g, nil, errorf("pad should be at most half of effective kernel size, but got pad=%v and kernel_size=%v", p, k)
	}
	g.h, g.w = x.Size(-2), x.Size(-1)
	g.oh = poolOutput(g.h, g.kh, g.ph, g.sh, g.dh, ceil)
	g.ow = poolOutput(g.w, g.kw, g.pw, g.sw, g.dw, ceil)
	if g.oh <= 0 || g.ow <= 0 {
		return g, nil, errorf("given input size %s, the calculated output size %dx%d is too small", x.Type(), g.oh, g.ow)
	}
	g.planes = x.Numel() / max(g.h*g.w, 1)
	shape := append(append(shapeBuf[:0], x.Sizes()[:x.Dim()-2]...), g.oh, g.ow)
	return g, shape, nil
}

func maxPool2dKernel(ctx *Context, args, out []value.Value) error {
	return maxPool2d(ctx, args, out, true)
}

// MaxPool2dValues is the kernel of aten.max_pool2d_with_indices.default
// for a node whose indices nothing reads (the runtime's poolvalues pass):
// out[0] is the pooled values, bit for bit the full kernel's, and out[1]
// is left empty. Without indices to keep, the common 2x2 window of stride
// 2 runs as vector maxima of the window's taps in order.
func MaxPool2dValues(ctx *Context, args, out []value.Value) error {
	return maxPool2d(ctx, args, out, false)
}

func maxPool2d(ctx *Context, args, out []value.Value, indices bool) error {
	defer ctx.releaseTemps()
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if !x.DType().IsFloat() {
		return dtypeErr("max_pool2d", x.DType())
	}
	var sb [4]int
	g, shape, err := poolArgs(&arg, x, true, sb[:0])
	if err != nil {
		return err
	}
	if x.DType() == tensor.Float64 {
		if err := maxPool2d64(ctx, x, g, shape, out); err != nil {
			return err
		}
		if !indices {
			ctx.Pool.Release(out[1].Tensor())
			out[1] = value.Value{}
		}
		return nil
	}
	in, err := floatRows(ctx, x)
	if err != nil {
		return err
	}
	res, err := ctx.empty(x.DType(), shape)
	if err != nil {
		return err
	}
	vals := ctx.scratchF32(g.planes * g.oh * g.ow)
	if x.DType() == tensor.Float32 {
		vals = tensor.Contig[float32](res)
	}
	var idx []int64
	if indices {
		idxT, err := ctx.empty(tensor.Int64, shape)
		if err != nil {
			ctx.Pool.Release(res)
			return err
		}
		out[1] = value.FromTensor(idxT)
		idx = tensor.Contig[int64](idxT)
	}
	if idx == nil && x.DType() == tensor.Float32 && g.pairs() {
		g.maxPoolPairs(ctx, vals, in)
	} else {
		g.maxPool(ctx, vals, idx, in)
	}
	if x.DType() != tensor.Float32 {
		src, err := tensor.FromSlice(vals, append([]int(nil), shape...)...)
		if err == nil {
			err = tensor.Copy(res, src)
		}
		if err != nil {
			ctx.Pool.Release(res)
			if indices {
				ctx.Pool.Release(out[1].Tensor())
				out[1] = value.Value{}
			}
			return err
		}
	}
	out[0] = value.FromTensor(res)
	return nil
}

// pairs reports whether g is a 2x2 window of stride 2 without padding or
// dilation, every window whole.
func (g poolGeom) pairs() bool {
	return g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2 && g.ph == 0 && g.pw == 0 && g.dh == 1 && g.dw == 1 &&
		2*g.oh <= g.h && 2*g.ow <= g.w
}

// maxPoolPairs pools a pairs() geometry: the windows' top rows and their
// bottom rows each split into even and odd columns (four planes of taps),
// then the running maximum of the taps in ATen's order (top even, top
// odd, bottom even, bottom odd), as vec.KeepMax keeps it. With an even
// number of rows the top rows of all planes are every other row of the
// input, so each step is one call over all planes, not one per row.
func (g poolGeom) maxPoolPairs(ctx *Context, vals, in []float32) {
	planes, rows := g.planes, g.oh
	if g.h != 2*g.oh {
		planes, rows = 1, g.oh
	}
	n := planes * rows * g.ow
	buf := ctx.scratchF32(4 * n)
	e0, o0, e1, o1 := buf[:n], buf[n:2*n], buf[2*n:3*n], buf[3*n:]
	for p := 0; p < g.planes; p += planes {
		src := in[p*g.h*g.w:]
		vec.DeinterleaveRows(e0, o0, g.ow, src, 2*g.w, g.ow, planes*rows)
		vec.DeinterleaveRows(e1, o1, g.ow, src[g.w:], 2*g.w, g.ow, planes*rows)
		dst := vals[p*g.oh*g.ow:][:n]
		vec.KeepMax(dst, e0, o0)
		vec.KeepMax(dst, dst, e1)
		vec.KeepMax(dst, dst, o1)
	}
}

// maxPool pools any geometry into vals, and the taps' flat positions
// within their plane into idx unless it is nil.
func (g poolGeom) maxPool(ctx *Context, vals []float32, idx []int64, in []float32) {
	n := 0
	// The window taps in bounds: rows i in [i0, i1) for output row y,
	// columns j in [j0, j1) for output column xo.
	taps := func(o, stride, pad, dil, k, size int) (int, int) {
		base := o*stride - pad
		lo, hi := 0, k
		if base < 0 {
			lo = (-base + dil - 1) / dil
		}
		if last := base + (k-1)*dil; last >= size {
			hi = k - (last-size+dil)/dil
		}
		return lo, max(hi, lo)
	}
	cols := ctx.scratchInts(2 * g.ow)
	for xo := 0; xo < g.ow; xo++ {
		cols[2*xo], cols[2*xo+1] = taps(xo, g.sw, g.pw, g.dw, g.kw, g.w)
	}
	// As ATen's cpu_max_pool: the first tap in bounds starts the search, a
	// later tap wins when it is larger or NaN.
	for p := 0; p < g.planes; p++ {
		src := in[p*g.h*g.w : (p+1)*g.h*g.w]
		for y := 0; y < g.oh; y++ {
			i0, i1 := taps(y, g.sh, g.ph, g.dh, g.kh, g.h)
			full2 := i1-i0 == 2 && g.kh == 2 && g.kw == 2
			for xo := 0; xo < g.ow; xo++ {
				j0, j1 := cols[2*xo], cols[2*xo+1]
				best, at := float32(math.Inf(-1)), -1
				if full2 && j1-j0 == 2 {
					// A whole 2x2 window, unrolled.
					o := (y*g.sh-g.ph)*g.w + xo*g.sw - g.pw
					r, c := g.dh*g.w, g.dw
					best, at = src[o], o
					if v := src[o+c]; v > best || v != v {
						best, at = v, o+c
					}
					if v := src[o+r]; v > best || v != v {
						best, at = v, o+r
					}
					if v := src[o+r+c]; v > best || v != v {
						best, at = v, o+r+c
					}
				} else {
					for i := i0; i < i1; i++ {
						iy := y*g.sh - g.ph + i*g.dh
						for j := j0; j < j1; j++ {
							ix := xo*g.sw - g.pw + j*g.dw
							if v := src[iy*g.w+ix]; at < 0 || v > best || v != v {
								best, at = v, iy*g.w+ix
							}
						}
					}
				}
				vals[n] = best
				if idx != nil {
					idx[n] = int64(at)
				}
				n++
			}
		}
	}
}

func avgPool2dKernel(ctx *Context, args, out []value.Value) error {
	defer ctx.releaseTemps()
	arg := readArgs(args)
	x := arg.Tensor()
	if err := arg.Err(); err != nil {
		return err
	}
	if !x.DType().IsFloat() {
		return dtypeErr("avg_pool2d", x.DType())
	}
	var sb [4]int
	g, shape, err := poolArgs(&arg, x, false, sb[:0])
	if err != nil {
		return err
	}
	includePad, divisor := arg.Bool(), arg.OptInt(0)
	if err := arg.Err(); err != nil {
		return err
	}
	in, err := float64Rows(ctx, x)
	if err != nil {
		return err
	}
	vals := make([]float64, 0, g.planes*g.oh*g.ow)
	for p := 0; p < g.planes; p++ {
		src := in[p*g.h*g.w : (p+1)*g.h*g.w]
		for y := 0; y < g.oh; y++ {
			for xo := 0; xo < g.ow; xo++ {
				hs, ws := y*g.sh-g.ph, xo*g.sw-g.pw
				he, we := min(hs+g.kh, g.h+g.ph), min(ws+g.kw, g.w+g.pw)
				poolSize := (he - hs) * (we - ws)
				hs, ws, he, we = max(hs, 0), max(ws, 0), min(he, g.h), min(we, g.w)
				if hs >= he || ws >= we {
					vals = append(vals, 0)
					continue
				}
				s := 0.0
				for i := hs; i < he; i++ {
					for j := ws; j < we; j++ {
						s += src[i*g.w+j]
					}
				}
				div := poolSize
				switch {
				case divisor != 0:
					div = divisor
				case !includePad:
					div = (he - hs) * (we - ws)
				}
				vals = append(vals, s/float64(div))
			}
		}
	}
	res, err := ctx.empty(x.DType(), shape)
	if err != nil {
		return err
	}
	writeFloats(res, vals)
	out[0] = value.FromTensor(res)
	return nil
}

func adaptiveAvgPool2dKernel(ctx *Context, args, out []value.Value) error {
	defer ctx.releaseTemps()
	arg := readArgs(args)
	x, size := arg.Tensor(), arg.Pair(2, [2]int{1, 1})
	if err := arg.Err(); err != nil {
		return err
	}
	if x.Dim() != 3 && x.Dim() != 4 || !x.DType().IsFloat() {
		return errorf("adaptive_avg_pool2d expects a 3D or 4D float input, got %s", x.Type())
	}
	oh, ow := size[0], size[1]
	if oh <= 0 || ow <= 0 {
		return errorf("output size must be positive, got %v", size)
	}
	h, w := x.Size(-2), x.Size(-1)
	planes := x.Numel() / max(h*w, 1)
	in, err := float64Rows(ctx, x)
	if err != nil {
		return err
	}
	vals := make([]float64, 0, planes*oh*ow)
	for p := 0; p < planes; p++ {
		src := in[p*h*w : (p+1)*h*w]
		for y := 0; y < oh; y++ {
			hs, he := y*h/oh, ((y+1)*h+oh-1)/oh
			for xo := 0; xo < ow; xo++ {
				ws, we := xo*w/ow, ((xo+1)*w+ow-1)/ow
				s := 0.0
				for i := hs; i < he; i++ {
					for j := ws; j < we; j++ {
						s += src[i*w+j]
					}
				}
				vals = append(vals, s/float64(max((he-hs)*(we-ws), 1)))
			}
		}
	}
	shape := append(append([]int{}, x.Sizes()[:x.Dim()-2]...), oh, ow)
	res, err := ctx.empty(x.DType(), shape)
	if err != nil {
		return err
	}
	writeFloats(res, vals)
	out[0] = value.FromTensor(res)
	return nil
}

package kernels

import (
	"math"
	"math/rand"
	"testing"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// im2colRef is the element-by-element definition im2col must match.
func im2colRef(col, src []float32, c, h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow int) {
	plane := oh * ow
	for ch := 0; ch < c; ch++ {
		for ki := 0; ki < kh; ki++ {
			for kj := 0; kj < kw; kj++ {
				row := col[((ch*kh+ki)*kw+kj)*plane:][:plane]
				for y := 0; y < oh; y++ {
					for xo := 0; xo < ow; xo++ {
						iy, ix := y*sh-ph+ki*dh, xo*sw-pw+kj*dw
						v := float32(0)
						if iy >= 0 && iy < h && ix >= 0 && ix < w {
							v = src[(ch*h+iy)*w+ix]
						}
						row[y*ow+xo] = v
					}
				}
			}
		}
	}
}

func TestIm2colMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 6000; trial++ {
		c, h, w := 1+r.Intn(3), 1+r.Intn(9), 1+r.Intn(9)
		kh, kw := 1+r.Intn(4), 1+r.Intn(4)
		sh, sw, dh, dw := 1+r.Intn(3), 1+r.Intn(3), 1+r.Intn(3), 1+r.Intn(3)
		ph, pw := r.Intn(4), r.Intn(4)
		if trial%2 == 0 {
			// Stride 1 with output rows as wide as input rows: the shifted
			// copy path (im2colSame), any height padding.
			sh, sw = 1, 1
			kw = 1 + 2*r.Intn(3)
			pw = dw * (kw - 1) / 2
		}
		oh := (h+2*ph-dh*(kh-1)-1)/sh + 1
		ow := (w+2*pw-dw*(kw-1)-1)/sw + 1
		if h+2*ph-dh*(kh-1)-1 < 0 || w+2*pw-dw*(kw-1)-1 < 0 || oh <= 0 || ow <= 0 {
			continue
		}
		src := make([]float32, c*h*w)
		for i := range src {
			src[i] = float32(i + 1)
		}
		n := c * kh * kw * oh * ow
		got, want := make([]float32, n), make([]float32, n)
		for i := range got {
			got[i] = -1 // im2col must write every element
		}
		im2col(got, src, c, h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow)
		im2colRef(want, src, c, h, w, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("c%d h%d w%d k%dx%d s%dx%d p%dx%d d%dx%d: [%d] = %g, want %g",
					c, h, w, kh, kw, sh, sw, ph, pw, dh, dw, i, got[i], want[i])
			}
		}
	}
}

// max_pool2d agrees with ATen's definition over random geometry (padding,
// dilation, stride, ceil mode) and values with NaNs: the first tap in
// bounds starts, a later one wins when larger or NaN.
func TestMaxPoolMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	ctx := NewContext()
	for trial := 0; trial < 2000; trial++ {
		h, w := 1+r.Intn(9), 1+r.Intn(9)
		kh, kw := 1+r.Intn(4), 1+r.Intn(4)
		sh, sw, dh, dw := 1+r.Intn(3), 1+r.Intn(3), 1+r.Intn(2), 1+r.Intn(2)
		ph, pw := r.Intn(kh/2+1), r.Intn(kw/2+1)
		ceil := r.Intn(2) == 0
		src := make([]float32, 2*h*w)
		for i := range src {
			src[i] = float32(r.NormFloat64())
			if r.Intn(20) == 0 {
				src[i] = float32(math.NaN())
			}
		}
		x, _ := tensor.FromSlice(src, 2, h, w)
		args := []value.Value{value.FromTensor(x), value.FromInts([]int64{int64(kh), int64(kw)}),
			value.FromInts([]int64{int64(sh), int64(sw)}), value.FromInts([]int64{int64(ph), int64(pw)}),
			value.FromInts([]int64{int64(dh), int64(dw)}), value.FromBool(ceil)}
		out := make([]value.Value, 2)
		if err := maxPool2dKernel(ctx, args, out); err != nil {
			continue // geometry PyTorch rejects too
		}
		res, idx := out[0].Tensor(), out[1].Tensor()
		oh, ow := res.Size(1), res.Size(2)
		got, gotIdx := tensor.Contig[float32](res), tensor.Contig[int64](idx)
		for p := 0; p < 2; p++ {
			for y := 0; y < oh; y++ {
				for xo := 0; xo < ow; xo++ {
					best, at := float32(math.Inf(-1)), int64(-1)
					for i := 0; i < kh; i++ {
						for j := 0; j < kw; j++ {
							iy, ix := y*sh-ph+i*dh, xo*sw-pw+j*dw
							if iy < 0 || iy >= h || ix < 0 || ix >= w {
								continue
							}
							if v := src[p*h*w+iy*w+ix]; at < 0 || v > best || v != v {
								best, at = v, int64(iy*w+ix)
							}
						}
					}
					k := (p*oh+y)*ow + xo
					if !(got[k] == best || got[k] != got[k] && best != best) || gotIdx[k] != at {
						t.Fatalf("h%d w%d k%dx%d s%dx%d p%dx%d d%dx%d ceil %v: [%d %d %d] = %g@%d, want %g@%d",
							h, w, kh, kw, sh, sw, ph, pw, dh, dw, ceil, p, y, xo, got[k], gotIdx[k], best, at)
					}
				}
			}
		}
		ctx.Release(out[0])
		ctx.Release(out[1])
	}
}

// convRef is convolution by its definition, in float64.
func convRef(x, w, b []float32, n, c, h, wd, o, groups, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow int) []float64 {
	cg, og := c/groups, o/groups
	out := make([]float64, n*o*oh*ow)
	for bi := 0; bi < n; bi++ {
		for oc := 0; oc < o; oc++ {
			g := oc / og
			for y := 0; y < oh; y++ {
				for xo := 0; xo < ow; xo++ {
					s := 0.0
					if b != nil {
						s = float64(b[oc])
					}
					for ic := 0; ic < cg; ic++ {
						for ki := 0; ki < kh; ki++ {
							for kj := 0; kj < kw; kj++ {
								iy, ix := y*sh-ph+ki*dh, xo*sw-pw+kj*dw
								if iy < 0 || iy >= h || ix < 0 || ix >= wd {
									continue
								}
								s += float64(w[((oc*cg+ic)*kh+ki)*kw+kj]) * float64(x[((bi*c+g*cg+ic)*h+iy)*wd+ix])
							}
						}
					}
					out[((bi*o+oc)*oh+y)*ow+xo] = s
				}
			}
		}
	}
	return out
}

// Convolution, direct (depthwise, small groups) and through im2col, agrees
// with its definition over random geometry, and gives bitwise the same
// result on any number of threads.
func TestConvolutionMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	conv := func(ctx *Context, x, w, b *tensor.Tensor, groups int, s, p, d [2]int) *tensor.Tensor {
		bias := value.NoneValue()
		if b != nil {
			bias = value.FromTensor(b)
		}
		pair := func(v [2]int) value.Value { return value.FromInts([]int64{int64(v[0]), int64(v[1])}) }
		args := []value.Value{value.FromTensor(x), value.FromTensor(w), bias, pair(s), pair(p), pair(d),
			value.FromBool(false), value.FromInts([]int64{0, 0}), value.FromInt(int64(groups))}
		out := make([]value.Value, 1)
		if err := convolutionKernel(ctx, args, out); err != nil {
			t.Fatal(err)
		}
		return out[0].Tensor()
	}
	rnd := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	one, four := NewContext(), NewContext()
	four.Threads = 4
	// Large enough to be split: depthwise over planes, im2col over samples,
	// and one sample inside the GEMM.
	// Then 1x1 over 1x1 planes (squeeze-excite), one product for the batch;
	// and pointwise over small planes, the samples' pixels as one product
	// (tiles across one or several samples, a plane wider than a tile).
	big := [][7]int{{8, 32, 32, 1, 32, 3, 2}, {3, 216, 216, 1, 6, 5, 2}, {2, 20, 20, 1, 24, 3, 1}, {4, 16, 32, 16, 32, 3, 1}, {1, 32, 64, 32, 40, 3, 1}, {3, 24, 48, 24, 20, 5, 2},
		{3, 56, 216, 56, 1, 1, 1}, {8, 72, 40, 72, 3, 1, 1}, {8, 24, 70, 24, 6, 1, 1}, {3, 16, 20, 16, 5, 1, 1}, {2, 40, 24, 40, 12, 1, 1}}
	for trial := 0; trial < 300+len(big); trial++ {
		n, groups := 1+r.Intn(3), 1+r.Intn(4)
		cg, og := 1+r.Intn(3), []int{1, 1, 2, 3, 5, 8}[r.Intn(6)]
		if trial%4 == 0 {
			// Depthwise over 8 to 20 channels: blocks of eight channels,
			// and the rest plane by plane.
			cg, og, groups = 1, 1, 8+r.Intn(13)
		}
		c, o := cg*groups, og*groups
		h, wd := 1+r.Intn(12), 1+r.Intn(12)
		kh, kw := 1+r.Intn(5), 1+r.Intn(5)
		s := [2]int{1 + r.Intn(3), 1 + r.Intn(3)}
		d := [2]int{1 + r.Intn(2), 1 + r.Intn(2)}
		p := [2]int{r.Intn(3), r.Intn(3)}
		if trial >= 300 {
			bg := big[trial-300]
			n, c, o, groups, h, kh = bg[0], bg[1], bg[2], bg[1]/bg[3], bg[4], bg[5]
			cg, og = c/groups, o/groups
			wd, kw, s, d, p = h, kh, [2]int{bg[6], bg[6]}, [2]int{1, 1}, [2]int{kh / 2, kh / 2}
		}
		oh := (h+2*p[0]-d[0]*(kh-1)-1)/s[0] + 1
		ow := (wd+2*p[1]-d[1]*(kw-1)-1)/s[1] + 1
		if h+2*p[0]-d[0]*(kh-1)-1 < 0 || wd+2*p[1]-d[1]*(kw-1)-1 < 0 {
			continue
		}
		xv, wv := rnd(n*c*h*wd), rnd(o*cg*kh*kw)
		x, _ := tensor.FromSlice(xv, n, c, h, wd)
		w, _ := tensor.FromSlice(wv, o, cg, kh, kw)
		var bv []float32
		var b *tensor.Tensor
		if trial%2 == 0 {
			bv = rnd(o)
			b, _ = tensor.FromSlice(bv, o)
		}
		want := convRef(xv, wv, bv, n, c, h, wd, o, groups, kh, kw, s[0], s[1], p[0], p[1], d[0], d[1], oh, ow)
		got := tensor.Contig[float32](conv(one, x, w, b, groups, s, p, d))
		for i, v := range want {
			if math.Abs(float64(got[i])-v) > 1e-5*(1+math.Abs(v))+1e-6*float64(cg*kh*kw) {
				t.Fatalf("n%d c%d o%d groups%d %dx%d k%dx%d s%v p%v d%v: [%d] = %g, want %g",
					n, c, o, groups, h, wd, kh, kw, s, p, d, i, got[i], v)
			}
		}
		par := tensor.Contig[float32](conv(four, x, w, b, groups, s, p, d))
		for i := range got {
			if math.Float32bits(par[i]) != math.Float32bits(got[i]) {
				t.Fatalf("4 threads differ at %d: %g vs %g", i, par[i], got[i])
			}
		}
	}
}

// A convolution with a fused activation gives bitwise what the two
// kernels give one after the other: float32 through the direct and the
// GEMM paths (on one thread and on four), float64 through the activation's
// own kernel.
func TestConvolutionActMatchesTwoOps(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	pair := func(v int) value.Value { return value.FromInts([]int64{int64(v), int64(v)}) }
	for _, act := range []string{"aten.relu.default", "aten.hardswish.default", "aten.hardsigmoid.default"} {
		fused, ok := ConvolutionAct(act)
		if !ok {
			t.Fatalf("%s: no fused kernel", act)
		}
		actK, _ := Lookup(act)
		for _, c := range []struct{ n, c, h, o, k, s, g int }{
			{2, 8, 12, 8, 3, 1, 8}, {2, 3, 16, 16, 3, 2, 1}, {3, 32, 9, 48, 1, 1, 1}, {1, 16, 20, 32, 3, 1, 1}, {3, 56, 1, 216, 1, 1, 1},
			// Pointwise products split on four threads, the activation run
			// per split: splits that end inside a sample after whole ones,
			// and splits inside one sample.
			{8, 40, 6, 216, 1, 1, 1}, {2, 16, 30, 64, 1, 1, 1},
		} {
			for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
				for _, threads := range []int{1, 4} {
					mk := func(sizes ...int) *tensor.Tensor { return normalTensor(r, dt, sizes...) }
					x, w, b := mk(c.n, c.c, c.h, c.h), mk(c.o, c.c/c.g, c.k, c.k), mk(c.o)
					args := []value.Value{value.FromTensor(x), value.FromTensor(w), value.FromTensor(b), pair(c.s), pair(c.k / 2), pair(1),
						value.FromBool(false), pair(0), value.FromInt(int64(c.g))}
					ctx := NewContext()
					ctx.Threads = threads
					got, conv, want := make([]value.Value, 1), make([]value.Value, 1), make([]value.Value, 1)
					if err := fused(ctx, args, got); err != nil {
						t.Fatal(err)
					}
					if err := convolutionKernel(ctx, args, conv); err != nil {
						t.Fatal(err)
					}
					if err := actK(ctx, conv, want); err != nil {
						t.Fatal(err)
					}
					if !tensor.Equal(got[0].Tensor(), want[0].Tensor()) {
						t.Fatalf("%s %v %s on %d threads: fused result differs", act, c, dt, threads)
					}
				}
			}
		}
	}
}

// normalTensor is a tensor of dtype dt (float32 or float64) of normally
// distributed values that float32 holds exactly.
func normalTensor(r *rand.Rand, dt tensor.DType, sizes ...int) *tensor.Tensor {
	v := make([]float64, tensor.Numel(sizes))
	for i := range v {
		v[i] = float64(float32(r.NormFloat64()))
	}
	t, _ := tensor.FromSlice(v, sizes...)
	if dt == tensor.Float32 {
		t = mustF32(t)
	}
	return t
}

// mustF32 is t converted to float32.
func mustF32(t *tensor.Tensor) *tensor.Tensor {
	c, _ := tensor.FromSlice(make([]float32, t.Numel()), t.Sizes()...)
	if err := tensor.Copy(c, t); err != nil {
		panic(err)
	}
	return c
}

// MaxPool2dValues gives max_pool2d_with_indices' values bit for bit, and
// no indices: on random geometry, and on 2x2 windows of stride 2 (its
// vector path) over wide rows of ties between -0 and +0, and NaNs.
func TestMaxPoolValues(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	ctx := NewContext()
	odd := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), 1, -1}
	for trial := 0; trial < 1500; trial++ {
		h, w := 1+r.Intn(12), 1+r.Intn(40)
		kh, kw, sh, sw, dh, dw, ph, pw := 2, 2, 2, 2, 1, 1, 0, 0
		ceil := false
		if trial%3 == 0 {
			kh, kw = 1+r.Intn(4), 1+r.Intn(4)
			sh, sw, dh, dw = 1+r.Intn(3), 1+r.Intn(3), 1+r.Intn(2), 1+r.Intn(2)
			ph, pw = r.Intn(kh/2+1), r.Intn(kw/2+1)
			ceil = r.Intn(2) == 0
		}
		planes := 1 + r.Intn(3)
		src := make([]float32, planes*h*w)
		for i := range src {
			src[i] = odd[r.Intn(len(odd))]
			if r.Intn(2) == 0 {
				src[i] = float32(r.NormFloat64())
			}
		}
		for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
			x, _ := tensor.FromSlice(src, planes, h, w)
			if dt == tensor.Float64 {
				s64 := make([]float64, len(src))
				for i, v := range src {
					s64[i] = float64(v)
				}
				x, _ = tensor.FromSlice(s64, planes, h, w)
			}
			args := []value.Value{value.FromTensor(x), value.FromInts([]int64{int64(kh), int64(kw)}),
				value.FromInts([]int64{int64(sh), int64(sw)}), value.FromInts([]int64{int64(ph), int64(pw)}),
				value.FromInts([]int64{int64(dh), int64(dw)}), value.FromBool(ceil)}
			full, vals := make([]value.Value, 2), make([]value.Value, 2)
			errFull := maxPool2dKernel(ctx, args, full)
			errVals := MaxPool2dValues(ctx, args, vals)
			if (errFull == nil) != (errVals == nil) {
				t.Fatalf("trial %d: errors %v and %v", trial, errFull, errVals)
			}
			if errFull != nil {
				continue
			}
			if vals[1].Kind() != value.None && vals[1].Tensor() != nil {
				t.Fatalf("trial %d %v: indices made", trial, dt)
			}
			if !sameBits(full[0].Tensor(), vals[0].Tensor()) {
				t.Fatalf("trial %d %v: h%d w%d k%dx%d s%dx%d p%dx%d d%dx%d ceil %v: values differ", trial, dt, h, w, kh, kw, sh, sw, ph, pw, dh, dw, ceil)
			}
			ctx.Release(full[0])
			ctx.Release(full[1])
			ctx.Release(vals[0])
		}
	}
}

// sameBits reports whether two float tensors hold the same bits (-0 and
// +0 apart), NaNs aside, which may differ in payload only.
func sameBits(a, b *tensor.Tensor) bool {
	if a.DType() != b.DType() || !a.SameShape(b) {
		return false
	}
	if a.DType() == tensor.Float64 {
		x, y := tensor.Contig[float64](a), tensor.Contig[float64](b)
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) && !(x[i] != x[i] && y[i] != y[i]) {
				return false
			}
		}
		return true
	}
	x, y := tensor.Contig[float32](a), tensor.Contig[float32](b)
	for i := range x {
		if math.Float32bits(x[i]) != math.Float32bits(y[i]) && !(x[i] != x[i] && y[i] != y[i]) {
			return false
		}
	}
	return true
}

// A 1x1 convolution of 1x1 planes with its weight packed once
// (ConvolutionWith, PackConvWeight) gives the reference's values, the
// same bits on one thread and on four, with its activation applied as the
// activation's kernel applies it; a packed weight that does not fit the
// call (other channels), a plane wider than 1x1 and float64 run the
// ordinary path, bit for bit.
func TestConvolutionPackedWeight(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	pair := func(v int) value.Value { return value.FromInts([]int64{int64(v), int64(v)}) }
	mk := func(dt tensor.DType, sizes ...int) *tensor.Tensor { return normalTensor(r, dt, sizes...) }
	run := func(k Kernel, threads int, args []value.Value) *tensor.Tensor {
		ctx := NewContext()
		ctx.Threads = threads
		out := make([]value.Value, 1)
		if err := k(ctx, args, out); err != nil {
			t.Fatal(err)
		}
		return out[0].Tensor()
	}
	// Rows of A (samples) by k (channels in) by columns (channels out):
	// few samples, a k past the dot-product threshold, squeeze-excite's.
	for _, c := range []struct{ n, c, o, h int }{{8, 216, 56, 1}, {8, 56, 216, 1}, {3, 300, 40, 1}, {1, 16, 8, 1}, {20, 72, 96, 1}, {2, 24, 40, 3}} {
		for _, act := range []string{"", "aten.hardswish.default"} {
			x, w, b := mk(tensor.Float32, c.n, c.c, c.h, c.h), mk(tensor.Float32, c.o, c.c, 1, 1), mk(tensor.Float32, c.o)
			args := []value.Value{value.FromTensor(x), value.FromTensor(w), value.FromTensor(b), pair(1), pair(0), pair(1),
				value.FromBool(false), pair(0), value.FromInt(1)}
			pw := PackConvWeight(w)
			if pw == nil {
				t.Fatalf("%v: a 1x1 weight was not packed", c)
			}
			packed, _ := ConvolutionWith(act, pw)
			plain, _ := ConvolutionWith(act, nil)
			got := run(packed, 1, args)
			if !tensor.Equal(got, run(packed, 4, args)) {
				t.Fatalf("%v %s: four threads differ from one", c, act)
			}
			if c.h != 1 {
				if !tensor.Equal(got, run(plain, 1, args)) {
					t.Fatalf("%v %s: a %dx%d plane did not run the ordinary path", c, act, c.h, c.h)
				}
				continue
			}
			noAct, _ := ConvolutionWith("", pw)
			pre := run(noAct, 1, args)
			if act != "" {
				actK, _ := Lookup(act)
				want := make([]value.Value, 1)
				if err := actK(NewContext(), []value.Value{value.FromTensor(pre)}, want); err != nil {
					t.Fatal(err)
				}
				if !tensor.Equal(got, want[0].Tensor()) {
					t.Fatalf("%v %s: the activation differs from its kernel's", c, act)
				}
				continue
			}
			ref := convRef(tensor.Contig[float32](x), tensor.Contig[float32](w), tensor.Contig[float32](b), c.n, c.c, 1, 1, c.o, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1)
			for i, v := range tensor.Contig[float32](got) {
				if math.Abs(float64(v)-ref[i]) > 1e-5*(1+math.Abs(ref[i]))+1e-6*float64(c.c) {
					t.Fatalf("%v: [%d] = %g, want %g", c, i, v, ref[i])
				}
			}
		}
	}
	// A packed weight of other channels, and float64, are not used.
	x, w, b := mk(tensor.Float32, 4, 32, 1, 1), mk(tensor.Float32, 24, 32, 1, 1), mk(tensor.Float32, 24)
	args := []value.Value{value.FromTensor(x), value.FromTensor(w), value.FromTensor(b), pair(1), pair(0), pair(1),
		value.FromBool(false), pair(0), value.FromInt(1)}
	other, _ := ConvolutionWith("", PackConvWeight(mk(tensor.Float32, 24, 16, 1, 1)))
	plain, _ := ConvolutionWith("", nil)
	if !tensor.Equal(run(other, 1, args), run(plain, 1, args)) {
		t.Fatal("a packed weight of 16 input channels was used for 32")
	}
	x64, w64, b64 := mk(tensor.Float64, 4, 32, 1, 1), mk(tensor.Float64, 24, 32, 1, 1), mk(tensor.Float64, 24)
	args64 := []value.Value{value.FromTensor(x64), value.FromTensor(w64), value.FromTensor(b64), pair(1), pair(0), pair(1),
		value.FromBool(false), pair(0), value.FromInt(1)}
	packed, _ := ConvolutionWith("", PackConvWeight(w))
	if !tensor.Equal(run(packed, 1, args64), run(plain, 1, args64)) {
		t.Fatal("float64 did not run the ordinary path")
	}
	if PackConvWeight(mk(tensor.Float32, 8, 4, 3, 3)) != nil || PackConvWeight(w64) != nil {
		t.Fatal("a 3x3 or a float64 weight was packed")
	}
}

// One Context serving depthwise convolutions of many geometries in turn
// (its pixel tables kept per geometry) gives, for each, the bits a fresh
// Context gives: geometries that differ from a base in one of padding,
// stride, dilation, kernel, height or width alone, the padding and
// dilation of one axis alone too, and at stride 3, where the output's size
// stays the same.
func TestDepthwiseTablesPerGeometry(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	type geom struct{ h, w, k, s, ph, pw, dh, dw int }
	a, b := geom{12, 12, 3, 1, 1, 1, 1, 1}, geom{12, 12, 3, 3, 1, 1, 1, 1}
	with := func(g geom, f func(*geom)) geom { f(&g); return g }
	pairs := [][2]geom{
		{a, with(a, func(g *geom) { g.ph, g.pw = 0, 0 })}, {a, with(a, func(g *geom) { g.s = 2 })},
		{a, with(a, func(g *geom) { g.dh, g.dw = 2, 2 })}, {a, with(a, func(g *geom) { g.k = 5 })},
		{a, with(a, func(g *geom) { g.h = 10 })}, {a, with(a, func(g *geom) { g.w = 14 })},
		{b, with(b, func(g *geom) { g.ph = 0 })}, {b, with(b, func(g *geom) { g.pw = 0 })},
		{b, with(b, func(g *geom) { g.dh = 2 })}, {b, with(b, func(g *geom) { g.dw = 2 })},
		{b, with(b, func(g *geom) { g.k = 4 })},
	}
	k, _ := Lookup("aten.convolution.default")
	shared := NewContext()
	run := func(ctx *Context, g geom, x, w *tensor.Tensor) *tensor.Tensor {
		two := func(a, b int) value.Value { return value.FromInts([]int64{int64(a), int64(b)}) }
		args := []value.Value{value.FromTensor(x), value.FromTensor(w), {}, two(g.s, g.s), two(g.ph, g.pw), two(g.dh, g.dw),
			value.FromBool(false), two(0, 0), value.FromInt(16)}
		out := make([]value.Value, 1)
		if err := k(ctx, args, out); err != nil {
			t.Fatal(err)
		}
		return out[0].Tensor()
	}
	for round := 0; round < 3; round++ {
		for _, pair := range pairs {
			for _, g := range pair {
				x, w := normalTensor(r, tensor.Float32, 2, 16, g.h, g.w), normalTensor(r, tensor.Float32, 16, 1, g.k, g.k)
				if !tensor.Equal(run(shared, g, x, w), run(NewContext(), g, x, w)) {
					t.Fatalf("round %d, geometry %+v after others: differs from a fresh Context", round, g)
				}
			}
		}
	}
}

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

package kernels

import (
	"math"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// conv2D is a convolution's geometry seen as 2-D (a 1-D one has h = kh = 1).
type conv2D struct {
	n, c, h, w, o, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow, groups int
}

// convolution64 is the float64 convolution, computed directly and summed in
// float64 as ATen's double kernel is: float64 programs are rare, so this is
// plain loops rather than im2col and a packed product.
func convolution64(ctx *Context, x, wt, bias, res *tensor.Tensor, g conv2D, out []value.Value) error {
	in, err := float64Rows(ctx, x)
	if err != nil {
		return err
	}
	k, err := float64Rows(ctx, wt)
	if err != nil {
		return err
	}
	var bv []float64
	if bias != nil {
		if bv, err = float64Rows(ctx, bias); err != nil {
			return err
		}
	}
	dst := tensor.Contig[float64](res)
	cg, og := g.c/g.groups, g.o/g.groups
	for b := 0; b < g.n; b++ {
		for oc := 0; oc < g.o; oc++ {
			grp := oc / og
			kern := k[oc*cg*g.kh*g.kw : (oc+1)*cg*g.kh*g.kw]
			for y := 0; y < g.oh; y++ {
				for xo := 0; xo < g.ow; xo++ {
					s := 0.0
					if bv != nil {
						s = bv[oc]
					}
					for ic := 0; ic < cg; ic++ {
						plane := in[(b*g.c+grp*cg+ic)*g.h*g.w:]
						for i := 0; i < g.kh; i++ {
							iy := y*g.sh - g.ph + i*g.dh
							if iy < 0 || iy >= g.h {
								continue
							}
							for j := 0; j < g.kw; j++ {
								ix := xo*g.sw - g.pw + j*g.dw
								if ix < 0 || ix >= g.w {
									continue
								}
								s += plane[iy*g.w+ix] * kern[(ic*g.kh+i)*g.kw+j]
							}
						}
					}
					dst[((b*g.o+oc)*g.oh+y)*g.ow+xo] = s
				}
			}
		}
	}
	out[0] = value.FromTensor(res)
	return nil
}

// maxPool2d64 is max_pool2d_with_indices for float64 input, compared in
// float64; as ATen's cpu_max_pool, the first tap in bounds starts the
// search and a later tap wins when it is larger or NaN.
func maxPool2d64(ctx *Context, x *tensor.Tensor, g poolGeom, shape []int, out []value.Value) error {
	in, err := float64Rows(ctx, x)
	if err != nil {
		return err
	}
	res, err := ctx.empty(tensor.Float64, shape)
	if err != nil {
		return err
	}
	idxT, err := ctx.empty(tensor.Int64, shape)
	if err != nil {
		ctx.Pool.Release(res)
		return err
	}
	vals, idx := tensor.Contig[float64](res), tensor.Contig[int64](idxT)
	n := 0
	for p := 0; p < g.planes; p++ {
		src := in[p*g.h*g.w : (p+1)*g.h*g.w]
		for y := 0; y < g.oh; y++ {
			for xo := 0; xo < g.ow; xo++ {
				best, at := 0.0, -1
				for i := 0; i < g.kh; i++ {
					iy := y*g.sh - g.ph + i*g.dh
					if iy < 0 || iy >= g.h {
						continue
					}
					for j := 0; j < g.kw; j++ {
						ix := xo*g.sw - g.pw + j*g.dw
						if ix < 0 || ix >= g.w {
							continue
						}
						if v := src[iy*g.w+ix]; at < 0 || v > best || v != v {
							best, at = v, iy*g.w+ix
						}
					}
				}
				if at < 0 {
					best = math.Inf(-1)
				}
				vals[n], idx[n] = best, int64(at)
				n++
			}
		}
	}
	out[0], out[1] = value.FromTensor(res), value.FromTensor(idxT)
	return nil
}

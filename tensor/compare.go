package tensor

import (
	"fmt"
	"math"
)

// Diff summarises how far got is from want. A dtype or shape mismatch, or
// a NaN where the other has a number, is infinitely far: MaxAbs and MaxRel
// are +Inf, so a caller that only prints the distance cannot show 0.
type Diff struct {
	MaxAbs   float64 // largest |got - want|
	MaxRel   float64 // largest |got - want| / |want| over nonzero want
	Worst    int     // logical index of the element furthest outside tolerance, or -1
	Mismatch int     // elements outside tolerance (all of them on a dtype or shape mismatch)
}

// AllClose compares element by element in logical order as torch.allclose
// does: |got - want| <= atol + rtol*|want|, NaN equal to NaN. Integer and
// bool tensors must match exactly (tolerances are ignored). Shapes and
// dtypes must be equal; a mismatch is the returned error, as is any
// element outside tolerance.
func AllClose(got, want *Tensor, rtol, atol float64) (Diff, error) {
	d := Diff{Worst: -1}
	if got == nil || want == nil {
		return Diff{MaxAbs: math.Inf(1), MaxRel: math.Inf(1), Worst: 0, Mismatch: 1}, fmt.Errorf("no tensor to compare")
	}
	if got.dtype != want.dtype || !got.SameShape(want) {
		d = Diff{MaxAbs: math.Inf(1), MaxRel: math.Inf(1), Worst: 0, Mismatch: max(Numel(got.sizes), Numel(want.sizes), 1)}
		if got.dtype != want.dtype {
			return d, fmt.Errorf("dtype %v, want %v", got.dtype, want.dtype)
		}
		return d, fmt.Errorf("shape %v, want %v", got.sizes, want.sizes)
	}
	exact := !want.dtype.IsFloat()
	if exact {
		rtol, atol = 0, 0
	}
	var g, w []float64
	if exact {
		gi, wi := got.Int64s(), want.Int64s()
		for i := range gi {
			if gi[i] != wi[i] {
				if d.Mismatch == 0 {
					d.Worst = i
				}
				d.Mismatch++
				d.MaxAbs = math.Max(d.MaxAbs, math.Abs(float64(gi[i])-float64(wi[i])))
			}
		}
	} else {
		g, w = got.Float64s(), want.Float64s()
		worst := 0.0
		for i := range g {
			a, b := g[i], w[i]
			if math.IsNaN(a) || math.IsNaN(b) {
				if math.IsNaN(a) != math.IsNaN(b) {
					d.Mismatch++
					d.Worst = i
					worst = math.Inf(1)
					d.MaxAbs, d.MaxRel = math.Inf(1), math.Inf(1)
				}
				continue
			}
			if a == b {
				continue
			}
			e := math.Abs(a - b)
			if math.IsInf(a, 0) || math.IsInf(b, 0) {
				// As torch.isclose: an infinity equals only itself.
				d.Mismatch++
				d.MaxAbs, d.MaxRel = math.Inf(1), math.Inf(1)
				if worst < math.Inf(1) {
					worst, d.Worst = math.Inf(1), i
				}
				continue
			}
			d.MaxAbs = math.Max(d.MaxAbs, e)
			if b != 0 {
				d.MaxRel = math.Max(d.MaxRel, e/math.Abs(b))
			}
			if excess := e - (atol + rtol*math.Abs(b)); excess > 0 {
				d.Mismatch++
				if excess > worst {
					worst, d.Worst = excess, i
				}
			}
		}
	}
	if d.Mismatch > 0 {
		if exact {
			gi, wi := got.Int64s(), want.Int64s()
			return d, fmt.Errorf("%d of %d elements differ; first at %d: got %d, want %d",
				d.Mismatch, len(gi), d.Worst, gi[d.Worst], wi[d.Worst])
		}
		return d, fmt.Errorf("%d of %d elements outside rtol %g atol %g; max abs error %g; worst at %d: got %g, want %g",
			d.Mismatch, len(g), rtol, atol, d.MaxAbs, d.Worst, g[d.Worst], w[d.Worst])
	}
	return d, nil
}

// Equal reports whether got and want have the same dtype, shape and values
// (NaN equal to NaN).
func Equal(got, want *Tensor) bool {
	if got.dtype.IsFloat() {
		d, err := AllClose(got, want, 0, 0)
		return err == nil && d.Mismatch == 0
	}
	_, err := AllClose(got, want, 0, 0)
	return err == nil
}

// MaxAbsDiff is the largest |a - b| over elements, as AllClose sees it:
// NaN against NaN is no difference, NaN against a number (or infinities of
// opposite signs) is +Inf, and so is a dtype or shape mismatch.
func MaxAbsDiff(a, b *Tensor) float64 {
	if a == nil || b == nil || a.dtype != b.dtype || !a.SameShape(b) {
		return math.Inf(1)
	}
	x, y := a.Float64s(), b.Float64s()
	m := 0.0
	for i := range x {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			if math.IsNaN(x[i]) != math.IsNaN(y[i]) {
				return math.Inf(1)
			}
			continue
		}
		if x[i] == y[i] {
			continue // equal infinities too
		}
		m = math.Max(m, math.Abs(x[i]-y[i]))
	}
	return m
}

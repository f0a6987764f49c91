package kernels

import (
	"math"
	"testing"

	"github.com/seam-rt/seam/kernels/internal/vec"
)

// The float32 approximations stay within a few ULP of float64 libm over
// their whole useful range, including the edges.
func TestFastMathAccuracy(t *testing.T) {
	check := func(name string, f func(float32) float32, ref func(float64) float64, lo, hi float64, maxRel float64) {
		worst := 0.0
		for i := 0; i <= 200000; i++ {
			x := float32(lo + (hi-lo)*float64(i)/200000)
			want := ref(float64(x))
			got := float64(f(x))
			if math.IsInf(want, 0) || want == 0 {
				if got != want && math.Abs(got-want) > 1e-38 {
					t.Fatalf("%s(%g) = %g, want %g", name, x, got, want)
				}
				continue
			}
			if rel := math.Abs(got-want) / math.Abs(want); rel > worst {
				worst = rel
			}
		}
		if worst > maxRel {
			t.Errorf("%s: max relative error %g > %g", name, worst, maxRel)
		}
	}
	const ulp = 1.0 / (1 << 23)
	check("expf", expf, math.Exp, -87, 88.7, 4*ulp)
	for i := 0; i <= 10000; i++ { // where exp is subnormal: an exact 0
		x := float32(-103.9 + 16.5*float64(i)/10000)
		want := math.Exp(float64(x))
		if want < 0x1p-126 {
			want = 0
		}
		if d := math.Abs(float64(expf(x)) - want); d > 4*ulp*want {
			t.Fatalf("expf(%g) = %g, want %g", x, expf(x), want)
		}
	}
	check("tanhf", tanhf, math.Tanh, -10, 10, 8*ulp)
	check("tanhf small", tanhf, math.Tanh, -0.01, 0.01, 4*ulp)
	check("sigmoidf", sigmoidf, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, -80, 80, 8*ulp)
	if v := expf(float32(math.NaN())); v == v {
		t.Error("expf(NaN)")
	}
	if expf(100) != float32(math.Inf(1)) || expf(-200) != 0 {
		t.Error("expf limits")
	}
	dst := make([]float32, 5)
	vec.Tanh(dst, []float32{-20, -1, 0, 0.0001, 20})
	for i, x := range []float64{-20, -1, 0, 0.0001, 20} {
		if math.Abs(float64(dst[i])-math.Tanh(x)) > 1e-6 {
			t.Errorf("tanhSlice(%g) = %g", x, dst[i])
		}
	}
}

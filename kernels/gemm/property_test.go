package gemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// TestProperty checks random shapes, strides, transposes, scalars and column
// biases, on every kernel (also with tiny blocking), against the naive
// product.
func TestProperty(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testProperty(t, testKernels(sKernels)) })
	t.Run("float64", func(t *testing.T) { testProperty(t, testKernels(dKernels)) })
}

func testProperty[T float](t *testing.T, ks []*kernel[T]) {
	for _, kn := range ks {
		t.Run(kn.name, func(t *testing.T) { rapid.Check(t, propertyCheck(kn)) })
	}
}

func propertyCheck[T float](kn *kernel[T]) func(*rapid.T) {
	scalars := []float64{0, 1, -1, 0.5, 2}
	return func(rt *rapid.T) {
		m := rapid.IntRange(0, 70).Draw(rt, "m")
		n := rapid.IntRange(0, 110).Draw(rt, "n")
		k := rapid.IntRange(0, 70).Draw(rt, "k")
		transA := rapid.Bool().Draw(rt, "transA")
		transB := rapid.Bool().Draw(rt, "transB")
		pad := rapid.IntRange(0, 9).Draw(rt, "pad")
		alpha := T(rapid.SampledFrom(scalars).Draw(rt, "alpha"))
		beta := T(rapid.SampledFrom(scalars).Draw(rt, "beta"))
		nanC := beta == 0 && rapid.Bool().Draw(rt, "nanC")
		packed := rapid.Bool().Draw(rt, "packed")
		bias := rapid.Bool().Draw(rt, "bias")
		seed := rapid.Uint64().Draw(rt, "seed")

		r := rand.New(rand.NewPCG(seed, 0))
		p := newProblem(r, transA, transB, m, n, k, pad, alpha, beta, nanC)
		p.kernelName = kn.name
		if bias {
			p.bias = randSlice[T](r, 1, n, n)
		}
		run := withKernel(kn)
		if packed {
			run, p.comment = withPacked(kn), "packed"
		}
		p.verify(rt, run)
	}
}

// TestInterleave8 checks the transposing copy used to pack eight rows, for
// lengths around the assembly's 8-wide blocks.
func TestInterleave8(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for kc := 1; kc <= 41; kc++ {
		for _, stride := range []int{8, 13, 48} {
			ld := kc + r.IntN(5)
			src := randSlice[float32](r, 8, kc, ld)
			dst := make([]float32, (kc-1)*stride+8)
			for i := range dst {
				dst[i] = float32(math.NaN())
			}
			interleave8(dst, stride, src, ld, kc)
			for p := 0; p < kc; p++ {
				for i := 0; i < 8; i++ {
					if got, want := dst[p*stride+i], src[i*ld+p]; got != want {
						t.Fatalf("kc=%d stride=%d: dst[%d*%d+%d] = %v, want %v", kc, stride, p, stride, i, got, want)
					}
				}
			}
		}
	}
}

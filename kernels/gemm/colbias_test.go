package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A column bias added in the kernels gives, bit for bit, what callers got
// before the kernels took one: the bias copied into every row of C, then
// alpha*A*B + 1*C. Every kernel (also with tiny blocks, so the bias meets
// several k blocks, m blocks and partial panels), B plain, transposed and
// prepacked, A plain and transposed, m below the tile's rows, n off the
// panel width, k over several k blocks or none, on 1, 2 and 4 threads.
func TestColumnBiasIsTheCopy(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testColumnBiasIsTheCopy(t, sKernels) })
	t.Run("float64", func(t *testing.T) { testColumnBiasIsTheCopy(t, dKernels) })
}

func testColumnBiasIsTheCopy[T float](t *testing.T, all []*kernel[T]) {
	for _, kn := range testKernels(all) {
		t.Run(kn.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(10, uint64(len(kn.name))))
			shapes := [][3]int{
				{1, 1, 1}, {3, 5, 7}, {max(1, kn.mr-1), 2*kn.nr + 5, 2*kn.kc + 9},
				{kn.mr + 1, max(1, kn.nr-3), kn.kc + 1}, {13, 50, 13}, {37, 100, 33},
				{130, 192, 64}, {4, 5, 0},
			}
			if kn == all[0] || kn == all[len(all)-1] {
				// Products that split across threads (and, on AVX-512,
				// reach the dot-product path).
				shapes = append(shapes, [3]int{64, 1000, 256}, [3]int{3, 2001, 300}, [3]int{33, 700, 129})
			}
			for _, s := range shapes {
				for _, tr := range transCombos {
					for _, packed := range []bool{false, true} {
						p := newProblem(r, tr[0], tr[1], s[0], s[1], s[2], 2, T(1), T(1), false)
						p.kernelName = kn.name
						checkBiasIsTheCopy(t, kn, p, packed)
					}
				}
			}
		})
	}
}

func checkBiasIsTheCopy[T float](t *testing.T, kn *kernel[T], p *problem[T], packed bool) {
	t.Helper()
	src := bSource[T]{trans: p.transB, b: p.b, ldb: p.ldb}
	if packed {
		src = bSource[T]{packed: newPacked(kn, p.transB, p.k, p.n, p.b, p.ldb)}
	}
	bias := randSlice[T](rand.New(rand.NewPCG(uint64(p.n), uint64(p.k))), 1, p.n, p.n)
	if p.n > 1 {
		bias[1] = T(math.Copysign(0, -1)) // a signed zero survives as it did
	}
	want := append([]T(nil), p.c...)
	for i := 0; i < p.m; i++ {
		copy(want[i*p.ldc:i*p.ldc+p.n], bias)
	}
	run(kn, 1, p.transA, p.m, p.n, p.k, p.alpha, p.a, p.lda, src, 1, want, p.ldc, nil)
	for _, threads := range []int{1, 2, 4} {
		got := append([]T(nil), p.c...)
		for i := 0; i < p.m; i++ {
			for j := range got[i*p.ldc : i*p.ldc+p.n] {
				got[i*p.ldc+j] = T(math.NaN()) // beta == 0: C is not read
			}
		}
		run(kn, threads, p.transA, p.m, p.n, p.k, p.alpha, p.a, p.lda, src, 0, got, p.ldc, bias)
		for i := range want {
			if bitsOf(got[i]) != bitsOf(want[i]) {
				t.Fatalf("%v packed=%v threads=%d: C[%d,%d] = %v, bias copied into C gives %v",
					p, packed, threads, i/p.ldc, i%p.ldc, got[i], want[i])
			}
		}
	}
}

func bitsOf[T float](x T) uint64 {
	if v, ok := any(x).(float32); ok {
		return uint64(math.Float32bits(v))
	}
	return math.Float64bits(float64(x))
}

// With beta != 0 and any alpha, C = alpha*A*B + bias + beta*C, against
// the naive product, on every kernel.
func TestColumnBiasWithBeta(t *testing.T) {
	for _, kn := range testKernels(sKernels) {
		r := rand.New(rand.NewPCG(11, 11))
		for _, s := range [][3]int{{1, 1, 1}, {7, 37, 20}, {13, 50, 300}, {40, 150, 100}} {
			for i, tr := range transCombos {
				p := newProblem(r, tr[0], tr[1], s[0], s[1], s[2], 2, float32(-1.5), float32(0.5), false)
				p.kernelName, p.bias = kn.name, randSlice[float32](r, 1, s[1], s[1])
				run := withKernel(kn)
				if i%2 == 1 {
					run, p.comment = withPacked(kn), "packed"
				}
				p.verify(t, run)
			}
		}
	}
}

func TestColumnBiasTooShort(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	a := make([]float32, 12)
	SgemmPackedThreads(1, false, 3, 1, a, 4, PackB(false, 4, 3, a, 3), 0, make([]float32, 9), 3, a[:2])
}

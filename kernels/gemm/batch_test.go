package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// batchProblem is one batched-columns product: batch samples of B (k×n,
// row stride ldb, sb apart) and C (m×n, row stride ldc, sc apart).
type batchProblem[T float] struct {
	m, n, k, batch int
	lda, ldb, ldc  int
	sb, sc         int
	alpha, beta    T
	a, b, c, bias  []T
	nanC           bool
}

const batchSentinel = -7

func (p *batchProblem[T]) String() string {
	return fmt.Sprintf("m=%d n=%d k=%d batch=%d lda=%d ldb=%d ldc=%d sb=%d sc=%d alpha=%v beta=%v bias=%v nanC=%v",
		p.m, p.n, p.k, p.batch, p.lda, p.ldb, p.ldc, p.sb, p.sc, p.alpha, p.beta, p.bias != nil, p.nanC)
}

func newBatchProblem[T float](r *rand.Rand, m, n, k, batch, pad int, alpha, beta T, bias, nanC bool) *batchProblem[T] {
	p := &batchProblem[T]{m: m, n: n, k: k, batch: batch, alpha: alpha, beta: beta, nanC: nanC}
	p.lda = max(1, k) + r.IntN(pad+1)
	p.ldb = max(1, n) + r.IntN(pad+1)
	p.ldc = max(1, n) + r.IntN(pad+1)
	p.sb = max(0, (k-1)*p.ldb+n) + r.IntN(pad+1)
	p.sc = max(0, (m-1)*p.ldc+n) + r.IntN(pad+1)
	p.a = randSlice[T](r, m, k, p.lda)
	p.b = randSlice[T](r, 1, (batch-1)*p.sb+(k-1)*p.ldb+n, 1)
	p.c = make([]T, (batch-1)*p.sc+(m-1)*p.ldc+n)
	for i := range p.c {
		p.c[i] = batchSentinel
	}
	for s := 0; s < batch; s++ {
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				v := T(2*r.Float64() - 1)
				if nanC {
					v = T(math.NaN())
				}
				p.c[s*p.sc+i*p.ldc+j] = v
			}
		}
	}
	if bias {
		p.bias = randSlice[T](r, 1, m, m)
	}
	return p
}

// verify runs f and compares every sample's C with a float64 reference,
// and checks that nothing outside the C matrices changed.
func (p *batchProblem[T]) verify(t *testing.T, f func(p *batchProblem[T])) {
	t.Helper()
	inC := make([]bool, len(p.c))
	want := make([]float64, len(p.c))
	bound := make([]float64, len(p.c))
	for s := 0; s < p.batch; s++ {
		for i := 0; i < p.m; i++ {
			for j := 0; j < p.n; j++ {
				var sum, abs float64
				for l := 0; l < p.k; l++ {
					v := float64(p.a[i*p.lda+l]) * float64(p.b[s*p.sb+l*p.ldb+j])
					sum += v
					abs += math.Abs(v)
				}
				at := s*p.sc + i*p.ldc + j
				w, e := float64(p.alpha)*sum, math.Abs(float64(p.alpha))*abs
				if p.bias != nil {
					w += float64(p.bias[i])
					e += math.Abs(float64(p.bias[i]))
				}
				if p.beta != 0 {
					w += float64(p.beta) * float64(p.c[at])
					e += math.Abs(float64(p.beta) * float64(p.c[at]))
				}
				inC[at], want[at], bound[at] = true, w, e
			}
		}
	}
	f(p)
	eps := epsOf[T]()
	for at, got := range p.c {
		if !inC[at] {
			if got != batchSentinel {
				t.Fatalf("%v: C[%d] outside the matrices changed to %v", p, at, got)
			}
			continue
		}
		tol := 2*float64(p.k+4)*eps*bound[at] + 1e-30
		if d := math.Abs(float64(got) - want[at]); !(d <= tol) {
			t.Fatalf("%v: C[%d] (sample %d, row %d, column %d) = %v, want %v", p, at, at/p.sc, at%p.sc/p.ldc, at%p.sc%p.ldc, got, want[at])
		}
	}
}

func withBatchKernel[T float](kn *kernel[T], threads int) func(p *batchProblem[T]) {
	return func(p *batchProblem[T]) {
		gemmBatchCols(kn, threads, p.m, p.n, p.k, p.batch, p.alpha, p.a, p.lda, p.b, p.ldb, p.sb, p.beta, p.c, p.ldc, p.sc, p.bias, nil)
	}
}

// Every kernel (and each with tiny blocks, so the bias meets several k
// blocks and A several row blocks) computes batched columns right: planes
// narrower and wider than a tile, tiles across one or several sample
// boundaries, strides with padding, with and without a bias, beta zero
// (C may hold NaN) and not.
func TestBatchCols(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testBatchCols(t, sKernels) })
	t.Run("float64", func(t *testing.T) { testBatchCols(t, dKernels) })
}

func testBatchCols[T float](t *testing.T, all []*kernel[T]) {
	for _, kn := range testKernels(all) {
		t.Run(kn.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(16, 16))
			for trial := 0; trial < 150; trial++ {
				m := []int{1, 2, 5, 6, 7, 13, 20}[r.IntN(7)]
				n := []int{1, 2, 3, 5, 8, 9, 16, 17, 36, 40, 49}[r.IntN(11)]
				k := []int{1, 3, 16, 37}[r.IntN(4)]
				batch := []int{1, 2, 3, 8}[r.IntN(4)]
				alpha := []T{1, 1, -0.5, 2}[r.IntN(4)]
				beta := []T{0, 0, 1, -1.5}[r.IntN(4)]
				p := newBatchProblem(r, m, n, k, batch, 3*(trial%2), alpha, beta, r.IntN(2) == 0, beta == 0 && r.IntN(2) == 0)
				p.verify(t, withBatchKernel(kn, 1))
			}
		})
	}
}

// The public entry point on several goroutines gives bitwise what one
// gives, on a product large enough to be split, and reads B in place when
// its row stride aliases in L1 no differently from packing it.
func TestBatchColsThreads(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 17))
	for _, s := range [][4]int{{64, 36, 64, 8}, {70, 9, 72, 8}, {50, 1024, 20, 3}, {300, 49, 300, 2}} {
		p := newBatchProblem(r, s[0], s[1], s[2], s[3], 0, float32(1), float32(0), true, true)
		one := append([]float32(nil), p.c...)
		p.verify(t, func(p *batchProblem[float32]) {
			SgemmBatchColsThreads(1, p.m, p.n, p.k, p.batch, p.alpha, p.a, p.lda, p.b, p.ldb, p.sb, p.beta, p.c, p.ldc, p.sc, p.bias)
		})
		four := one
		SgemmBatchColsThreads(4, p.m, p.n, p.k, p.batch, p.alpha, p.a, p.lda, p.b, p.ldb, p.sb, p.beta, four, p.ldc, p.sc, p.bias)
		for i := range four {
			if math.Float32bits(four[i]) != math.Float32bits(p.c[i]) {
				t.Fatalf("%v: 4 goroutines differ at %d: %v vs %v", p, i, four[i], p.c[i])
			}
		}
	}
}

func TestBatchColsBadArguments(t *testing.T) {
	a := make([]float32, 64)
	cases := map[string]func(){
		"short B":        func() { SgemmBatchColsThreads(1, 2, 4, 2, 3, 1, a, 2, a[:19], 4, 8, 0, a, 4, 8, nil) },
		"short C":        func() { SgemmBatchColsThreads(1, 2, 4, 2, 3, 1, a, 2, a, 4, 8, 0, a[:19], 4, 8, nil) },
		"overlapping C":  func() { SgemmBatchColsThreads(1, 2, 4, 2, 3, 1, a, 2, a, 4, 8, 0, a, 4, 7, nil) },
		"short bias":     func() { SgemmBatchColsThreads(1, 2, 4, 2, 3, 1, a, 2, a, 4, 8, 0, a, 4, 8, a[:1]) },
		"negative batch": func() { SgemmBatchColsThreads(1, 2, 4, 2, -1, 1, a, 2, a, 4, 8, 0, a, 4, 8, nil) },
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			f()
		})
	}
}

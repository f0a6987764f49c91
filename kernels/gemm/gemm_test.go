package gemm

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestKernelsSmallShapes covers every m, n in 1..40 against the naive
// product for each kernel, transpose combination and a spread of k.
func TestKernelsSmallShapes(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testSmallShapes(t, sKernels) })
	t.Run("float64", func(t *testing.T) { testSmallShapes(t, dKernels) })
}

func testSmallShapes[T float](t *testing.T, all []*kernel[T]) {
	ks := []int{1, 2, 7, 17, 40}
	if reducedTests() {
		ks = []int{17}
	}
	for _, kn := range testKernels(all) {
		t.Run(kn.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(1, uint64(len(kn.name))))
			for m := 1; m <= 40; m++ {
				for n := 1; n <= 40; n++ {
					for ki, k := range ks {
						tr := transCombos[(m+n+ki)%4]
						// Vary alpha/beta and NaN-filled C across the sweep.
						alpha, beta, nanC := T(1), T(0), (m+n)%2 == 0
						switch (m * n * (ki + 1)) % 3 {
						case 1:
							alpha, beta, nanC = -0.5, 1, false
						case 2:
							alpha, beta, nanC = 1.5, -2, false
						}
						p := newProblem(r, tr[0], tr[1], m, n, k, 3, alpha, beta, nanC)
						p.kernelName = kn.name
						p.verify(t, withKernel(kn))
					}
				}
			}
		})
	}
}

// TestKernelsEveryK covers k in 1..40 (the unrolled loop's tails) with all
// transpose combinations on shapes that include full and partial tiles.
func TestKernelsEveryK(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testEveryK(t, sKernels) })
	t.Run("float64", func(t *testing.T) { testEveryK(t, dKernels) })
}

func testEveryK[T float](t *testing.T, all []*kernel[T]) {
	for _, kn := range testKernels(all) {
		t.Run(kn.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(2, uint64(len(kn.name))))
			shapes := [][2]int{{kn.mr + 3, 2*kn.nr + 5}, {3, 7}, {kn.mr, kn.nr}, {1, 1}, {33, 19}}
			if reducedTests() {
				shapes = shapes[:2]
			}
			for k := 1; k <= 40; k++ {
				for _, s := range shapes {
					for _, tr := range transCombos {
						p := newProblem(r, tr[0], tr[1], s[0], s[1], k, 2, T(0.75), T(0.5), false)
						p.kernelName = kn.name
						p.verify(t, withKernel(kn))
					}
				}
			}
		})
	}
}

// TestKernelsLarge crosses the real k and n block sizes and the direct-B
// threshold, with and without prepacked B.
func TestKernelsLarge(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testLarge(t, sKernels) })
	t.Run("float64", func(t *testing.T) { testLarge(t, dKernels) })
}

func testLarge[T float](t *testing.T, all []*kernel[T]) {
	shapes := [][3]int{{7, 97, 2*all[0].kc + 9}, {directMaxM, 530, 300}, {directMaxM + 5, 2*all[0].nc + 3, all[0].kc + 1}}
	if reducedTests() {
		shapes = shapes[:2]
	}
	for _, kn := range all {
		t.Run(kn.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(3, 3))
			for _, s := range shapes {
				for i, tr := range transCombos {
					p := newProblem(r, tr[0], tr[1], s[0], s[1], s[2], 4, T(1), T(i%2), i == 2)
					p.kernelName = kn.name
					run := withKernel(kn)
					if i == 3 {
						run, p.comment = withPacked(kn), "packed"
					}
					p.verify(t, run)
				}
			}
		})
	}
}

func TestPacked(t *testing.T) {
	for _, kn := range testKernels(sKernels) {
		t.Run(kn.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(4, 4))
			for _, s := range [][3]int{{1, 1, 1}, {7, 192, 64}, {9, 50, 13}, {40, 100, 33}} {
				for _, tr := range transCombos {
					p := newProblem(r, tr[0], tr[1], s[0], s[1], s[2], 2, float32(2), float32(-1), false)
					p.kernelName, p.comment = kn.name, "packed"
					p.verify(t, withPacked(kn))
				}
			}
		})
	}
}

// TestPublicAPI runs the exported entry points with the default kernel.
func TestPublicAPI(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, tr := range transCombos {
		p := newProblem(r, tr[0], tr[1], 13, 29, 31, 2, float32(1), float32(0), true)
		p.verify(t, func(p *problem[float32]) {
			Sgemm(p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc)
		})
		p = newProblem(r, tr[0], tr[1], 13, 29, 31, 2, float32(0.5), float32(2), false)
		p.verify(t, func(p *problem[float32]) {
			pb := PackB(p.transB, p.k, p.n, p.b, p.ldb)
			if pb.K() != p.k || pb.N() != p.n {
				t.Fatalf("PackB dims = %d×%d, want %d×%d", pb.K(), pb.N(), p.k, p.n)
			}
			SgemmPacked(p.transA, p.m, p.alpha, p.a, p.lda, pb, p.beta, p.c, p.ldc)
		})
		d := newProblem(r, tr[0], tr[1], 11, 17, 23, 2, float64(-1), float64(0.25), false)
		d.verify(t, func(p *problem[float64]) {
			Dgemm(p.transA, p.transB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, p.c, p.ldc)
		})
	}
}

// TestDegenerate checks the calls that need no product: C = beta*C, with
// beta == 0 clearing C even when it holds NaN.
func TestDegenerate(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for _, kn := range sKernels {
		for _, s := range [][3]int{{0, 5, 3}, {4, 0, 3}, {4, 5, 0}, {0, 0, 0}, {3, 4, 5}} {
			for _, ab := range [][2]float32{{0, 0}, {0, 2}, {1, 0}, {1, 1}, {2, -1}} {
				p := newProblem(r, false, true, s[0], s[1], s[2], 1, ab[0], ab[1], ab[1] == 0)
				p.kernelName = kn.name
				p.verify(t, withKernel(kn))
			}
		}
	}
	// Empty operands with zero dimensions are valid.
	Sgemm(false, false, 0, 0, 0, 1, nil, 1, nil, 1, 0, nil, 1)
	c := []float32{float32(math.NaN()), 3}
	Sgemm(false, false, 1, 2, 0, 1, nil, 1, nil, 2, 0, c, 2)
	if c[0] != 0 || c[1] != 0 {
		t.Fatalf("k=0, beta=0: C = %v, want zeros", c)
	}
}

func TestBadArguments(t *testing.T) {
	a := make([]float32, 12)
	cases := map[string]func(){
		"short A":    func() { Sgemm(false, false, 3, 4, 4, 1, a[:11], 4, a, 4, 0, a, 4) },
		"short B":    func() { Sgemm(false, true, 3, 4, 4, 1, a, 4, a[:15], 4, 0, make([]float32, 16), 4) },
		"short C":    func() { Sgemm(false, false, 3, 3, 4, 1, a, 4, a, 3, 0, a[:8], 3) },
		"small lda":  func() { Sgemm(false, false, 3, 4, 4, 1, a, 3, a, 4, 0, a, 4) },
		"small ldb":  func() { Dgemm(true, true, 2, 2, 2, 1, nil, 2, nil, 1, 0, nil, 2) },
		"negative m": func() { Sgemm(false, false, -1, 4, 4, 1, a, 4, a, 4, 0, a, 4) },
		"PackB":      func() { PackB(true, 4, 4, a, 4) },
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

// TestConcurrent shares scratch pools and a PackedB between goroutines; run
// with -race to check the pools.
func TestConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	base := newProblem(r, false, true, 37, 70, 300, 0, float32(1), float32(0), false)
	want, _ := base.reference()
	pb := PackB(true, base.k, base.n, base.b, base.ldb)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for range 5 {
				c := make([]float32, len(base.c))
				if g%2 == 0 {
					Sgemm(false, true, base.m, base.n, base.k, 1, base.a, base.lda, base.b, base.ldb, 0, c, base.ldc)
				} else {
					SgemmPacked(false, base.m, 1, base.a, base.lda, pb, 0, c, base.ldc)
				}
				for i := 0; i < base.m; i++ {
					for j := 0; j < base.n; j++ {
						if d := math.Abs(float64(c[i*base.ldc+j]) - want[i*base.n+j]); d > 1e-3 {
							t.Errorf("goroutine %d: C[%d,%d] off by %g", g, i, j, d)
							return
						}
					}
				}
			}
		})
	}
	wg.Wait()
}

func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	r := rand.New(rand.NewPCG(8, 8))
	// Shapes that reach packing, in-place operands, dot products and
	// partial tiles.
	shapes := [][4]int{{40, 150, 100, 0}, {40, 150, 100, 1}, {2, 50, 300, 1}, {7, 37, 20, 0}, {30, 13, 9, 1}}
	for _, kn := range sKernels {
		for _, s := range shapes {
			tb := s[3] == 1
			p := newProblem(r, false, tb, s[0], s[1], s[2], 0, float32(1), float32(1), false)
			pb := newPacked(kn, tb, p.k, p.n, p.b, p.ldb)
			call := func() {
				run(kn, 1, false, p.m, p.n, p.k, 1, p.a, p.lda, bSource[float32]{trans: tb, b: p.b, ldb: p.ldb}, 1, p.c, p.ldc, nil)
				run(kn, 1, false, p.m, p.n, p.k, 1, p.a, p.lda, bSource[float32]{packed: pb}, 1, p.c, p.ldc, nil)
			}
			call()
			if n := testing.AllocsPerRun(10, call); n != 0 {
				t.Errorf("%s %v: %v allocations per call, want 0", kn.name, s, n)
			}
		}
	}
	p := newProblem(r, true, false, 20, 30, 40, 0, float64(1), float64(0), false)
	n := testing.AllocsPerRun(10, func() {
		Dgemm(true, false, p.m, p.n, p.k, 1, p.a, p.lda, p.b, p.ldb, 0, p.c, p.ldc)
	})
	if n != 0 {
		t.Errorf("Dgemm: %v allocations per call, want 0", n)
	}
}

// Split across goroutines, every element is computed as on one: the
// results are bitwise those of one thread, for the blocked path (direct,
// packed-now and prepacked B, partial panels) and the dot-product path.
func TestThreadsGiveIdenticalResults(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	shapes := [][4]int{{64, 1000, 256, 0}, {64, 1000, 256, 1}, {200, 517, 300, 0}, {3, 2001, 300, 1}, {8, 1203, 600, 1}, {33, 700, 129, 0}, {8, 256, 432, 0}, {128, 256, 64, 1}, {131, 64, 256, 1}}
	for _, kn := range sKernels {
		for si, s := range shapes {
			tb := s[3] == 1
			// Over a prepacked B, products of many rows split by rows:
			// A transposed or not, with a column bias, and without.
			ta := si%2 == 1
			p := newProblem(r, ta, tb, s[0], s[1], s[2], 0, float32(1), float32(0.5), false)
			pb := newPacked(kn, tb, p.k, p.n, p.b, p.ldb)
			var bias []float32
			if si%3 == 0 {
				bias = randSlice[float32](r, 1, p.n, p.n)
			}
			c0 := append([]float32(nil), p.c...)
			for _, src := range []bSource[float32]{{trans: tb, b: p.b, ldb: p.ldb}, {packed: pb}} {
				want := append([]float32(nil), c0...)
				run(kn, 1, ta, p.m, p.n, p.k, 1.5, p.a, p.lda, src, 0.5, want, p.ldc, bias)
				for _, threads := range []int{2, 3, 4, 7} {
					got := append([]float32(nil), c0...)
					run(kn, threads, ta, p.m, p.n, p.k, 1.5, p.a, p.lda, src, 0.5, got, p.ldc, bias)
					for i := range want {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
							t.Fatalf("%s %v packed=%v threads=%d: [%d] = %g, one thread %g", kn.name, s, src.packed != nil, threads, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestStrips: a product of few rows over a packed B splits where the same
// product over a plain B, which every strip packs, does not (98,304
// multiply-adds: between two and four times par.MinWork); mobilenet_tiny_b8's
// classifier ([8,432]x[432,256]) and large products split, small ones and
// a single panel do not.
func TestStrips(t *testing.T) {
	for _, c := range []struct {
		m, n, k int
		packed  bool
		want    int
	}{
		{8, 96, 128, true, 2},
		{8, 96, 128, false, 1},
		{8, 256, 432, true, 2},
		{16, 32, 32, true, 1},
		{16, 32, 32, false, 1},
		{8, 16, 432, true, 1}, // one panel of columns
		{256, 1024, 1024, false, 2},
	} {
		if got := strips(2, c.m, c.n, c.k, 16, 6, c.packed); got != c.want {
			t.Errorf("strips(2, m=%d, n=%d, k=%d, packed=%v) = %d, want %d", c.m, c.n, c.k, c.packed, got, c.want)
		}
	}
	// Column strips of 48 and 8 (a squeeze-excite gate's 56 columns on
	// AVX-512) are not worth a split; 96 and 120 are, and 24 and 32; of
	// four strips over 5 panels, three even ones are.
	for _, c := range []struct{ s, n, align, want int }{
		{2, 56, 48, 1}, {2, 216, 48, 2}, {2, 56, 8, 2}, {4, 240, 48, 3}, {2, 1024, 48, 2},
	} {
		if got := evenStrips(c.s, c.n, c.align); got != c.want {
			t.Errorf("evenStrips(%d, n=%d, align=%d) = %d, want %d", c.s, c.n, c.align, got, c.want)
		}
	}
}

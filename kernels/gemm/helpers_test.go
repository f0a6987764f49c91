package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// problem is one GEMM call with its operands laid out in padded buffers.
type problem[T float] struct {
	transA, transB      bool
	m, n, k             int
	alpha, beta         T
	a, b, c             []T
	bias                []T // nil, or n values added to the columns
	lda, ldb, ldc       int
	nanC                bool // C starts as NaN (only meaningful with beta == 0)
	cSentinel           T    // value of C elements outside the m×n matrix
	kernelName, comment string
}

func (p *problem[T]) String() string {
	return fmt.Sprintf("%s m=%d n=%d k=%d tA=%v tB=%v alpha=%v beta=%v lda=%d ldb=%d ldc=%d nanC=%v bias=%v %s",
		p.kernelName, p.m, p.n, p.k, p.transA, p.transB, p.alpha, p.beta, p.lda, p.ldb, p.ldc, p.nanC, p.bias != nil, p.comment)
}

// newProblem fills operands with values in [-1, 1); pad adds to each stride.
func newProblem[T float](r *rand.Rand, transA, transB bool, m, n, k, pad int, alpha, beta T, nanC bool) *problem[T] {
	p := &problem[T]{transA: transA, transB: transB, m: m, n: n, k: k, alpha: alpha, beta: beta, nanC: nanC, cSentinel: -7}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	p.lda = max(1, ac) + r.IntN(pad+1)
	p.ldb = max(1, bc) + r.IntN(pad+1)
	p.ldc = max(1, n) + r.IntN(pad+1)
	p.a = randSlice[T](r, ar, ac, p.lda)
	p.b = randSlice[T](r, br, bc, p.ldb)
	p.c = randSlice[T](r, m, n, p.ldc)
	for i := range p.c {
		if i%p.ldc >= n || i/p.ldc >= m {
			p.c[i] = p.cSentinel
		} else if nanC {
			p.c[i] = T(math.NaN())
		}
	}
	return p
}

// randSlice returns a rows×cols matrix with stride ld, exactly as long as
// needed so that reads past the end would be caught by bounds checks.
func randSlice[T float](r *rand.Rand, rows, cols, ld int) []T {
	n := 0
	if rows > 0 && cols > 0 {
		n = (rows-1)*ld + cols
	}
	s := make([]T, n)
	for i := range s {
		s[i] = T(2*r.Float64() - 1)
	}
	return s
}

func (p *problem[T]) at(x []T, trans bool, ld, i, j int) float64 {
	if trans {
		i, j = j, i
	}
	return float64(x[i*ld+j])
}

// reference returns the exact-ish result (float64 accumulation) and, per
// element, the sum of absolute terms that bounds the rounding error.
func (p *problem[T]) reference() (want, bound []float64) {
	want = make([]float64, p.m*p.n)
	bound = make([]float64, p.m*p.n)
	alpha, beta := float64(p.alpha), float64(p.beta)
	for i := 0; i < p.m; i++ {
		for j := 0; j < p.n; j++ {
			var s, sa float64
			for l := 0; l < p.k; l++ {
				t := p.at(p.a, p.transA, p.lda, i, l) * p.at(p.b, p.transB, p.ldb, l, j)
				s += t
				sa += math.Abs(t)
			}
			w, e := alpha*s, math.Abs(alpha)*sa
			if p.bias != nil {
				w += float64(p.bias[j])
				e += math.Abs(float64(p.bias[j]))
			}
			if beta != 0 {
				cij := float64(p.c[i*p.ldc+j])
				w += beta * cij
				e += math.Abs(beta * cij)
			}
			want[i*p.n+j], bound[i*p.n+j] = w, e
		}
	}
	return want, bound
}

func epsOf[T float]() float64 {
	var z T
	switch any(z).(type) {
	case float32:
		return 0x1p-23
	default:
		return 0x1p-52
	}
}

// verify runs f on p and compares C against the reference, including that
// the stride padding of C is untouched.
func (p *problem[T]) verify(t failer, f func(p *problem[T])) {
	t.Helper()
	want, bound := p.reference()
	f(p)
	eps := epsOf[T]()
	for i := range p.c {
		r, j := i/p.ldc, i%p.ldc
		got := p.c[i]
		if r >= p.m || j >= p.n {
			if got != p.cSentinel {
				t.Fatalf("%v: C[%d,%d] outside the matrix changed to %v", p, r, j, got)
			}
			continue
		}
		w, e := want[r*p.n+j], bound[r*p.n+j]
		tol := 2*float64(p.k+4)*eps*e + 1e-30
		if d := math.Abs(float64(got) - w); !(d <= tol) {
			t.Fatalf("%v: C[%d,%d] = %v, want %v (|diff| %g > tol %g)", p, r, j, got, w, d, tol)
		}
	}
}

// failer is what verify needs of *testing.T and *rapid.T.
type failer interface {
	Helper()
	Fatalf(format string, args ...any)
}

// withKernel returns a runner that multiplies p with kernel kn.
func withKernel[T float](kn *kernel[T]) func(p *problem[T]) {
	return func(p *problem[T]) {
		src := bSource[T]{trans: p.transB, b: p.b, ldb: p.ldb}
		checkMatrix("B", p.transB, p.k, p.n, p.b, p.ldb)
		run(kn, 1, p.transA, p.m, p.n, p.k, p.alpha, p.a, p.lda, src, p.beta, p.c, p.ldc, p.bias)
	}
}

// withPacked returns a runner that packs B first, as weight users do.
func withPacked[T float](kn *kernel[T]) func(p *problem[T]) {
	return func(p *problem[T]) {
		pb := newPacked(kn, p.transB, p.k, p.n, p.b, p.ldb)
		run(kn, 1, p.transA, p.m, p.n, p.k, p.alpha, p.a, p.lda, bSource[T]{packed: pb}, p.beta, p.c, p.ldc, p.bias)
	}
}

// testKernels returns every kernel this CPU runs, each also with tiny
// blocking so small problems cross k-, m- and n-block boundaries, and with
// packing forced wherever the heuristics would read in place.
func testKernels[T float](all []*kernel[T]) []*kernel[T] {
	var ks []*kernel[T]
	for _, kn := range all {
		tiny := *kn
		tiny.name += "/tiny-blocks"
		tiny.kc, tiny.mc, tiny.nc = 5, 2*kn.mr, 2*kn.nr
		tiny.directA, tiny.directB, tiny.dot = 0, false, nil
		ks = append(ks, kn, &tiny)
	}
	return ks
}

// reducedTests trims the exhaustive sweeps in -short mode and under the
// race detector, which slows the naive reference tenfold.
func reducedTests() bool { return testing.Short() || raceEnabled }

var transCombos = [4][2]bool{{false, false}, {false, true}, {true, false}, {true, true}}

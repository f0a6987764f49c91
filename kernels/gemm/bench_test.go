package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/seam-rt/seam/internal/cputime"
)

// benchShape is one multiplication C[m×n] = A[m×k]·op(B); batch repeats it
// on independent operands, as attention's bmm does per head.
type benchShape struct {
	name    string
	m, n, k int
	transB  bool
	batch   int
}

var benchShapes = []benchShape{
	{name: "square-8", m: 8, n: 8, k: 8},
	{name: "square-16", m: 16, n: 16, k: 16},
	{name: "square-32", m: 32, n: 32, k: 32},
	{name: "square-64", m: 64, n: 64, k: 64},
	{name: "square-256", m: 256, n: 256, k: 256},
	{name: "square-1024", m: 1024, n: 1024, k: 1024},
	// Linear layers of GPT-2 small at sequence length 128 (weights [out, in]).
	{name: "gpt2-qkv-128", m: 128, n: 2304, k: 768, transB: true},
	{name: "gpt2-mlp-up-128", m: 128, n: 3072, k: 768, transB: true},
	{name: "gpt2-mlp-down-128", m: 128, n: 768, k: 3072, transB: true},
	{name: "gpt2-qkv-decode", m: 1, n: 2304, k: 768, transB: true},
	{name: "gpt2-qkv-decode-rowmajorB", m: 1, n: 2304, k: 768},
	{name: "gpt2-qkv-4", m: 4, n: 2304, k: 768, transB: true},
	{name: "tiny-qkv-7", m: 7, n: 192, k: 64, transB: true},
	{name: "tiny-qkv-7-rowmajorB", m: 7, n: 192, k: 64},
	// Attention per head: scores Q·K^T and weighted values P·V.
	{name: "attn-scores-4x200x16", m: 200, n: 200, k: 16, transB: true, batch: 4},
	{name: "attn-values-4x200x16", m: 200, n: 16, k: 200, batch: 4},
	{name: "attn-scores-12x128x64", m: 128, n: 128, k: 64, transB: true, batch: 12},
}

// benchSquares returns the square shapes of 64 and up.
func benchSquares() []benchShape {
	var sq []benchShape
	for _, s := range benchShapes {
		if s.m == s.n && s.n == s.k && s.m >= 64 {
			sq = append(sq, s)
		}
	}
	return sq
}

func (s benchShape) flops() float64 {
	return 2 * float64(s.m) * float64(s.n) * float64(s.k) * float64(max(1, s.batch))
}

// reportGFLOPS reports throughput by the wall clock and, on a machine
// shared with other work, by the CPU time used since cpu0 (cputime.Used
// before the loop): the better measure of the kernel for one goroutine.
func reportGFLOPS(b *testing.B, flops float64, cpu0 time.Duration) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if d := cputime.Used() - cpu0; cpu0 > 0 && d > 0 {
		b.ReportMetric(flops*float64(b.N)/d.Seconds()/1e9, "cpu-GFLOP/s")
	}
}

func BenchmarkSgemm(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(s.name, func(b *testing.B) { benchSgemm(b, s, false) })
	}
}

// BenchmarkSgemmPacked multiplies by a B packed once with PackB, the path
// for constant weights.
func BenchmarkSgemmPacked(b *testing.B) {
	for _, s := range benchShapes {
		if s.batch == 0 {
			b.Run(s.name, func(b *testing.B) { benchSgemm(b, s, true) })
		}
	}
}

// BenchmarkSgemmKernels compares every available kernel on squares.
func BenchmarkSgemmKernels(b *testing.B) {
	for _, kn := range sKernels {
		for _, s := range benchSquares() {
			b.Run(fmt.Sprintf("%s/%s", kn.name, s.name), func(b *testing.B) {
				defer func(k *kernel[float32]) { sActive = k }(sActive)
				sActive = kn
				benchSgemm(b, s, false)
			})
		}
	}
}

func BenchmarkDgemm(b *testing.B) {
	for _, s := range benchSquares() {
		b.Run(s.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			a := randSlice[float64](r, s.m, s.k, s.k)
			bm := randSlice[float64](r, s.k, s.n, s.n)
			c := make([]float64, s.m*s.n)
			cpu0 := cputime.Used()
			for b.Loop() {
				Dgemm(false, false, s.m, s.n, s.k, 1, a, s.k, bm, s.n, 0, c, s.n)
			}
			reportGFLOPS(b, s.flops(), cpu0)
		})
	}
}

func benchSgemm(b *testing.B, s benchShape, packed bool) {
	r := rand.New(rand.NewPCG(1, 1))
	batch := max(1, s.batch)
	ldb := s.n
	if s.transB {
		ldb = s.k
	}
	as, bs, cs := make([][]float32, batch), make([][]float32, batch), make([][]float32, batch)
	for i := range batch {
		as[i] = randSlice[float32](r, s.m, s.k, s.k)
		if s.transB {
			bs[i] = randSlice[float32](r, s.n, s.k, ldb)
		} else {
			bs[i] = randSlice[float32](r, s.k, s.n, ldb)
		}
		cs[i] = make([]float32, s.m*s.n)
	}
	var pb *PackedB
	if packed {
		pb = PackB(s.transB, s.k, s.n, bs[0], ldb)
	}
	cpu0 := cputime.Used()
	for b.Loop() {
		for i := range batch {
			if packed {
				SgemmPacked(false, s.m, 1, as[i], s.k, pb, 0, cs[i], s.n)
			} else {
				Sgemm(false, s.transB, s.m, s.n, s.k, 1, as[i], s.k, bs[i], ldb, 0, cs[i], s.n)
			}
		}
	}
	reportGFLOPS(b, s.flops(), cpu0)
}

// BenchmarkSgemmThreads times a 1024² product on one goroutine and on two:
// the intra-op speedup on two cores.
func BenchmarkSgemmThreads(b *testing.B) {
	const n = 1024
	x := make([]float32, n*n)
	for i := range x {
		x[i] = float32(i%17) - 8
	}
	c := make([]float32, n*n)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("square-1024/threads-%d", threads), func(b *testing.B) {
			for b.Loop() {
				SgemmThreads(threads, false, false, n, n, n, 1, x, n, x, n, 0, c, n)
			}
			b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkSgemmBatchCols times the pointwise convolutions of a MobileNet
// at batch 8 (weight [m, k], planes of n pixels) as one batched-columns
// product, with a bias, against one Sgemm per sample.
func BenchmarkSgemmBatchCols(b *testing.B) {
	for _, s := range []struct {
		name           string
		m, n, k, batch int
	}{
		{"16to56-24x24", 56, 576, 16, 8},
		{"24to72-12x12", 72, 144, 24, 8},
		{"40to216-6x6", 216, 36, 40, 8},
		{"184to32-6x6", 32, 36, 184, 8},
		{"72to432-3x3", 432, 9, 72, 8},
		// A ResNet's bottleneck at batch 1: planes of 3136 pixels, B rows
		// 12 KiB apart.
		{"256to64-56x56-b1", 64, 3136, 256, 1},
		{"64to256-56x56-b1", 256, 3136, 64, 1},
		{"512to512-14x14-b1", 512, 196, 512, 1},
	} {
		r := rand.New(rand.NewPCG(1, 1))
		w := randSlice[float32](r, s.m, s.k, s.k)
		x := randSlice[float32](r, s.batch*s.k, s.n, s.n)
		y := make([]float32, s.batch*s.m*s.n)
		bias := randSlice[float32](r, 1, s.m, s.m)
		flops := 2 * float64(s.m) * float64(s.n) * float64(s.k) * float64(s.batch)
		b.Run(s.name+"/batched", func(b *testing.B) {
			cpu0 := cputime.Used()
			for b.Loop() {
				SgemmBatchColsThreads(1, s.m, s.n, s.k, s.batch, 1, w, s.k, x, s.n, s.k*s.n, 0, y, s.n, s.m*s.n, bias)
			}
			reportGFLOPS(b, flops, cpu0)
		})
		b.Run(s.name+"/per-sample", func(b *testing.B) {
			cpu0 := cputime.Used()
			for b.Loop() {
				for i := 0; i < s.batch; i++ {
					Sgemm(false, false, s.m, s.n, s.k, 1, w, s.k, x[i*s.k*s.n:], s.n, 0, y[i*s.m*s.n:], s.n)
				}
			}
			reportGFLOPS(b, flops, cpu0)
		})
	}
}

package kernels_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/value"
)

// BenchmarkSplitOps times mobilenet_tiny_b8's elementwise and pooling
// shapes on one thread and on two, in ns per element: what binaryCost and
// the mean's cost in par.Chunks stand for, and whether a split pays.
func BenchmarkSplitOps(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	x, y := randTensor(r, 8, 24, 28, 28), randTensor(r, 8, 24, 28, 28)
	se, gate := randTensor(r, 8, 96, 14, 14), randTensor(r, 8, 96, 1, 1)
	cases := []struct {
		name, target string
		named        []ops.NamedArg
		elems        int
	}{
		{"add", "aten.add.Tensor", []ops.NamedArg{tv(x), tv(y)}, x.Numel()},
		{"mul_gate", "aten.mul.Tensor", []ops.NamedArg{tv(se), tv(gate)}, se.Numel()},
		{"mean_hw", "aten.mean.dim", []ops.NamedArg{tv(se), pos(value.FromInts([]int64{-1, -2})), pos(value.FromBool(true))}, se.Numel()},
	}
	for _, c := range cases {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", c.name, threads), func(b *testing.B) {
				s, _ := ops.Lookup(c.target)
				k, _ := kernels.Lookup(c.target)
				args, err := s.Bind(nil, c.named)
				if err != nil {
					b.Fatal(err)
				}
				ctx := kernels.NewContext()
				ctx.Threads = threads
				out := make([]value.Value, len(s.Returns))
				for b.Loop() {
					if err := k(ctx, args, out); err != nil {
						b.Fatal(err)
					}
					ctx.Release(out[0])
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.elems), "ns/elem")
			})
		}
	}
}

package kernels_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/seam-rt/seam/internal/cputime"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/kernels/gemm"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// BenchmarkPackedMatmul times the packed linear layers of vit_tiny (130
// tokens: qkv, MLP up and down) with their [N] bias, one thread, as the
// runtime's pack pass runs them.
func BenchmarkPackedMatmul(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	for _, s := range [][3]int{{130, 64, 192}, {130, 64, 256}, {130, 256, 64}} {
		m, k, n := s[0], s[1], s[2]
		b.Run(fmt.Sprintf("vit_tiny/%dx%dx%d", m, k, n), func(b *testing.B) {
			w := randTensor(r, n, k)
			pk := kernels.PackedMatmul(gemm.PackB(true, k, n, tensor.Contig[float32](w), k), true)
			args := []value.Value{value.FromTensor(randTensor(r, n)), value.FromTensor(randTensor(r, m, k))}
			ctx := kernels.NewContext()
			out := make([]value.Value, 1)
			b.ReportAllocs()
			c0 := cputime.Used()
			for b.Loop() {
				if err := pk(ctx, args, out); err != nil {
					b.Fatal(err)
				}
				ctx.Release(out[0])
			}
			if c0 > 0 {
				b.ReportMetric(float64(cputime.Used()-c0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

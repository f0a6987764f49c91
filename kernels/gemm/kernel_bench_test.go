package gemm

import (
	"fmt"
	"testing"

	"github.com/seam-rt/seam/internal/cputime"
)

// BenchmarkTile measures one full register tile on cache-resident packed
// operands: the ceiling the blocked driver can approach.
func BenchmarkTile(b *testing.B) {
	for _, kn := range sKernels {
		for _, kc := range []int{16, 40, 64, 256} {
			b.Run(fmt.Sprintf("%s/kc=%d", kn.name, kc), func(b *testing.B) {
				a := alignedSlice[float32](kn.mr * kc)
				bp := alignedSlice[float32](kn.nr * kc)
				c := alignedSlice[float32](kn.mr * kn.nr)
				cpu0 := cputime.Used()
				for b.Loop() {
					kn.tile(kn.mr, kn.nr, kc, a, 1, kn.mr, bp, kn.nr, c, kn.nr, 1, 1, nil, nil)
				}
				reportGFLOPS(b, 2*float64(kn.mr*kn.nr*kc), cpu0)
			})
		}
	}
}

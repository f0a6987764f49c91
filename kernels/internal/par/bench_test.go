package par

import (
	"fmt"
	"sync"
	"testing"
)

// BenchmarkHandOff times a region of two empty chunks: what a split costs
// the caller beyond its work, through the pool (its worker spinning, as it
// is between the regions of one run) and, for comparison, by starting a
// goroutine per chunk and waiting on a WaitGroup (par's first design).
func BenchmarkHandOff(b *testing.B) {
	b.Run("pool", func(b *testing.B) {
		for b.Loop() {
			For(2, 2, 1, func(lo, hi int) {})
		}
	})
	b.Run("spawn", func(b *testing.B) {
		for b.Loop() {
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done() }()
			wg.Wait()
		}
	})
}

// BenchmarkFor times a split of work units of arithmetic (a multiply-add
// each, over a buffer of work/64 floats per item, in cache) on one thread and
// on two: where threads=2 starts beating threads=1 is where MinWork should
// sit.
func BenchmarkFor(b *testing.B) {
	for _, work := range []int{1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20} {
		const n = 64
		x := make([]float32, max(work/n, 4))
		for i := range x {
			x[i] = float32(i%7) * 0.25
		}
		sums := make([]float32, n)
		fn := func(lo, hi int) {
			for i := lo; i < hi; i++ {
				var s0, s1, s2, s3 float32
				for j := 0; j+3 < len(x); j += 4 {
					s0 += x[j] * 0.5
					s1 += x[j+1] * 0.5
					s2 += x[j+2] * 0.5
					s3 += x[j+3] * 0.5
				}
				sums[i] = s0 + s1 + s2 + s3
			}
		}
		for _, k := range []int{1, 2} {
			b.Run(fmt.Sprintf("work=%d/threads=%d", work, k), func(b *testing.B) {
				for b.Loop() {
					For(k, n, 1, fn)
				}
			})
		}
	}
}

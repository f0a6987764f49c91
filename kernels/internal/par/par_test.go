package par

import (
	"sync/atomic"
	"testing"
)

func TestForCoversEachItemOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 48, 100, 1001} {
		for _, align := range []int{1, 4, 48} {
			for k := 0; k <= 5; k++ {
				hits := make([]int32, n)
				var chunks atomic.Int32
				For(k, n, align, func(lo, hi int) {
					chunks.Add(1)
					if lo%align != 0 && lo != n {
						t.Errorf("n=%d align=%d k=%d: chunk starts at %d", n, align, k, lo)
					}
					for i := lo; i < hi; i++ {
						atomic.AddInt32(&hits[i], 1)
					}
				})
				for i, h := range hits {
					if h != 1 {
						t.Fatalf("n=%d align=%d k=%d: item %d run %d times", n, align, k, i, h)
					}
				}
				if int(chunks.Load()) > max(k, 1) {
					t.Fatalf("n=%d k=%d: %d chunks", n, k, chunks.Load())
				}
			}
		}
	}
}

func TestChunksKeepsSmallWorkInline(t *testing.T) {
	if c := Chunks(8, 1000, 10); c != 1 {
		t.Fatalf("10,000 units of work in %d chunks", c)
	}
	if c := Chunks(1, 1<<20, 1<<20); c != 1 {
		t.Fatalf("one thread: %d chunks", c)
	}
	if c := Chunks(2, 64, MinWork); c != 2 {
		t.Fatalf("64 items of MinWork on 2 threads: %d chunks", c)
	}
	if c := Chunks(16, 3, MinWork); c != 3 {
		t.Fatalf("3 items on 16 threads: %d chunks", c)
	}
}

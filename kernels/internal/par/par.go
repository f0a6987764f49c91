// Package par splits a kernel's work across goroutines: a range of
// independent items (output columns, planes, rows) is cut into contiguous
// chunks, one per goroutine, only when each chunk has enough work to pay
// for starting it. Every item is computed by the same code whichever chunk
// it falls in, so results do not depend on the thread count.
package par

import "sync"

// MinWork is the least work (in multiply-adds, or element operations) a
// chunk must have before a second goroutine is worth starting: a goroutine
// costs a few microseconds to start and join, this is tens of them.
const MinWork = 1 << 18

// Chunks returns how many chunks to cut n items into for at most threads
// goroutines, when each item costs about cost units of work: 1 (run in
// the caller) unless every chunk gets at least MinWork.
func Chunks(threads, n int, cost float64) int {
	if threads <= 1 || n <= 1 {
		return 1
	}
	k := int(float64(n) * cost / MinWork)
	return max(1, min(k, threads, n))
}

// For runs fn on chunks [lo, hi) of [0, n) cut into k nearly equal
// contiguous parts (each a multiple of align items except the last), k-1
// of them on new goroutines and the first in the caller, and returns when
// all are done. k <= 1 runs fn(0, n) directly.
func For(k, n, align int, fn func(lo, hi int)) {
	align = max(align, 1)
	units := (n + align - 1) / align
	k = min(k, units)
	if k <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	bound := func(i int) int { return min(n, units*i/k*align) }
	for i := 1; i < k; i++ {
		lo, hi := bound(i), bound(i+1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	fn(0, bound(1))
	wg.Wait()
}

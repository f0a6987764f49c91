// Package par splits a kernel's work across goroutines: a range of
// independent items (output columns, planes, rows) is cut into contiguous
// chunks, which the caller and the process's workers (see pool.go) claim
// one at a time, only when each chunk has enough work to pay for the
// hand-off. Every item is computed by the same code whichever chunk it
// falls in and whoever runs it, so results do not depend on the thread
// count.
package par

// MinWork is the least work (in multiply-adds, or element operations) a
// chunk must have before it is worth handing to a worker: a hand-off to a
// spinning worker costs about a microsecond (BenchmarkHandOff), and 1<<15
// multiply-adds are about that much of one core's matrix product. Smaller
// splits pay because the caller takes the front chunks and the workers
// the back (see region): an op left whole after split ones reads the
// other core's half of its input across the caches, which costs more than
// the hand-off. Measured in paired turns on two cores (AMD EPYC with
// AVX-512, 2026-12-02), against 1<<18: mobilenet_tiny_b8 5-9% faster, gpt2_tiny 16%, bert_tiny
// 9%, mobilenet_tiny 3%, vit_tiny and llama_tiny unchanged; 1<<14 gained
// less on mobilenet_tiny_b8.
const MinWork = 1 << 15

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
// contiguous parts (each a multiple of align items except the last) and
// returns when all are done. The caller runs chunks itself and offers the
// rest to the pool's workers: a chunk no worker has claimed by the time
// the caller gets to it runs in the caller, so a busy or sleeping worker
// delays nothing. k <= 1 runs fn(0, n) directly.
func For(k, n, align int, fn func(lo, hi int)) {
	ForChunks(k, n, align, func(_, lo, hi int) { fn(lo, hi) })
}

// ForChunks is For with each chunk's index, 0 to Count(k, n, align)-1,
// whose bounds are Bounds(k, n, align, i): for a caller that prepares
// something per chunk (views of its operands) before the split.
func ForChunks(k, n, align int, fn func(i, lo, hi int)) {
	align = max(align, 1)
	k = Count(k, n, align)
	if k <= 1 {
		fn(0, 0, n)
		return
	}
	r := newRegion(fn, n, k, align)
	if !workers.offer(r) {
		for i := range k {
			r.chunk(i)
		}
		return
	}
	r.work(true)
	workers.withdraw(r)
	r.wait()
}

// Count is how many chunks For(k, n, align, ...) cuts [0, n) into: k, or
// fewer when there are fewer units of align items.
func Count(k, n, align int) int {
	align = max(align, 1)
	return max(1, min(k, (n+align-1)/align))
}

// Bounds is chunk i's [lo, hi) of For(k, n, align, ...), k as Count gives.
func Bounds(k, n, align, i int) (lo, hi int) {
	align = max(align, 1)
	units := (n + align - 1) / align
	return min(n, units*i/k*align), min(n, units*(i+1)/k*align)
}

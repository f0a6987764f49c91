package gemm

import (
	"fmt"
	"unsafe"

	"github.com/seam-rt/seam/kernels/internal/par"
)

// SgemmBatchColsThreads computes C_s = alpha*A*B_s + bias + beta*C_s for
// every sample s < batch on up to threads goroutines: A is m×k (row stride
// lda), B_s = b[s*strideB:] is k×n (row stride ldb), C_s = c[s*strideC:]
// is m×n (row stride ldc), and bias, unless nil, holds m values, bias[i]
// added to row i. This is a 1x1 convolution over NCHW samples (A the
// weight, B_s and C_s the planes of sample s): the samples' columns are
// cut into register tiles together, as one m × batch*n product, so a small
// plane (a few dozen pixels) still fills whole tiles, A is packed once for
// all samples, and the bias is added while a tile is in registers. A tile
// whose columns lie in one sample reads B_s and writes C_s in place; only
// the tiles across a sample boundary (and the last, partial one) go
// through packed copies. Each element is computed as on one goroutine,
// whatever threads is.
func SgemmBatchColsThreads(threads, m, n, k, batch int, alpha float32, a []float32, lda int, b []float32, ldb, strideB int, beta float32, c []float32, ldc, strideC int, bias []float32) {
	SgemmBatchColsThen(threads, m, n, k, batch, alpha, a, lda, b, ldb, strideB, beta, c, ldc, strideC, bias, nil)
}

// SgemmBatchColsThen is SgemmBatchColsThreads followed by then(lo, hi) on
// each range [lo, hi) of the batch*n columns (column j is column j%n of
// sample j/n) once those columns of every row of C are final, on the
// goroutine that computed them: an activation applied there runs in the
// split and while its columns are still in that core's cache. The ranges
// cover [0, batch*n) once.
func SgemmBatchColsThen(threads, m, n, k, batch int, alpha float32, a []float32, lda int, b []float32, ldb, strideB int, beta float32, c []float32, ldc, strideC int, bias []float32, then func(lo, hi int)) {
	checkBatch("B", batch, k, n, b, ldb, strideB, false)
	checkBatch("C", batch, m, n, c, ldc, strideC, true)
	checkMatrix("A", false, m, k, a, lda)
	if bias != nil && len(bias) < m {
		panic(fmt.Sprintf("gemm: len(bias) = %d < m = %d", len(bias), m))
	}
	if m == 0 || n == 0 || batch == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		for s := 0; s < batch; s++ {
			cs := c[s*strideC:]
			scale(m, n, beta, cs, ldc)
			if bias != nil {
				for i := 0; i < m; i++ {
					row := cs[i*ldc : i*ldc+n]
					for j := range row {
						row[j] += bias[i]
					}
				}
			}
		}
		if then != nil {
			then(0, n*batch)
		}
		return
	}
	gemmBatchCols(sActive, threads, m, n, k, batch, alpha, a, lda, b, ldb, strideB, beta, c, ldc, strideC, bias, then)
}

// checkBatch panics unless x holds batch rows×cols matrices of row stride
// ld, stride apart, and, when distinct, the matrices do not overlap (a
// sample's C written over another's would make the result depend on the
// tile order; B, only read, may even be one matrix with stride 0).
func checkBatch[T float](name string, batch, rows, cols int, x []T, ld, stride int, distinct bool) {
	if batch < 0 {
		panic(fmt.Sprintf("gemm: negative batch %d", batch))
	}
	checkMatrix(name, false, rows, cols, x, ld)
	if batch <= 1 || rows == 0 || cols == 0 {
		return
	}
	if stride < 0 || distinct && stride < (rows-1)*ld+cols {
		panic(fmt.Sprintf("gemm: stride%s = %d: the %d×%d matrices of the batch overlap (or precede each other)", name, stride, rows, cols))
	}
	if need := (batch-1)*stride + (rows-1)*ld + cols; len(x) < need {
		panic(fmt.Sprintf("gemm: len(%s) = %d < %d for %d matrices %d×%d with stride %d, %d apart", name, len(x), need, batch, rows, cols, ld, stride))
	}
}

// gemmBatchCols runs the batched product (arguments validated, m, n, k,
// batch >= 1) on strips of whole column panels of the batch*n columns,
// each followed by then (unless nil) on its columns.
func gemmBatchCols[T float](kn *kernel[T], threads, m, n, k, batch int, alpha T, a []T, lda int, b []T, ldb, sb int, beta T, c []T, ldc, sc int, bias []T, then func(lo, hi int)) {
	total := n * batch
	strip := func(lo, hi int) {
		batchCols(kn, lo, hi, m, n, k, alpha, a, lda, b, ldb, sb, beta, c, ldc, sc, bias)
		if then != nil {
			then(lo, hi)
		}
	}
	strips := par.Chunks(threads, (total+kn.nr-1)/kn.nr, float64(m)*float64(k)*float64(kn.nr))
	if strips <= 1 {
		strip(0, total)
		return
	}
	par.For(strips, total, kn.nr, strip)
}

// batchCols computes columns [lo, hi) of the batch*n (lo a multiple of nr)
// in BLIS's order: per k block, the panels that cannot be read in place
// are packed once, then per block of rows A is packed and every panel
// meets every A micro-panel. The bias joins the first k block.
func batchCols[T float](kn *kernel[T], lo, hi, m, n, k int, alpha T, a []T, lda int, b []T, ldb, sb int, beta T, c []T, ldc, sc int, bias []T) {
	mr, nr := kn.mr, kn.nr
	kcMax := min(kn.kc, k)
	// A panel reads B in place when its columns lie in one sample and fill
	// the register tile (or the kernel masks columns), unless the row stride
	// is a multiple of 4 KiB, where a panel's rows share L1 sets.
	var z T
	alias := ldb*int(unsafe.Sizeof(z))%4096 == 0
	packed := 0
	for j := lo; j < hi; j += nr {
		if !batchInPlace(kn, alias, j, min(nr, hi-j), n) {
			packed++
		}
	}
	mcMax := min(kn.mc, roundUp(m, mr))
	s := getScratch[T](mcMax*kcMax, packed*kcMax*nr+mcMax*nr)
	defer putScratch(s)
	// The tiles of a panel that is not in place, before they are cut up.
	tmp := s.b[packed*kcMax*nr:][:mcMax*nr]
	// A tile's columns cut at sample boundaries: at most nr runs.
	var segs [maxNR]batchSeg
	for pc := 0; pc < k; pc += kn.kc {
		kc := min(kn.kc, k-pc)
		bt, bs := firstBlock(pc, beta, bias)
		q := 0
		for j := lo; j < hi; j += nr {
			if w := min(nr, hi-j); !batchInPlace(kn, alias, j, w, n) {
				packBatchPanel(s.b[q*kc*nr:][:kc*nr], b, ldb, sb, n, pc, kc, j, w, nr)
				q++
			}
		}
		for ic := 0; ic < m; ic += kn.mc {
			mc := min(kn.mc, m-ic)
			for ir := 0; ir < mc; ir += mr {
				packA(s.a[ir*kc:], false, a, lda, ic+ir, pc, min(mr, mc-ir), kc)
			}
			var rowBias []T
			q := 0
			for j := lo; j < hi; j += nr {
				w := min(nr, hi-j)
				smp, p := j/n, j%n
				if batchInPlace(kn, alias, j, w, n) {
					if bs != nil {
						rowBias = bs[ic:]
					}
					kn.tiles(mc, w, kc, s.a, b[smp*sb+pc*ldb+p:], ldb, c[smp*sc+ic*ldc+p:], ldc, alpha, bt, rowBias, nil)
					continue
				}
				bp := s.b[q*kc*nr:]
				q++
				// Where the tile's columns go: segments of one sample each,
				// the same for every row.
				ns := 0
				for d, sm, pq := 0, smp, p; d < w; d, sm, pq = d+min(n-pq, w-d), sm+1, 0 {
					segs[ns] = batchSeg{d: d, off: sm*sc + pq, n: min(n-pq, w-d)}
					ns++
				}
				if bs != nil {
					rowBias = bs[ic:]
				}
				kn.tiles(mc, nr, kc, s.a, bp, nr, tmp, nr, alpha, 0, rowBias, nil)
				for i := 0; i < mc; i++ {
					row, at := tmp[i*nr:][:w], (ic+i)*ldc
					for _, sg := range segs[:ns] {
						addRow(c[sg.off+at:][:sg.n], row[sg.d:], bt)
					}
				}
			}
		}
	}
}

// maxNR is the widest register tile of any kernel.
const maxNR = 48

// batchSeg is a run of a tile's columns within one sample: columns
// [d, d+n) of the tile are C's from element off (of the tile's first row).
type batchSeg struct{ d, off, n int }

// batchInPlace reports whether the panel of the w columns from column j
// of the batch*n reads B (and writes C) in place.
func batchInPlace[T float](kn *kernel[T], alias bool, j, w, n int) bool {
	return !alias && j%n+w <= n && (w == kn.nr || kn.directB)
}

// packBatchPanel packs rows [pc, pc+kc) of the w (<= nr) columns from
// column j of the batch*n into dst (kc rows of nr, zero-padded): column
// j+d is column (j+d)%n of sample (j+d)/n.
func packBatchPanel[T float](dst, b []T, ldb, sb, n, pc, kc, j, w, nr int) {
	for pp := 0; pp < kc; pp++ {
		row := dst[pp*nr : (pp+1)*nr]
		for d, sm, pq := 0, j/n, j%n; d < w; d, sm, pq = d+min(n-pq, w-d), sm+1, 0 {
			seg := min(n-pq, w-d)
			copy(row[d:d+seg], b[sm*sb+(pc+pp)*ldb+pq:][:seg])
		}
		clear(row[w:])
	}
}

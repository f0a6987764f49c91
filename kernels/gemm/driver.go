package gemm

import (
	"unsafe"

	"github.com/seam-rt/seam/kernels/internal/par"
)

// directMaxM is the most rows for which B is always read in place, when the
// kernel can: so few row panels reuse B that packing cannot pay off.
const directMaxM = 16

// dotMinK: past 4 rows, dot products pay for their horizontal sums only on
// long rows.
const dotMinK = 256

// bBlock locates the B panels of one kc x nc block: panel q starts at
// buf[q*panelStride] and its k steps are ld elements apart.
type bBlock[T float] struct {
	buf         []T
	ld          int
	panelStride int
}

// bSource is where B comes from: a caller's matrix, or a PackedB.
type bSource[T float] struct {
	trans  bool
	b      []T
	ldb    int
	packed *packed[T] // when non-nil, b and ldb are unused
	joff   int        // first column of packed used (a multiple of nr)
}

// cols is the source of op(B)'s columns from j on.
func (src bSource[T]) cols(j int) bSource[T] {
	switch {
	case src.packed != nil:
		src.joff += j
	case src.trans:
		src.b = src.b[j*src.ldb:]
	default:
		src.b = src.b[j:]
	}
	return src
}

// block returns the kc x nc block of op(B) at (pc, jc) in panels of nr
// columns: prepacked, read in place, or packed now into s.b.
func (src bSource[T]) block(s *scratch[T], direct bool, pc, jc, kc, nc, nr int) bBlock[T] {
	switch {
	case src.packed != nil:
		return src.packed.block(pc, src.joff+jc, kc)
	case direct:
		return bBlock[T]{buf: src.b[pc*src.ldb+jc:], ld: src.ldb, panelStride: nr}
	}
	packB(s.b, src.trans, src.b, src.ldb, pc, jc, kc, nc, nr)
	return bBlock[T]{buf: s.b, ld: nr, panelStride: kc * nr}
}

// stripWeight is a strip's multiply-add's work for par.Chunks: a half,
// since every strip packs all of A again, so a product splits only when
// each strip has twice par.MinWork of multiply-adds. (Measured when
// MinWork was 1<<18, under load on two cores, bert_tiny's 524k-multiply-add
// products with n = 64: at weight 1 they split and the model ran at
// 0.75-1.16x its one-thread speed, at a half 0.92-1.13x; at 1<<15 they
// split at a half too, and the model runs 9% faster than at 1<<18.)
const stripWeight = 0.5

// streamWeight is the weight instead for a product of fewer than two
// register tiles of rows over a packed B (a classifier's Linear on a small
// batch): it streams B from L2 or L3 once, at 10-20 GMAC/s on one core
// (mobilenet_tiny_b8's [8,432]x[432,256], AMD EPYC Zen 3) against a large
// product's 25-30, so each multiply-add costs more than par.MinWork's
// unit, and a strip's copy of A (m rows) is a small part of its work.
const streamWeight = 1

// strips is how many strips of whole panels of align columns gemm cuts
// n columns into on up to threads goroutines.
func strips(threads, m, n, k, align, mr int, packedB bool) int {
	w := stripWeight
	if packedB && m < 2*mr {
		w = streamWeight
	}
	return par.Chunks(threads, (n+align-1)/align, w*float64(m)*float64(k)*float64(align))
}

// evenStrips is s, or fewer, so that no strip of whole panels of align
// columns holds over a third more of the n columns than the average: a
// split so uneven saves little more than its hand-off costs (a
// squeeze-excite gate's 56 columns in panels of 48 split 48 and 8, and
// ran at 0.68-0.88x of one thread on two, Intel Xeon).
func evenStrips(s, n, align int) int {
	for ; s > 1; s-- {
		widest := 0
		for i := range par.Count(s, n, align) {
			lo, hi := par.Bounds(s, n, align, i)
			widest = max(widest, hi-lo)
		}
		if 3*widest*s <= 4*n {
			break
		}
	}
	return s
}

// gemm computes C = alpha*op(A)*op(B) + bias + beta*C with m, n, k >= 1
// and alpha != 0 (arguments are already validated), where bias, unless nil,
// adds bias[j] to column j while the first k block's tile is in registers:
// as dot products or by the blocked algorithm, chosen for the whole
// product, then on up to threads goroutines over strips of columns that
// start on panel boundaries. A strip's tiles are the tiles of the whole
// product, with the same k blocking, so each element's arithmetic does not
// depend on the split.
func gemm[T float](kn *kernel[T], threads int, transA bool, m, n, k int, alpha T, a []T, lda int, src bSource[T], beta T, c []T, ldc int, bias []T) {
	dot := kn.dot != nil && src.packed == nil && src.trans && !transA && n >= 4 && (m <= 4 || m <= kn.dotMaxM && k >= dotMinK)
	align := kn.nr
	if dot {
		align = 4
	}
	strips := strips(threads, m, n, k, align, kn.mr, src.packed != nil)
	if strips > 1 && src.packed != nil && (m+kn.mr-1)/kn.mr >= 2*strips {
		// Over a prepacked B (a Linear's weight) the strips are of whole
		// row tiles: no strip packs anything another does, and each reads
		// and writes the rows that the row-wise ops around a Linear (layer
		// norm, the elementwise ops) split by, so its core has them in
		// cache; column strips made each core read all of A, half of it
		// from the other core's cache.
		par.For(strips, m, kn.mr, func(lo, hi int) {
			var ar []T
			if transA {
				ar = a[lo:]
			} else {
				ar = a[lo*lda:]
			}
			gemmCols(kn, false, transA, hi-lo, 0, n, n, k, alpha, ar, lda, src, beta, c[lo*ldc:], ldc, bias)
		})
		return
	}
	if strips = evenStrips(strips, n, align); strips <= 1 {
		gemmCols(kn, dot, transA, m, 0, n, n, k, alpha, a, lda, src, beta, c, ldc, bias)
		return
	}
	par.For(strips, n, align, func(lo, hi int) {
		gemmCols(kn, dot, transA, m, lo, hi, n, k, alpha, a, lda, src, beta, c, ldc, bias)
	})
}

// gemmCols computes columns [lo, hi) of C's n.
func gemmCols[T float](kn *kernel[T], dot, transA bool, m, lo, hi, n, k int, alpha T, a []T, lda int, src bSource[T], beta T, c []T, ldc int, bias []T) {
	if dot {
		gemmDot(kn, m, lo, hi, n, k, alpha, a, lda, src.b, src.ldb, beta, c, ldc, bias)
		return
	}
	if bias != nil {
		bias = bias[lo:hi]
	}
	gemmBlocked(kn, transA, m, hi-lo, k, alpha, a, lda, src.cols(lo), beta, c[lo:], ldc, bias)
}

// firstBlock returns what a k block adds besides its product: beta and the
// bias (a column bias here, the row bias of a batched product) for the
// first (pc == 0), and 1 and no bias for the later ones, which accumulate
// onto it.
func firstBlock[T float](pc int, beta T, bias []T) (T, []T) {
	if pc > 0 {
		return 1, nil
	}
	return beta, bias
}

// colBias is the column bias of the tile at column j (nil for none).
func colBias[T float](bias []T, j int) []T {
	if bias == nil {
		return nil
	}
	return bias[j:]
}

// blockCols is the width of the column blocks the blocked algorithm cuts
// n columns into: nc, or up to a quarter more when that saves a block (A
// is packed again for every block: 1024 columns in blocks of 480 were
// three packs of A, 480, 480 and a thin 64; a strip of 528 was two). The
// blocks start on panels of nr, so every column's tile is the same.
func blockCols(nc, n, nr int) int {
	blocks := (n + nc - 1) / nc
	if blocks > 1 && (n+blocks-2)/(blocks-1) <= nc+nc/4 {
		blocks--
	}
	return roundUp((n+blocks-1)/blocks, nr)
}

// gemmBlocked runs the blocked algorithm.
func gemmBlocked[T float](kn *kernel[T], transA bool, m, n, k int, alpha T, a []T, lda int, src bSource[T], beta T, c []T, ldc int, bias []T) {
	// With more rows, B is still read in place (kernels prefetch it) unless
	// its row stride is a multiple of 4 KiB: then every row of a panel maps
	// to the same L1 sets and the panel thrashes.
	directB := src.packed == nil && kn.directB && !src.trans &&
		(m <= directMaxM || src.ldb*int(unsafe.Sizeof(alpha))%4096 != 0)
	directA := (n+kn.nr-1)/kn.nr <= kn.directA
	mr, nr := kn.mr, kn.nr
	var na, nb int
	if !directA {
		na = min(kn.mc, roundUp(m, mr)) * min(kn.kc, k)
	}
	// With one block of rows (m <= mc), each B micro-panel meets A once:
	// blockedBPanels packs a transposed one just before use, into a buffer
	// that stays in L1, instead of packing the whole block out to L3 and
	// reading it back. (A plain B is still packed a block at a time, so its
	// rows stream in order: see packRows.)
	panelB := kn.bPanelInL1 && src.packed == nil && src.trans && m <= kn.mc
	switch {
	case panelB:
		nb = min(kn.kc, k) * nr
	case src.packed == nil && !directB:
		nb = min(kn.kc, k) * min(blockCols(kn.nc, n, nr), roundUp(n, nr))
	}
	var s *scratch[T]
	if na > 0 || nb > 0 {
		s = getScratch[T](na, nb)
		defer putScratch(s)
	}

	if kn.bPanelInL1 {
		blockedBPanels(kn, s, directA, directB, panelB, transA, m, n, k, alpha, a, lda, src, beta, c, ldc, bias)
		return
	}
	for pc := 0; pc < k; pc += kn.kc {
		kc := min(kn.kc, k-pc)
		bt, bs := firstBlock(pc, beta, bias)
		for ic := 0; ic < m; ic += kn.mc {
			mc := min(kn.mc, m-ic)
			if !directA {
				for ir := 0; ir < mc; ir += mr {
					packA(s.a[ir*kc:], transA, a, lda, ic+ir, pc, min(mr, mc-ir), kc)
				}
			}
			for jc, bc := 0, blockCols(kn.nc, n, nr); jc < n; jc += bc {
				nc := min(bc, n-jc)
				blk := src.block(s, directB, pc, jc, kc, nc, nr)
				for ir := 0; ir < mc; ir += mr {
					mrc := min(mr, mc-ir)
					// A micro-panel: packed (k steps of mrc values) or in place.
					ap, rsa, ksa := []T(nil), 1, mrc
					switch i := ic + ir; {
					case !directA:
						ap = s.a[ir*kc:]
					case transA:
						ap, ksa = a[pc*lda+i:], lda
					default:
						ap, rsa, ksa = a[i*lda+pc:], lda, 1
					}
					crow := c[(ic+ir)*ldc+jc:]
					for jr, q := 0, 0; jr < nc; jr, q = jr+nr, q+1 {
						kn.tile(mrc, min(nr, nc-jr), kc, ap, rsa, ksa, blk.buf[q*blk.panelStride:], blk.ld, crow[jr:], ldc, alpha, bt, nil, colBias(bs, jc+jr))
					}
				}
			}
		}
	}
}

// blockedBPanels is the blocked algorithm in BLIS's order, for kernels
// whose B micro-panel (kc x nr) fits L1 beside an A micro-panel: B packed
// once per (nc, kc) block (nc large: the block lives in L3), A per mc x kc
// block (in L2), and for each B micro-panel every A micro-panel in turn,
// so the tile streams the small A panels and keeps B in L1. With panelB
// (one block of rows), each B micro-panel is packed into s.b just before
// its only use instead.
func blockedBPanels[T float](kn *kernel[T], s *scratch[T], directA, directB, panelB, transA bool, m, n, k int, alpha T, a []T, lda int, src bSource[T], beta T, c []T, ldc int, bias []T) {
	mr, nr := kn.mr, kn.nr
	for jc, bc := 0, blockCols(kn.nc, n, nr); jc < n; jc += bc {
		nc := min(bc, n-jc)
		for pc := 0; pc < k; pc += kn.kc {
			kc := min(kn.kc, k-pc)
			bt, bs := firstBlock(pc, beta, bias)
			var blk bBlock[T]
			if !panelB {
				blk = src.block(s, directB, pc, jc, kc, nc, nr)
			}
			for ic := 0; ic < m; ic += kn.mc {
				mc := min(kn.mc, m-ic)
				if !directA {
					for ir := 0; ir < mc; ir += mr {
						packA(s.a[ir*kc:], transA, a, lda, ic+ir, pc, min(mr, mc-ir), kc)
					}
				}
				for jr, q := 0, 0; jr < nc; jr, q = jr+nr, q+1 {
					var bp []T
					ldbp := nr
					if panelB {
						bp = s.b
						packB(bp, src.trans, src.b, src.ldb, pc, jc+jr, kc, min(nr, nc-jr), nr)
					} else {
						bp, ldbp = blk.buf[q*blk.panelStride:], blk.ld
					}
					cb := colBias(bs, jc+jr)
					if !directA {
						kn.tiles(mc, min(nr, nc-jr), kc, s.a, bp, ldbp, c[ic*ldc+jc+jr:], ldc, alpha, bt, nil, cb)
						continue
					}
					for ir := 0; ir < mc; ir += mr {
						mrc := min(mr, mc-ir)
						var ap []T
						rsa, ksa := lda, 1
						if transA {
							ap, rsa, ksa = a[pc*lda+ic+ir:], 1, lda
						} else {
							ap = a[(ic+ir)*lda+pc:]
						}
						kn.tile(mrc, min(nr, nc-jr), kc, ap, rsa, ksa, bp, ldbp, c[(ic+ir)*ldc+jc+jr:], ldc, alpha, bt, nil, cb)
					}
				}
			}
		}
	}
}

// gemmDot computes columns [lo, hi) of C = alpha*A*B^T + bias + beta*C (B
// stored n×k) for few rows of A, four columns of C at a time (lo a multiple
// of 4); n >= 4.
func gemmDot[T float](kn *kernel[T], m, lo, hi, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int, bias []T) {
	// Not a local array: it would escape through the kn.dot func value.
	s := getScratch[T](0, 0)
	defer putScratch(s)
	out := s.dot[:]
	for ig := 0; ig < m; ig += 4 {
		ma := min(4, m-ig)
		for j := lo; j < hi; j += 4 {
			// A last partial group overlaps the one before; skip the columns
			// already written.
			j0 := min(j, n-4)
			kn.dot(ma, k, a[ig*lda:], lda, b[j0*ldb:], ldb, out)
			cb := colBias(bias, j)
			for i := 0; i < ma; i++ {
				storeTileRow(c[(ig+i)*ldc+j:(ig+i)*ldc+j0+4], out[4*i+j-j0:4*i+4], alpha, beta, nil, cb, 0)
			}
		}
	}
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }

package gemm

import (
	"sync"
	"unsafe"
)

// float is the element types the package multiplies.
type float interface{ ~float32 | ~float64 }

// tileFunc computes C[0:mr, 0:nr] = alpha*A*B + rowBias + colBias + beta*C
// for one register tile, where rowBias (nil, or at least mr values) adds
// rowBias[i] to row i, a convolution's bias, and colBias (nil, or at least
// nr values) adds colBias[j] to column j, a linear layer's. Each step is
// rounded in that order, so a bias in the first k block with beta == 0
// gives what the bias copied into C and added with beta == 1 gives.
// Element (i, p) of A is a[i*rsa+p*ksa]: a packed micro-panel has rsa = 1,
// ksa = mr. b holds kc rows of at least nr values, ldb apart. c rows are ldc
// apart. beta == 0 means C is write-only. 1 <= mr <= kernel.mr,
// 1 <= nr <= kernel.nr, kc >= 1.
type tileFunc[T float] func(mr, nr, kc int, a []T, rsa, ksa int, b []T, ldb int, c []T, ldc int, alpha, beta T, rowBias, colBias []T)

// columnFunc runs the tiles of one B panel against a packed block of mc
// rows of A: micro-panel ir (of min(mr, mc-ir) rows) at a[ir*kc:], the
// tile's C at c[ir*ldc:], its row bias (when not nil) from rowBias[ir], and
// every tile's column bias colBias. One call per panel instead of one per
// tile: on short k the calls cost as much as the arithmetic.
type columnFunc[T float] func(mc, nr, kc int, a, b []T, ldb int, c []T, ldc int, alpha, beta T, rowBias, colBias []T)

// dotFunc sets out[i*4+j] = dot(A row i, B row j) over k for i < ma <= 4,
// j < 4; A rows are lda apart, B rows ldb apart.
type dotFunc[T float] func(ma, k int, a []T, lda int, b []T, ldb int, out []T)

// kernel is one micro-kernel together with the cache blocking tuned for it.
type kernel[T float] struct {
	name   string
	mr, nr int // register tile
	kc     int // k depth of a block: an A micro-panel (mr*kc) stays in L1
	mc     int // rows of A packed at once; a multiple of mr
	nc     int // columns of B packed at once: kc*nc values stay in L2; a multiple of nr
	// directB reports that tile masks partial columns itself, so it may
	// read B in place (unpacked, unpadded) when packing would not pay off.
	directB bool
	// directA is the most B panels for which A is read in place: packing a
	// row panel pays off only when many B panels reuse it.
	directA int
	// bPanelInL1 runs the blocked loops in BLIS's order (blockedBPanels):
	// each B micro-panel stays in L1 while the A micro-panels of an mc
	// block stream past it. Otherwise an A micro-panel stays in L1 while
	// the B block (kc x nc, sized for L2) streams past it.
	bPanelInL1 bool
	tile       tileFunc[T]
	// column, when set, is the kernel's own loop over a packed A block
	// (see columnFunc); otherwise tiles runs tile in a loop.
	column columnFunc[T]
	// dot, when set, multiplies A by a transposed, unpacked B with few rows
	// of A (at most 4, or dotMaxM for long rows) as dot products along both
	// contiguous rows, which reads B once and never packs it.
	dot     dotFunc[T]
	dotMaxM int
}

// scratch holds per-call packing buffers, recycled through a pool.
type scratch[T float] struct {
	a   []T   // one packed A block: mc*kc
	b   []T   // one packed B block: kc*nc
	dot [16]T // dot products of up to 4x4 rows, for gemmDot
}

var pools [2]sync.Pool // indexed by poolIndex: float32, float64

func poolIndex[T float]() int {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return 0
	}
	return 1
}

// getScratch returns scratch with at least na and nb elements in a and b.
// Buffers only grow, so a pooled scratch soon fits every call.
func getScratch[T float](na, nb int) *scratch[T] {
	s, _ := pools[poolIndex[T]()].Get().(*scratch[T])
	if s == nil {
		s = new(scratch[T])
	}
	if len(s.a) < na {
		s.a = alignedSlice[T](na)
	}
	if len(s.b) < nb {
		s.b = alignedSlice[T](nb)
	}
	return s
}

func putScratch[T float](s *scratch[T]) { pools[poolIndex[T]()].Put(s) }

// alignedSlice returns n zeroed elements starting on a 64-byte boundary, so
// packed panels never split a vector load across cache lines.
func alignedSlice[T float](n int) []T {
	var z T
	es := int(unsafe.Sizeof(z))
	s := make([]T, n+64/es)
	off := 0
	if mis := int(uintptr(unsafe.Pointer(&s[0])) % 64); mis != 0 {
		off = (64 - mis) / es
	}
	return s[off : off+n : off+n]
}

// Kernels in order of preference: assembly ones the CPU supports, then the
// portable one. The active kernel is a variable so tests can exercise each.
var (
	sKernels = append(asmKernels32(), genericKernel[float32]())
	dKernels = append(asmKernels64(), genericKernel[float64]())
	sActive  = sKernels[0]
	dActive  = dKernels[0]
)

// tiles runs the column of tiles that columnFunc describes, with the
// kernel's own loop when it has one.
func (kn *kernel[T]) tiles(mc, nr, kc int, a, b []T, ldb int, c []T, ldc int, alpha, beta T, rowBias, colBias []T) {
	if kn.column != nil {
		kn.column(mc, nr, kc, a, b, ldb, c, ldc, alpha, beta, rowBias, colBias)
		return
	}
	var rb []T
	for ir := 0; ir < mc; ir += kn.mr {
		mrc := min(kn.mr, mc-ir)
		if rowBias != nil {
			rb = rowBias[ir:]
		}
		kn.tile(mrc, nr, kc, a[ir*kc:], 1, mrc, b, ldb, c[ir*ldc:], ldc, alpha, beta, rb, colBias)
	}
}

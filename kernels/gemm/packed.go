package gemm

// packed is B laid out once in the panel format of one kernel.
type packed[T float] struct {
	kn   *kernel[T]
	k, n int
	npad int // n rounded up to whole panels
	data []T
}

func newPacked[T float](kn *kernel[T], transB bool, k, n int, b []T, ldb int) *packed[T] {
	checkMatrix("B", transB, k, n, b, ldb)
	npad := roundUp(n, kn.nr)
	p := &packed[T]{kn: kn, k: k, n: n, npad: npad, data: alignedSlice[T](k * npad)}
	for pc := 0; pc < k; pc += kn.kc {
		kc := min(kn.kc, k-pc)
		packB(p.data[pc*npad:], transB, b, ldb, pc, 0, kc, n, kn.nr)
	}
	return p
}

// block returns the panels of the kc x nc block at (pc, jc). Rows before pc
// form whole blocks of npad columns, so the block starts at pc*npad.
func (p *packed[T]) block(pc, jc, kc int) bBlock[T] {
	nr := p.kn.nr
	return bBlock[T]{buf: p.data[pc*p.npad+jc/nr*kc*nr:], ld: nr, panelStride: kc * nr}
}

// PackedB is a k×n float32 B operand packed once for repeated use by
// SgemmPacked, typically a model weight. It is read-only after PackB and
// safe to share between goroutines.
type PackedB struct{ p *packed[float32] }

// PackB packs op(B) (k×n; B is n×k when transB) with row stride ldb.
// A PyTorch Linear weight [out, in] is B with transB = true.
func PackB(transB bool, k, n int, b []float32, ldb int) *PackedB {
	return &PackedB{newPacked(sActive, transB, k, n, b, ldb)}
}

// K returns the inner dimension of the packed operand.
func (p *PackedB) K() int { return p.p.k }

// N returns the number of columns of the packed operand.
func (p *PackedB) N() int { return p.p.n }

// SgemmPacked computes C = alpha*op(A)*B + beta*C where B was packed by
// PackB: A is m×B.K() (or B.K()×m when transA), C is m×B.N().
func SgemmPacked(transA bool, m int, alpha float32, a []float32, lda int, b *PackedB, beta float32, c []float32, ldc int) {
	SgemmPackedThreads(1, transA, m, alpha, a, lda, b, beta, c, ldc, nil)
}

// SgemmPackedThreads is SgemmPacked on up to threads goroutines, as
// SgemmThreads splits Sgemm, plus a bias: unless nil, bias holds B.N()
// values, bias[j] added to column j of every row (a linear layer's bias)
// while the first k block's tile is in registers, so C is written once and
// read only for beta. With alpha == 1 and beta == 0 it gives, bit for bit,
// what copying the bias into every row of C and calling with beta == 1
// gives.
func SgemmPackedThreads(threads int, transA bool, m int, alpha float32, a []float32, lda int, b *PackedB, beta float32, c []float32, ldc int, bias []float32) {
	p := b.p
	run(p.kn, threads, transA, m, p.n, p.k, alpha, a, lda, bSource[float32]{packed: p}, beta, c, ldc, bias)
}

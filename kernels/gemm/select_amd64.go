//go:build !purego

package gemm

import "golang.org/x/sys/cpu"

// Blocking for the assembly kernels. kc keeps an A micro-panel (mr*kc
// values) in L1 while it meets every panel of the B block (kc*nc values, in
// L2). The A block (mc*kc) is packed once per k block and reused for all of
// n, so most transformer shapes (m <= mc) pack each operand once.
const (
	avx512KC = 256
	avx512MC = 512
	avx512NC = 480 // 10 panels of 48: a 480 KiB f32 block fits a 1 MiB L2
	// Up to this many rows, A*B^T runs as dot products (see kernel.dot).
	avx512DotMaxM = 8
	// The AVX2 kernels keep a B micro-panel (kc x nr, 16 KiB) in L1 and
	// stream 144 KiB A blocks from L2 (a 512 KiB L2 on the Zen 3 measured);
	// the B block, packed once per kc x nc, lives in L3.
	avx2KC = 256
	avx2MC = 144 // a multiple of 6
	avx2NC = 4096
)

func hasAVX512() bool { return cpu.X86.HasAVX512F }
func hasAVX2() bool   { return cpu.X86.HasAVX2 && cpu.X86.HasFMA }

func asmKernels32() []*kernel[float32] {
	var ks []*kernel[float32]
	if hasAVX512() {
		ks = append(ks, &kernel[float32]{
			name: "avx512", mr: 8, nr: 48, kc: avx512KC, mc: avx512MC, nc: avx512NC,
			directB: true, directA: 2, tile: sTileAVX512,
			dot: sDotAVX512, dotMaxM: avx512DotMaxM,
		})
	}
	if hasAVX2() {
		ks = append(ks, &kernel[float32]{
			name: "avx2", mr: 6, nr: 16, kc: avx2KC, mc: avx2MC, nc: avx2NC,
			// A read in place up to 16 B panels: measured faster than
			// packing it for the transformer shapes (n = 64-256).
			directA: 16, bPanelInL1: true, tile: sTileAVX2, column: sColumnAVX2,
		})
	}
	return ks
}

func asmKernels64() []*kernel[float64] {
	var ks []*kernel[float64]
	if hasAVX512() {
		ks = append(ks, &kernel[float64]{
			name: "avx512", mr: 8, nr: 24, kc: avx512KC, mc: avx512MC, nc: avx512NC / 2,
			directB: true, directA: 2, tile: dTileAVX512,
		})
	}
	if hasAVX2() {
		ks = append(ks, &kernel[float64]{
			name: "avx2", mr: 6, nr: 8, kc: avx2KC, mc: avx2MC, nc: avx2NC / 2,
			directA: 2, bPanelInL1: true, tile: dTileAVX2,
		})
	}
	return ks
}

// The AVX-512 kernels mask partial column vectors themselves, B's and the
// column bias's: bit j of mask enables column j.
func sTileAVX512(mr, nr, kc int, a []float32, rsa, ksa int, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, rowBias, colBias []float32) {
	sgemmAVX512(mr, (nr+15)/16, kc, &a[0], rsa, ksa, &b[0], ldb, &c[0], ldc, alpha, beta, uint64(1)<<uint(nr)-1, biasPtr(rowBias, mr), biasPtr(colBias, nr))
}

func dTileAVX512(mr, nr, kc int, a []float64, rsa, ksa int, b []float64, ldb int, c []float64, ldc int, alpha, beta float64, rowBias, colBias []float64) {
	dgemmAVX512(mr, (nr+7)/8, kc, &a[0], rsa, ksa, &b[0], ldb, &c[0], ldc, alpha, beta, uint64(1)<<uint(nr)-1, biasPtr(rowBias, mr), biasPtr(colBias, nr))
}

// biasPtr is the first of a tile's n bias values, nil for none; the
// assembly reads n values from it unchecked.
func biasPtr[T float](bias []T, n int) *T {
	if bias == nil {
		return nil
	}
	return &bias[:n][0]
}

// The AVX2 kernels only store whole vectors; a partial panel (zero-padded
// by packing) is computed into a local tile and merged here.
// With a bias, the local tile holds alpha*AB + biases, and beta*C is added
// in the merge; the column bias, read a whole vector at a time, is padded
// into a local copy.
func sTileAVX2(mr, nr, kc int, a []float32, rsa, ksa int, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, rowBias, colBias []float32) {
	const w = 8
	rb := biasPtr(rowBias, mr)
	if nr%w == 0 {
		sgemmAVX2(mr, nr/w, kc, &a[0], rsa, ksa, &b[0], ldb, &c[0], ldc, alpha, beta, rb, biasPtr(colBias, nr))
		return
	}
	var t [6 * 16]float32
	if rb == nil && colBias == nil {
		sgemmAVX2(mr, (nr+w-1)/w, kc, &a[0], rsa, ksa, &b[0], ldb, &t[0], 16, 1, 0, nil, nil)
		for i := 0; i < mr; i++ {
			storeRow(c[i*ldc:i*ldc+nr], t[i*16:], alpha, beta)
		}
		return
	}
	var cbPad [16]float32
	var cb *float32
	if colBias != nil {
		copy(cbPad[:], colBias[:nr])
		cb = &cbPad[0]
	}
	sgemmAVX2(mr, (nr+w-1)/w, kc, &a[0], rsa, ksa, &b[0], ldb, &t[0], 16, alpha, 0, rb, cb)
	for i := 0; i < mr; i++ {
		addRow(c[i*ldc:i*ldc+nr], t[i*16:], beta)
	}
}

// sColumnAVX2 is the columnFunc of the AVX2 kernel: full 6x16 tiles call
// the assembly directly, the rest go through sTileAVX2.
func sColumnAVX2(mc, nr, kc int, a, b []float32, ldb int, c []float32, ldc int, alpha, beta float32, rowBias, colBias []float32) {
	// The bounds the assembly relies on, checked once.
	_, _, _ = a[mc*kc-1], b[(kc-1)*ldb+nr-1], c[(mc-1)*ldc+nr-1]
	if rowBias != nil {
		_ = rowBias[mc-1]
	}
	ir := 0
	if nr == 16 {
		cb := biasPtr(colBias, 16)
		for ; ir+6 <= mc; ir += 6 {
			var rb *float32
			if rowBias != nil {
				rb = &rowBias[ir]
			}
			sgemmAVX2M6N2(kc, &a[ir*kc], 1, 6, &b[0], ldb, &c[ir*ldc], ldc, alpha, beta, rb, cb)
		}
	}
	var rb []float32
	for ; ir < mc; ir += 6 {
		mrc := min(6, mc-ir)
		if rowBias != nil {
			rb = rowBias[ir:]
		}
		sTileAVX2(mrc, nr, kc, a[ir*kc:], 1, mrc, b, ldb, c[ir*ldc:], ldc, alpha, beta, rb, colBias)
	}
}

func dTileAVX2(mr, nr, kc int, a []float64, rsa, ksa int, b []float64, ldb int, c []float64, ldc int, alpha, beta float64, rowBias, colBias []float64) {
	const w = 4
	rb := biasPtr(rowBias, mr)
	if nr%w == 0 {
		dgemmAVX2(mr, nr/w, kc, &a[0], rsa, ksa, &b[0], ldb, &c[0], ldc, alpha, beta, rb, biasPtr(colBias, nr))
		return
	}
	var t [6 * 8]float64
	if rb == nil && colBias == nil {
		dgemmAVX2(mr, (nr+w-1)/w, kc, &a[0], rsa, ksa, &b[0], ldb, &t[0], 8, 1, 0, nil, nil)
		for i := 0; i < mr; i++ {
			storeRow(c[i*ldc:i*ldc+nr], t[i*8:], alpha, beta)
		}
		return
	}
	var cbPad [8]float64
	var cb *float64
	if colBias != nil {
		copy(cbPad[:], colBias[:nr])
		cb = &cbPad[0]
	}
	dgemmAVX2(mr, (nr+w-1)/w, kc, &a[0], rsa, ksa, &b[0], ldb, &t[0], 8, alpha, 0, rb, cb)
	for i := 0; i < mr; i++ {
		addRow(c[i*ldc:i*ldc+nr], t[i*8:], beta)
	}
}

func sDotAVX512(ma, k int, a []float32, lda int, b []float32, ldb int, out []float32) {
	sdotAVX512(ma, k, &a[0], lda, &b[0], ldb, &out[0])
}

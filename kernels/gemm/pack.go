package gemm

import "unsafe"

// packA copies the mr x kc block of op(A) at (i0, p0) into dst so that each
// k step's mr values are contiguous: dst[p*mr+i] = op(A)[i0+i, p0+p].
func packA[T float](dst []T, transA bool, a []T, lda, i0, p0, mr, kc int) {
	dst = dst[:mr*kc]
	if transA {
		// op(A)[i, p] = a[p*lda+i]: each k step is a contiguous run.
		for p := 0; p < kc; p++ {
			copy(dst[p*mr:p*mr+mr], a[(p0+p)*lda+i0:])
		}
		return
	}
	switch mr {
	case 8:
		interleave8(dst, 8, a[i0*lda+p0:], lda, kc)
		return
	case 6:
		interleave6(dst, a[i0*lda+p0:], lda, kc)
		return
	}
	for i := 0; i < mr; i++ {
		row := a[(i0+i)*lda+p0:]
		row = row[:kc]
		for p, v := range row {
			dst[p*mr+i] = v
		}
	}
}

// packB copies the kc x nc block of op(B) at (p0, j0) into panels of nr
// columns: panel q holds dst[q*kc*nr + p*nr + j] = op(B)[p0+p, j0+q*nr+j],
// with the last panel zero-padded to nr columns.
func packB[T float](dst []T, transB bool, b []T, ldb, p0, j0, kc, nc, nr int) {
	if kc <= 0 || nc <= 0 {
		return
	}
	if !transB && packRows(dst, b[p0*ldb+j0:], ldb, kc, nc, nr) {
		return
	}
	for q := 0; q*nr < nc; q++ {
		w := min(nr, nc-q*nr)
		panel := dst[q*kc*nr : (q+1)*kc*nr]
		j := j0 + q*nr
		if !transB {
			for p := 0; p < kc; p++ {
				d := panel[p*nr : p*nr+nr]
				copy(d, b[(p0+p)*ldb+j:(p0+p)*ldb+j+w])
				clear(d[w:])
			}
			continue
		}
		// op(B)[p, j] = b[j*ldb+p]: a transpose, eight source rows at a time.
		jj := 0
		for ; jj+8 <= w; jj += 8 {
			interleave8(panel[jj:], nr, b[(j+jj)*ldb+p0:], ldb, kc)
		}
		for ; jj < w; jj++ {
			col := b[(j+jj)*ldb+p0:]
			col = col[:kc]
			for p, v := range col {
				panel[p*nr+jj] = v
			}
		}
		if w < nr {
			for p := 0; p < kc; p++ {
				clear(panel[p*nr+w : p*nr+nr])
			}
		}
	}
}

// interleave8 transposes eight rows of kc values (ld apart in src) into
// dst[p*stride : p*stride+8], reading eight sequential streams at once.
func interleave8[T float](dst []T, stride int, src []T, ld, kc int) {
	var z T
	if unsafe.Sizeof(z) == 4 && haveTranspose8 && kc >= 8 {
		// The bounds the assembly relies on, checked once.
		_, _ = src[7*ld+kc-1], dst[(kc-1)*stride+7]
		n := kc &^ 7
		transpose8AVX((*float32)(unsafe.Pointer(&dst[0])), stride, (*float32)(unsafe.Pointer(&src[0])), ld, n)
		if n == kc {
			return
		}
		dst, src, kc = dst[n*stride:], src[n:], kc-n
	}
	r0 := src[:kc]
	r1 := src[ld : ld+kc]
	r2 := src[2*ld : 2*ld+kc]
	r3 := src[3*ld : 3*ld+kc]
	r4 := src[4*ld : 4*ld+kc]
	r5 := src[5*ld : 5*ld+kc]
	r6 := src[6*ld : 6*ld+kc]
	r7 := src[7*ld : 7*ld+kc]
	for p := range r0 {
		d := dst[p*stride : p*stride+8 : p*stride+8]
		d[0], d[1], d[2], d[3] = r0[p], r1[p], r2[p], r3[p]
		d[4], d[5], d[6], d[7] = r4[p], r5[p], r6[p], r7[p]
	}
}

// interleave6 is interleave8 for six rows, into dst[p*6 : p*6+6].
func interleave6[T float](dst []T, src []T, ld, kc int) {
	var z T
	if unsafe.Sizeof(z) == 4 && haveTranspose8 && kc >= 8 {
		_, _ = src[5*ld+kc-1], dst[6*kc-1]
		n := kc &^ 7
		transpose6AVX((*float32)(unsafe.Pointer(&dst[0])), (*float32)(unsafe.Pointer(&src[0])), ld, n)
		if n == kc {
			return
		}
		dst, src, kc = dst[6*n:], src[n:], kc-n
	}
	r0 := src[:kc]
	r1 := src[ld : ld+kc]
	r2 := src[2*ld : 2*ld+kc]
	r3 := src[3*ld : 3*ld+kc]
	r4 := src[4*ld : 4*ld+kc]
	r5 := src[5*ld : 5*ld+kc]
	dst = dst[:6*kc]
	for p := range r0 {
		d := dst[p*6 : p*6+6 : p*6+6]
		d[0], d[1], d[2], d[3], d[4], d[5] = r0[p], r1[p], r2[p], r3[p], r4[p], r5[p]
	}
}

// packRows is packB of a plain B, row by row: each row of the block is
// read once, front to back, and cut into its panels' rows (kc*nr apart in
// dst), so the source streams in order whatever its stride (a column of
// panel rows 4 KiB apart would thrash L1 and the TLB). Only the panel
// widths of the assembly kernels have a loop here; false for the others.
func packRows[T float](dst, src []T, ld, kc, nc, nr int) bool {
	full := nc / nr * nr
	switch nr {
	case 8, 16, 24, 48:
	default:
		return false
	}
	_, _ = dst[(nc+nr-1)/nr*kc*nr-1], src[(kc-1)*ld+nc-1]
	ps := kc * nr
	for p := 0; p < kc; p++ {
		row := src[p*ld:][:nc]
		d := dst[p*nr:]
		switch nr {
		case 8:
			for j := 0; j < full; j += 8 {
				*(*[8]T)(d[j/8*ps:]) = *(*[8]T)(row[j:])
			}
		case 16:
			for j := 0; j < full; j += 16 {
				*(*[16]T)(d[j/16*ps:]) = *(*[16]T)(row[j:])
			}
		case 24:
			for j := 0; j < full; j += 24 {
				*(*[24]T)(d[j/24*ps:]) = *(*[24]T)(row[j:])
			}
		case 48:
			for j := 0; j < full; j += 48 {
				*(*[48]T)(d[j/48*ps:]) = *(*[48]T)(row[j:])
			}
		}
		if full < nc {
			last := d[full/nr*ps:][:nr]
			copy(last, row[full:])
			clear(last[nc-full:])
		}
	}
	return true
}

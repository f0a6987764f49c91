package gemm

// The portable kernel: a 4x4 tile's 16 accumulators plus 8 operands fit the
// 32 floating-point registers of arm64, riscv64 and the like (where the Go
// compiler also fuses the multiply-adds); amd64 normally runs assembly.
const (
	genericMR = 4
	genericNR = 4
)

func genericKernel[T float]() *kernel[T] {
	return &kernel[T]{
		name: "generic",
		mr:   genericMR, nr: genericNR,
		kc: 256, mc: 64, nc: 512, directA: 2,
		tile: genericTile[T],
	}
}

// genericTile is the tileFunc of the portable kernel.
func genericTile[T float](mr, nr, kc int, a []T, rsa, ksa int, b []T, ldb int, c []T, ldc int, alpha, beta T, rowBias, colBias []T) {
	if mr == genericMR && nr == genericNR && rsa == 1 {
		genericTile4x4(kc, a, ksa, b, ldb, c, ldc, alpha, beta, rowBias, colBias)
		return
	}
	var acc [genericMR * genericNR]T
	for p := 0; p < kc; p++ {
		bp := b[p*ldb : p*ldb+nr]
		for i := 0; i < mr; i++ {
			av := a[i*rsa+p*ksa]
			row := acc[i*genericNR : i*genericNR+nr]
			for j, bv := range bp {
				row[j] += av * bv
			}
		}
	}
	for i := 0; i < mr; i++ {
		storeTileRow(c[i*ldc:i*ldc+nr], acc[i*genericNR:i*genericNR+nr], alpha, beta, rowBias, colBias, i)
	}
}

// storeTileRow is storeRow for row i of a tile with optional biases: it
// writes c = ((alpha*acc + rowBias[i]) + colBias) + beta*c, each step
// rounded as the assembly kernels round it, leaving out a nil bias and not
// reading c when beta == 0.
func storeTileRow[T float](c, acc []T, alpha, beta T, rowBias, colBias []T, i int) {
	if rowBias == nil && colBias == nil {
		storeRow(c, acc, alpha, beta)
		return
	}
	acc = acc[:len(c)]
	if colBias != nil {
		colBias = colBias[:len(c)]
	}
	for j, v := range acc {
		t := T(alpha * v)
		if rowBias != nil {
			t = T(t + rowBias[i])
		}
		if colBias != nil {
			t = T(t + colBias[j])
		}
		if beta != 0 {
			t = T(t + T(beta*c[j]))
		}
		c[j] = t
	}
}

// addRow writes c = t + beta*c, not reading c when beta == 0.
func addRow[T float](c, t []T, beta T) {
	t = t[:len(c)]
	if beta == 0 {
		copy(c, t)
		return
	}
	for j, v := range t {
		c[j] = v + T(beta*c[j])
	}
}

// storeRow writes c = alpha*acc + beta*c, not reading c when beta == 0.
func storeRow[T float](c, acc []T, alpha, beta T) {
	acc = acc[:len(c)]
	if beta == 0 {
		for j, v := range acc {
			c[j] = alpha * v
		}
		return
	}
	for j, v := range acc {
		c[j] = alpha*v + beta*c[j]
	}
}

// genericTile4x4 is a full tile whose k steps hold 4 contiguous A values
// (packed, or A read transposed), ksa apart.
func genericTile4x4[T float](kc int, a []T, ksa int, b []T, ldb int, c []T, ldc int, alpha, beta T, rowBias, colBias []T) {
	var c00, c01, c02, c03 T
	var c10, c11, c12, c13 T
	var c20, c21, c22, c23 T
	var c30, c31, c32, c33 T
	for p := 0; p < kc; p++ {
		ap := a[p*ksa : p*ksa+4 : p*ksa+4]
		bp := b[p*ldb : p*ldb+4 : p*ldb+4]
		b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
		a0 := ap[0]
		c00 += a0 * b0
		c01 += a0 * b1
		c02 += a0 * b2
		c03 += a0 * b3
		a1 := ap[1]
		c10 += a1 * b0
		c11 += a1 * b1
		c12 += a1 * b2
		c13 += a1 * b3
		a2 := ap[2]
		c20 += a2 * b0
		c21 += a2 * b1
		c22 += a2 * b2
		c23 += a2 * b3
		a3 := ap[3]
		c30 += a3 * b0
		c31 += a3 * b1
		c32 += a3 * b2
		c33 += a3 * b3
	}
	acc := [16]T{
		c00, c01, c02, c03,
		c10, c11, c12, c13,
		c20, c21, c22, c23,
		c30, c31, c32, c33,
	}
	for i := 0; i < 4; i++ {
		storeTileRow(c[i*ldc:i*ldc+4], acc[4*i:4*i+4], alpha, beta, rowBias, colBias, i)
	}
}

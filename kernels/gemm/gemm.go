package gemm

import "fmt"

// Sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices, where op(X) is X or X^T.
// A is m×k (or k×m when transA), B is k×n (or n×k when transB), C is m×n; lda, ldb, ldc are row strides in elements.
// beta == 0 means C is not read (may hold NaN).
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	SgemmThreads(1, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// SgemmThreads is Sgemm on up to threads goroutines. C is cut into strips
// of whole column panels when the product is large enough to pay for the
// goroutines (a small one runs on the caller's); each element is computed
// exactly as Sgemm computes it, whatever the thread count.
func SgemmThreads(threads int, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkMatrix("B", transB, k, n, b, ldb)
	run(sActive, threads, transA, m, n, k, alpha, a, lda, bSource[float32]{trans: transB, b: b, ldb: ldb}, beta, c, ldc, nil)
}

// Dgemm is Sgemm for float64.
func Dgemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	checkMatrix("B", transB, k, n, b, ldb)
	run(dActive, 1, transA, m, n, k, alpha, a, lda, bSource[float64]{trans: transB, b: b, ldb: ldb}, beta, c, ldc, nil)
}

// run validates A, C and the column bias (B is checked by the caller),
// handles the cases that need no product, and hands the rest to the
// blocked driver.
func run[T float](kn *kernel[T], threads int, transA bool, m, n, k int, alpha T, a []T, lda int, src bSource[T], beta T, c []T, ldc int, bias []T) {
	checkMatrix("A", transA, m, k, a, lda)
	checkMatrix("C", false, m, n, c, ldc)
	if bias != nil && len(bias) < n {
		panic(fmt.Sprintf("gemm: len(bias) = %d < n = %d", len(bias), n))
	}
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scaleAddBias(m, n, beta, c, ldc, bias)
		return
	}
	gemm(kn, threads, transA, m, n, k, alpha, a, lda, src, beta, c, ldc, bias)
}

// checkMatrix panics unless x can hold op(X), a rows×cols matrix stored
// row-major with stride ld (cols×rows when trans). The kernels use unchecked
// loads and stores, so this is what keeps them in bounds.
func checkMatrix[T float](name string, trans bool, rows, cols int, x []T, ld int) {
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("gemm: negative dimension of %s: %d×%d", name, rows, cols))
	}
	if trans {
		rows, cols = cols, rows
	}
	if ld < max(1, cols) {
		panic(fmt.Sprintf("gemm: ld%s = %d < max(1, %d)", name, ld, cols))
	}
	if rows > 0 && cols > 0 && len(x) < (rows-1)*ld+cols {
		panic(fmt.Sprintf("gemm: len(%s) = %d < %d for %d×%d with stride %d", name, len(x), (rows-1)*ld+cols, rows, cols, ld))
	}
}

// scaleAddBias sets C = bias + beta*C, bias (nil for none) added to every
// row; with beta == 0 (C not read) each row is the bias as it is.
func scaleAddBias[T float](m, n int, beta T, c []T, ldc int, bias []T) {
	if bias == nil {
		scale(m, n, beta, c, ldc)
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			copy(row, bias)
			continue
		}
		for j := range row {
			row[j] = bias[j] + T(beta*row[j])
		}
	}
}

// scale sets C = beta*C; beta == 0 clears C without reading it.
func scale[T float](m, n int, beta T, c []T, ldc int) {
	if beta == 1 {
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

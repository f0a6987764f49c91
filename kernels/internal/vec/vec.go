// Package vec holds the float32 slice loops behind the hot elementwise,
// activation and softmax kernels: AVX-512 assembly on amd64 CPUs that
// have it, portable Go elsewhere (and with the purego build tag).
//
// Every function takes its length from its first source operand; dst
// (and a second operand) must be at least as long, or it panics. dst may
// be the same slice as a source (in-place), but must not otherwise
// overlap one.
//
// The transcendental functions are float32 approximations: exp is
// Cephes' (within 2 ULP, exact 0 and +Inf at the ends), tanh Eigen's
// rational function (within a few ULP), erf in GeluErf Abramowitz and
// Stegun 7.1.26 (absolute error below 2e-7). NaN propagates through all
// of them.
package vec

//go:generate go run asm_gen.go

// minAsm is the shortest slice worth the assembly call.
const minAsm = 8

func check2(dst, a []float32) int {
	n := len(a)
	if len(dst) < n {
		panic("vec: destination shorter than the operand")
	}
	return n
}

func check3(dst, a, b []float32) int {
	n := len(a)
	if len(dst) < n || len(b) < n {
		panic("vec: operands of different lengths")
	}
	return n
}

// Add sets dst[i] = a[i] + b[i].
func Add(dst, a, b []float32) {
	if n := check3(dst, a, b); useAsm && n >= minAsm {
		addVV512(&dst[0], &a[0], &b[0], n)
	} else {
		addGo(dst[:n], a, b[:n])
	}
}

// Sub sets dst[i] = a[i] - b[i].
func Sub(dst, a, b []float32) {
	if n := check3(dst, a, b); useAsm && n >= minAsm {
		subVV512(&dst[0], &a[0], &b[0], n)
	} else {
		subGo(dst[:n], a, b[:n])
	}
}

// Mul sets dst[i] = a[i] * b[i].
func Mul(dst, a, b []float32) {
	if n := check3(dst, a, b); useAsm && n >= minAsm {
		mulVV512(&dst[0], &a[0], &b[0], n)
	} else {
		mulGo(dst[:n], a, b[:n])
	}
}

// Div sets dst[i] = a[i] / b[i].
func Div(dst, a, b []float32) {
	if n := check3(dst, a, b); useAsm && n >= minAsm {
		divVV512(&dst[0], &a[0], &b[0], n)
	} else {
		divGo(dst[:n], a, b[:n])
	}
}

// AddScalar sets dst[i] = a[i] + s.
func AddScalar(dst, a []float32, s float32) {
	if n := check2(dst, a); useAsm && n >= minAsm {
		addVS512(&dst[0], &a[0], s, n)
	} else {
		addSGo(dst[:n], a, s)
	}
}

// SubScalar sets dst[i] = a[i] - s.
func SubScalar(dst, a []float32, s float32) {
	if n := check2(dst, a); useAsm && n >= minAsm {
		subVS512(&dst[0], &a[0], s, n)
	} else {
		subSGo(dst[:n], a, s)
	}
}

// MulScalar sets dst[i] = a[i] * s.
func MulScalar(dst, a []float32, s float32) {
	if n := check2(dst, a); useAsm && n >= minAsm {
		mulVS512(&dst[0], &a[0], s, n)
	} else {
		mulSGo(dst[:n], a, s)
	}
}

// DivScalar sets dst[i] = a[i] / s.
func DivScalar(dst, a []float32, s float32) {
	if n := check2(dst, a); useAsm && n >= minAsm {
		divVS512(&dst[0], &a[0], s, n)
	} else {
		divSGo(dst[:n], a, s)
	}
}

// ScalarSub sets dst[i] = s - b[i].
func ScalarSub(dst []float32, s float32, b []float32) {
	if n := check2(dst, b); useAsm && n >= minAsm {
		subSV512(&dst[0], &b[0], s, n)
	} else {
		sSubGo(dst[:n], s, b)
	}
}

// ScalarDiv sets dst[i] = s / b[i].
func ScalarDiv(dst []float32, s float32, b []float32) {
	if n := check2(dst, b); useAsm && n >= minAsm {
		divSV512(&dst[0], &b[0], s, n)
	} else {
		sDivGo(dst[:n], s, b)
	}
}

// Max returns the largest element of x: NaN if any element is NaN, -Inf
// for an empty x.
func Max(x []float32) float32 {
	if useAsm && len(x) >= minAsm {
		return maxAVX512(&x[0], len(x))
	}
	return maxGo(x)
}

// ExpShiftSum sets dst[i] = exp(x[i] - shift) and returns the sum of the
// results: the numerator and denominator of a softmax row. The sum is
// float64, built from float32 partial sums of at most 32 terms each (the
// portable loop adds every term in float64).
func ExpShiftSum(dst, x []float32, shift float32) float64 {
	if n := check2(dst, x); useAsm && n >= minAsm {
		return expShiftSumAVX512(&dst[0], &x[0], shift, n)
	}
	return expShiftSumGo(dst[:len(x)], x, shift)
}

// Tanh sets dst[i] = tanh(x[i]).
func Tanh(dst, x []float32) {
	if n := check2(dst, x); useAsm && n >= minAsm {
		tanhAVX512(&dst[0], &x[0], n)
	} else {
		tanhGo(dst[:n], x)
	}
}

// GeluTanh sets dst[i] = gelu(x[i], approximate='tanh'):
// 0.5*x*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3))).
func GeluTanh(dst, x []float32) {
	if n := check2(dst, x); useAsm && n >= minAsm {
		geluTanhAVX512(&dst[0], &x[0], n)
	} else {
		geluTanhGo(dst[:n], x)
	}
}

// GeluErf sets dst[i] = gelu(x[i]) = x*Φ(x) = 0.5*x*(1 + erf(x/sqrt 2)).
func GeluErf(dst, x []float32) {
	if n := check2(dst, x); useAsm && n >= minAsm {
		geluErfAVX512(&dst[0], &x[0], n)
	} else {
		geluErfGo(dst[:n], x)
	}
}

// MeanVar returns the mean of x and its biased variance (the mean squared
// deviation from the mean), accumulated in float64 in two passes. An
// empty x gives NaN for both.
func MeanVar(x []float32) (mean, variance float64) {
	if useAsm && len(x) >= minAsm {
		return meanVarAVX512(&x[0], len(x))
	}
	return meanVarGo(x)
}

// Normalize sets dst[i] = (x[i] - mean)*rstd*g[i] + b[i], the affine step
// of a layer norm.
func Normalize(dst, x, g, b []float32, mean, rstd float32) {
	n := check3(dst, x, g)
	if len(b) < n {
		panic("vec: operands of different lengths")
	}
	if useAsm && n >= minAsm {
		normalizeAVX512(&dst[0], &x[0], &g[0], &b[0], mean, rstd, n)
	} else {
		normalizeGo(dst[:n], x, g[:n], b[:n], mean, rstd)
	}
}

// Relu sets dst[i] = max(x[i], 0), keeping NaN and -0 as they are.
func Relu(dst, x []float32) {
	if n := check2(dst, x); useAsm && n >= minAsm {
		maxSV512(&dst[0], &x[0], 0, n)
	} else {
		reluGo(dst[:n], x)
	}
}

// ScaleAdd sets dst[i] = x[i]*a + b (fused where the hardware fuses).
func ScaleAdd(dst, x []float32, a, b float32) {
	if n := check2(dst, x); useAsm && n >= minAsm {
		scaleAddAVX512(&dst[0], &x[0], a, b, n)
	} else {
		scaleAddGo(dst[:n], x, a, b)
	}
}

// rowsFit checks that rows rows of n elements at stride s fit in a slice
// of length l (a zero stride reads one row for all).
func rowsFit(l, n, rows, s int) bool {
	return n >= 0 && rows >= 0 && s >= 0 && (rows == 0 || n == 0 || (rows-1)*s+n <= l)
}

// SoftmaxRows sets dst[r*ds:][:n] = softmax(x[r*xs:][:n]) for each of rows
// rows (strides in elements): the max, exp(v - max) and its sum as
// ExpShiftSum computes them, then a multiply by float32(1/sum). A row may
// be computed in place (dst and x the same).
func SoftmaxRows(dst, x []float32, n, rows, ds, xs int) {
	if !rowsFit(len(dst), n, rows, ds) || !rowsFit(len(x), n, rows, xs) || ds == 0 && rows > 1 {
		panic("vec: softmax rows out of range")
	}
	if n == 0 || rows == 0 {
		return
	}
	if useAsm && n >= minAsm {
		softmaxRowsAVX512(&dst[0], &x[0], n, rows, ds, xs)
		return
	}
	for r := 0; r < rows; r++ {
		softmaxRowGo(dst[r*ds:][:n], x[r*xs:][:n])
	}
}

// ScaledMaskedSoftmaxRows is SoftmaxRows of x*scale + mask, the mask row r
// read at mask[r*ms:] (ms may be 0), with the multiply and the add rounded
// separately, as two ops would.
func ScaledMaskedSoftmaxRows(dst, x, mask []float32, scale float32, n, rows, ds, xs, ms int) {
	if !rowsFit(len(dst), n, rows, ds) || !rowsFit(len(x), n, rows, xs) || !rowsFit(len(mask), n, rows, ms) || ds == 0 && rows > 1 {
		panic("vec: softmax rows out of range")
	}
	if n == 0 || rows == 0 {
		return
	}
	if useAsm && n >= minAsm {
		scaledMaskedSoftmaxRowsAVX512(&dst[0], &x[0], &mask[0], scale, n, rows, ds, xs, ms)
		return
	}
	for r := 0; r < rows; r++ {
		o := dst[r*ds:][:n]
		MulScalar(o, x[r*xs:][:n], scale)
		Add(o, o, mask[r*ms:][:n])
		softmaxRowGo(o, o)
	}
}

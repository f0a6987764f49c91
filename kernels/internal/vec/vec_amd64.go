//go:build !purego

package vec

import "golang.org/x/sys/cpu"

// useAsm: the loops need AVX-512 Foundation (x/sys/cpu also checks that
// the OS saves the ZMM and mask registers).
var useAsm = cpu.X86.HasAVX512F

//go:noescape
func addVV512(dst, a, b *float32, n int)

//go:noescape
func subVV512(dst, a, b *float32, n int)

//go:noescape
func mulVV512(dst, a, b *float32, n int)

//go:noescape
func divVV512(dst, a, b *float32, n int)

//go:noescape
func addVS512(dst, a *float32, s float32, n int)

//go:noescape
func subVS512(dst, a *float32, s float32, n int)

//go:noescape
func mulVS512(dst, a *float32, s float32, n int)

//go:noescape
func divVS512(dst, a *float32, s float32, n int)

//go:noescape
func subSV512(dst, a *float32, s float32, n int)

//go:noescape
func divSV512(dst, a *float32, s float32, n int)

//go:noescape
func maxAVX512(x *float32, n int) float32

//go:noescape
func expShiftSumAVX512(dst, x *float32, shift float32, n int) float64

//go:noescape
func tanhAVX512(dst, x *float32, n int)

//go:noescape
func geluTanhAVX512(dst, x *float32, n int)

//go:noescape
func geluErfAVX512(dst, x *float32, n int)

//go:noescape
func meanVarAVX512(x *float32, n int) (mean, variance float64)

//go:noescape
func normalizeAVX512(dst, x, gamma, beta *float32, mean, rstd float32, n int)

//go:noescape
func maxSV512(dst, a *float32, s float32, n int)

//go:noescape
func scaleAddAVX512(dst, x *float32, a, b float32, n int)

//go:noescape
func softmaxRowsAVX512(dst, x *float32, n, rows, ds, xs int)

//go:noescape
func scaledMaskedSoftmaxRowsAVX512(dst, x, mask *float32, scale float32, n, rows, ds, xs, ms int)

//go:noescape
func layerNormRowsAVX512(dst, x, gamma, beta *float32, means, rstds *float64, n, rows int, eps float64)

//go:noescape
func clampAVX512(dst, x *float32, lo, hi float32, n int)

//go:noescape
func maximumAVX512(dst, a, b *float32, n int)

//go:noescape
func minimumAVX512(dst, a, b *float32, n int)

//go:noescape
func hardswishAVX512(dst, x *float32, n int)

//go:noescape
func hardsigmoidAVX512(dst, x *float32, n int)

//go:noescape
func sigmoidAVX512(dst, x *float32, n int)

//go:noescape
func siluAVX512(dst, x *float32, n int)

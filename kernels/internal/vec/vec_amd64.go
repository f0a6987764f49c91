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

// useAVX2 selects the 8-lane loops on CPUs without AVX-512.
var (
	hasFMA  = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	useAVX2 = !useAsm && hasFMA
)

// The AVX2 loops take n a positive multiple of 8.

//go:noescape
func addVV256(dst, a, b *float32, n int)

//go:noescape
func subVV256(dst, a, b *float32, n int)

//go:noescape
func mulVV256(dst, a, b *float32, n int)

//go:noescape
func divVV256(dst, a, b *float32, n int)

//go:noescape
func addVS256(dst, a *float32, s float32, n int)

//go:noescape
func subVS256(dst, a *float32, s float32, n int)

//go:noescape
func mulVS256(dst, a *float32, s float32, n int)

//go:noescape
func divVS256(dst, a *float32, s float32, n int)

//go:noescape
func subSV256(dst, a *float32, s float32, n int)

//go:noescape
func divSV256(dst, a *float32, s float32, n int)

//go:noescape
func maxSV256(dst, a *float32, s float32, n int)

//go:noescape
func keepMax256(dst, cur, later *float32, n int)

//go:noescape
func maxAVX2(x *float32, n int) float32

//go:noescape
func expShiftSumAVX2(dst, x *float32, shift float32, n int) float64

//go:noescape
func axpyAVX2(dst, x *float32, a float32, n int)

//go:noescape
func clampAVX2(dst, x *float32, lo, hi float32, n int)

//go:noescape
func hardswishAVX2(dst, x *float32, n int)

//go:noescape
func hardsigmoidAVX2(dst, x *float32, n int)

//go:noescape
func sigmoidAVX2(dst, x *float32, n int)

//go:noescape
func siluAVX2(dst, x *float32, n int)

//go:noescape
func tanhAVX2(dst, x *float32, n int)

//go:noescape
func geluTanhAVX2(dst, x *float32, n int)

//go:noescape
func geluErfAVX2(dst, x *float32, n int)

//go:noescape
func sumAVX2(x *float32, n int) float64

//go:noescape
func meanRows256(dst, x *float32, rows, cols int)

//go:noescape
func addRows256(dst, x, gate *float32, rows, cols, step int)

//go:noescape
func subRows256(dst, x, gate *float32, rows, cols, step int)

//go:noescape
func mulRows256(dst, x, gate *float32, rows, cols, step int)

//go:noescape
func divRows256(dst, x, gate *float32, rows, cols, step int)

//go:noescape
func subFromRows256(dst, x, gate *float32, rows, cols, step int)

//go:noescape
func divIntoRows256(dst, x, gate *float32, rows, cols, step int)

//go:noescape
func sqDevAVX2(x *float32, mean float64, n int) float64

//go:noescape
func normalizeAVX2(dst, x, gamma, beta *float32, mean, rstd float32, n int)

//go:noescape
func tapsAVX2(dst, src *float32, offs *int, w *float32, taps int, bias float32, n int)

//go:noescape
func deinterleaveAVX2(even, odd *float32, ds int, src *float32, ss, n, rows int)

//go:noescape
func copyRowsAVX2(dst *float32, ds int, src *float32, ss, n, rows int)

//go:noescape
func packHWC8AVX2(dst *float32, offs *int, src *float32, plane, n int)

//go:noescape
func unpackHWC8AVX2(dst *float32, plane int, src *float32, n int)

//go:noescape
func tapsHWC8AVX2(dst, src *float32, pix *int, n int, offs *int, w *float32, taps int, bias *float32)

//go:noescape
func taps8AVX512(dst *float32, ds int, src *float32, offs *int, w *float32, taps int, bias *float32, n int)

//go:noescape
func taps4AVX2(dst *float32, ds int, src *float32, offs *int, w *float32, taps int, bias *float32, n int)

//go:noescape
func softmaxRowsAVX2(dst, x *float32, n, rows, ds, xs int)

//go:noescape
func scaledMaskedSoftmaxRowsAVX2(dst, x, mask *float32, scale float32, n, rows, ds, xs, ms int)

//go:noescape
func transposeAVX2(dst *float32, ld int, src *float32, ls, rows, cols int)

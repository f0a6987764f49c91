//go:build !amd64 || purego

package vec

const useAsm = false

func addVV512(dst, a, b *float32, n int)                              { panic("vec: no assembly") }
func subVV512(dst, a, b *float32, n int)                              { panic("vec: no assembly") }
func mulVV512(dst, a, b *float32, n int)                              { panic("vec: no assembly") }
func divVV512(dst, a, b *float32, n int)                              { panic("vec: no assembly") }
func addVS512(dst, a *float32, s float32, n int)                      { panic("vec: no assembly") }
func subVS512(dst, a *float32, s float32, n int)                      { panic("vec: no assembly") }
func mulVS512(dst, a *float32, s float32, n int)                      { panic("vec: no assembly") }
func divVS512(dst, a *float32, s float32, n int)                      { panic("vec: no assembly") }
func subSV512(dst, a *float32, s float32, n int)                      { panic("vec: no assembly") }
func divSV512(dst, a *float32, s float32, n int)                      { panic("vec: no assembly") }
func maxAVX512(x *float32, n int) float32                             { panic("vec: no assembly") }
func expShiftSumAVX512(dst, x *float32, shift float32, n int) float64 { panic("vec: no assembly") }
func tanhAVX512(dst, x *float32, n int)                               { panic("vec: no assembly") }
func geluTanhAVX512(dst, x *float32, n int)                           { panic("vec: no assembly") }
func geluErfAVX512(dst, x *float32, n int)                            { panic("vec: no assembly") }

func meanVarAVX512(x *float32, n int) (mean, variance float64) { panic("vec: no assembly") }

func normalizeAVX512(dst, x, gamma, beta *float32, mean, rstd float32, n int) {
	panic("vec: no assembly")
}

func maxSV512(dst, a *float32, s float32, n int) { panic("vec: no assembly") }

func scaleAddAVX512(dst, x *float32, a, b float32, n int) { panic("vec: no assembly") }

func softmaxRowsAVX512(dst, x *float32, n, rows, ds, xs int) { panic("vec: no assembly") }

func scaledMaskedSoftmaxRowsAVX512(dst, x, mask *float32, scale float32, n, rows, ds, xs, ms int) {
	panic("vec: no assembly")
}

func layerNormRowsAVX512(dst, x, gamma, beta *float32, means, rstds *float64, n, rows int, eps float64) {
	panic("vec: no assembly")
}

func clampAVX512(dst, x *float32, lo, hi float32, n int) { panic("vec: no assembly") }
func maximumAVX512(dst, a, b *float32, n int)            { panic("vec: no assembly") }
func minimumAVX512(dst, a, b *float32, n int)            { panic("vec: no assembly") }
func hardswishAVX512(dst, x *float32, n int)             { panic("vec: no assembly") }
func hardsigmoidAVX512(dst, x *float32, n int)           { panic("vec: no assembly") }
func sigmoidAVX512(dst, x *float32, n int)               { panic("vec: no assembly") }
func siluAVX512(dst, x *float32, n int)                  { panic("vec: no assembly") }

const useAVX2, hasFMA = false, false

func addVV256(dst, a, b *float32, n int)                            { panic("vec: no assembly") }
func subVV256(dst, a, b *float32, n int)                            { panic("vec: no assembly") }
func mulVV256(dst, a, b *float32, n int)                            { panic("vec: no assembly") }
func divVV256(dst, a, b *float32, n int)                            { panic("vec: no assembly") }
func addVS256(dst, a *float32, s float32, n int)                    { panic("vec: no assembly") }
func subVS256(dst, a *float32, s float32, n int)                    { panic("vec: no assembly") }
func mulVS256(dst, a *float32, s float32, n int)                    { panic("vec: no assembly") }
func divVS256(dst, a *float32, s float32, n int)                    { panic("vec: no assembly") }
func subSV256(dst, a *float32, s float32, n int)                    { panic("vec: no assembly") }
func divSV256(dst, a *float32, s float32, n int)                    { panic("vec: no assembly") }
func maxSV256(dst, a *float32, s float32, n int)                    { panic("vec: no assembly") }
func keepMax256(dst, cur, later *float32, n int)                    { panic("vec: no assembly") }
func maxAVX2(x *float32, n int) float32                             { panic("vec: no assembly") }
func expShiftSumAVX2(dst, x *float32, shift float32, n int) float64 { panic("vec: no assembly") }
func axpyAVX2(dst, x *float32, a float32, n int)                    { panic("vec: no assembly") }
func clampAVX2(dst, x *float32, lo, hi float32, n int)              { panic("vec: no assembly") }
func hardswishAVX2(dst, x *float32, n int)                          { panic("vec: no assembly") }
func hardsigmoidAVX2(dst, x *float32, n int)                        { panic("vec: no assembly") }
func sigmoidAVX2(dst, x *float32, n int)                            { panic("vec: no assembly") }
func siluAVX2(dst, x *float32, n int)                               { panic("vec: no assembly") }
func tanhAVX2(dst, x *float32, n int)                               { panic("vec: no assembly") }
func geluTanhAVX2(dst, x *float32, n int)                           { panic("vec: no assembly") }
func geluErfAVX2(dst, x *float32, n int)                            { panic("vec: no assembly") }
func sumAVX2(x *float32, n int) float64                             { panic("vec: no assembly") }

func meanRows256(dst, x *float32, rows, cols int)                { panic("vec: no assembly") }
func addRows256(dst, x, gate *float32, rows, cols, step int)     { panic("vec: no assembly") }
func subRows256(dst, x, gate *float32, rows, cols, step int)     { panic("vec: no assembly") }
func mulRows256(dst, x, gate *float32, rows, cols, step int)     { panic("vec: no assembly") }
func divRows256(dst, x, gate *float32, rows, cols, step int)     { panic("vec: no assembly") }
func subFromRows256(dst, x, gate *float32, rows, cols, step int) { panic("vec: no assembly") }
func divIntoRows256(dst, x, gate *float32, rows, cols, step int) { panic("vec: no assembly") }
func sqDevAVX2(x *float32, mean float64, n int) float64          { panic("vec: no assembly") }
func normalizeAVX2(dst, x, gamma, beta *float32, mean, rstd float32, n int) {
	panic("vec: no assembly")
}

func tapsAVX2(dst, src *float32, offs *int, w *float32, taps int, bias float32, n int) {
	panic("vec: no assembly")
}

func deinterleaveAVX2(even, odd *float32, ds int, src *float32, ss, n, rows int) {
	panic("vec: no assembly")
}

func copyRowsAVX2(dst *float32, ds int, src *float32, ss, n, rows int) { panic("vec: no assembly") }

func packHWC8AVX2(dst *float32, offs *int, src *float32, plane, n int) { panic("vec: no assembly") }

func unpackHWC8AVX2(dst *float32, plane int, src *float32, n int) { panic("vec: no assembly") }

func tapsHWC8AVX2(dst, src *float32, pix *int, n int, offs *int, w *float32, taps int, bias *float32) {
	panic("vec: no assembly")
}

func taps8AVX512(dst *float32, ds int, src *float32, offs *int, w *float32, taps int, bias *float32, n int) {
	panic("vec: no assembly")
}

func taps4AVX2(dst *float32, ds int, src *float32, offs *int, w *float32, taps int, bias *float32, n int) {
	panic("vec: no assembly")
}

func softmaxRowsAVX2(dst, x *float32, n, rows, ds, xs int) { panic("vec: no assembly") }

func scaledMaskedSoftmaxRowsAVX2(dst, x, mask *float32, scale float32, n, rows, ds, xs, ms int) {
	panic("vec: no assembly")
}

func transposeAVX2(dst *float32, ld int, src *float32, ls, rows, cols int) { panic("vec: no assembly") }

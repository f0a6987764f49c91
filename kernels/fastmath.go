package kernels

import (
	"math"

	"github.com/seam-rt/seam/kernels/internal/vec"
)

// float32 transcendental functions for the activation loops. ATen uses
// SLEEF's vectorised versions (within 1 ULP); these are the classic
// Cephes/Eigen approximations, within a few ULP, and avoid a float64 libm
// call per element. Contiguous rows go through package vec's vector loops,
// which compute the same functions.

// expf is Cephes' expf: range reduction by ln 2 and a degree-5 polynomial.
func expf(x float32) float32 { return vec.Exp(x) }

// tanhf is Eigen's rational approximation (generic_fast_tanh_float).
func tanhf(x float32) float32 { return vec.Tanh1(x) }

func sigmoidf(x float32) float32 { return vec.Sigmoid1(x) }

func geluTanh64(x float64) float64 {
	const beta = math.Sqrt2 * (2 / math.SqrtPi) * 0.5
	return 0.5 * x * (1 + math.Tanh(beta*(x+0.044715*x*x*x)))
}

func geluErf64(x float64) float64 { return x * 0.5 * (1 + math.Erf(x/math.Sqrt2)) }

package vec

import "math"

// The portable loops. They compute what the assembly does, in the same
// float32 arithmetic except that Go does not fuse multiply-adds, so the
// two agree to an ULP or two, not bitwise.

func addGo(dst, a, b []float32) {
	dst, b = dst[:len(a)], b[:len(a)]
	for i, v := range a {
		dst[i] = v + b[i]
	}
}

func subGo(dst, a, b []float32) {
	dst, b = dst[:len(a)], b[:len(a)]
	for i, v := range a {
		dst[i] = v - b[i]
	}
}

func mulGo(dst, a, b []float32) {
	dst, b = dst[:len(a)], b[:len(a)]
	for i, v := range a {
		dst[i] = v * b[i]
	}
}

func divGo(dst, a, b []float32) {
	dst, b = dst[:len(a)], b[:len(a)]
	for i, v := range a {
		dst[i] = v / b[i]
	}
}

func addSGo(dst, a []float32, s float32) {
	dst = dst[:len(a)]
	for i, v := range a {
		dst[i] = v + s
	}
}

func subSGo(dst, a []float32, s float32) {
	dst = dst[:len(a)]
	for i, v := range a {
		dst[i] = v - s
	}
}

func mulSGo(dst, a []float32, s float32) {
	dst = dst[:len(a)]
	for i, v := range a {
		dst[i] = v * s
	}
}

func divSGo(dst, a []float32, s float32) {
	dst = dst[:len(a)]
	for i, v := range a {
		dst[i] = v / s
	}
}

func sSubGo(dst []float32, s float32, b []float32) {
	dst = dst[:len(b)]
	for i, v := range b {
		dst[i] = s - v
	}
}

func sDivGo(dst []float32, s float32, b []float32) {
	dst = dst[:len(b)]
	for i, v := range b {
		dst[i] = s / v
	}
}

func maxGo(x []float32) float32 {
	m := float32(math.Inf(-1))
	for _, v := range x {
		if v > m {
			m = v
		} else if v != v {
			return v
		}
	}
	return m
}

// Cephes expf constants.
const (
	expHi  = 89
	log2e  = 1.44269504088896341
	ln2Hi  = 0.693359375
	ln2Lo  = -2.12194440e-4
	expP0  = 1.9875691500e-4
	expP1  = 1.3981999507e-3
	expP2  = 8.3334519073e-3
	expP3  = 4.1665795894e-2
	expP4  = 1.6666665459e-1
	expP5  = 5.0000001201e-1
	tanhLo = 0.0004
	// tanhOne is where float32 tanh rounds to 1.
	tanhOne = 9.1
)

// expLo is the least float32 whose exp is a normal float32; below it the
// loops return an exact 0 rather than a (slow) subnormal.
var expLo = math.Float32frombits(expLoBits)

// expLoBits is float32(ln 2^-126) rounded up (asm_gen.go uses the same).
const expLoBits = 0xc2aeac4f

// Exp is float32 exp(x) by the algorithm of the vector loops: an exact 0
// where exp(x) would be subnormal.
func Exp(x float32) float32 {
	switch {
	case x != x:
		return x
	case x > expHi:
		x = expHi
	case x < expLo:
		return 0
	}
	// n = round(x*log2e) (half up, as Cephes): floor by truncation, exact
	// since x*log2e + 256.5 > 0 on the clamped range.
	n := int32(x*log2e+256.5) - 256
	fn := float32(n)
	r := x - fn*ln2Hi
	r -= fn * ln2Lo
	y := ((((expP0*r+expP1)*r+expP2)*r+expP3)*r+expP4)*r + expP5
	y = (y*r+1)*r + 1
	return scale2(y, int(n))
}

// scale2 is y * 2^n for y in [0.5, 2) and n in [-126, 128], rounded once,
// as VSCALEFPS computes it (2^128 overflows to +Inf).
func scale2(y float32, n int) float32 {
	if n >= -126 && n <= 127 {
		return y * math.Float32frombits(uint32(n+127)<<23)
	}
	// Outside the normal exponents: scale in float64, where 2^n is exact,
	// then round to float32 once.
	return float32(float64(y) * math.Ldexp(1, n))
}

func expShiftSumGo(dst, x []float32, shift float32) float64 {
	dst = dst[:len(x)]
	s := 0.0
	for i, v := range x {
		v -= shift
		var e float32
		if v >= -87 && v <= 88 {
			e = expCore(v)
		} else {
			e = Exp(v)
		}
		dst[i] = e
		s += float64(e)
	}
	return s
}

// expCore is Exp for x in [-87, 88], where 2^n is a normal float32:
// small enough to inline into the loops.
func expCore(x float32) float32 {
	// float32 throughout: a float32->float64 conversion here would carry
	// a false dependency from one element to the next.
	n := int32(x*log2e+256.5) - 256
	fn := float32(n)
	r := x - fn*ln2Hi - fn*ln2Lo
	y := ((((expP0*r+expP1)*r+expP2)*r+expP3)*r+expP4)*r + expP5
	return ((y*r+1)*r + 1) * math.Float32frombits(uint32(n+127)<<23)
}

var (
	tanhNum = [...]float32{-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11,
		5.12229709037114e-08, 1.48572235717979e-05, 6.37261928875436e-04, 4.89352455891786e-03}
	tanhDen = [...]float32{1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03}
)

// Tanh1 is float32 tanh(x) by the algorithm of the vector loops.
func Tanh1(x float32) float32 {
	const clamp = 7.90531110763549805
	switch {
	case x != x:
		return x
	case x > -tanhLo && x < tanhLo:
		return x
	case x >= tanhOne:
		return 1
	case x <= -tanhOne:
		return -1
	case x > clamp:
		x = clamp
	case x < -clamp:
		x = -clamp
	}
	return tanhCore(x)
}

// tanhCore is the rational function of Tanh1 for |x| <= 7.9.
func tanhCore(x float32) float32 {
	x2 := x * x
	p := ((((((tanhNum[0]*x2+tanhNum[1])*x2+tanhNum[2])*x2+tanhNum[3])*x2+tanhNum[4])*x2+tanhNum[5])*x2 + tanhNum[6]) * x
	q := ((tanhDen[0]*x2+tanhDen[1])*x2+tanhDen[2])*x2 + tanhDen[3]
	return p / q
}

func tanhGo(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		if (v >= tanhLo && v <= 7.9) || (v <= -tanhLo && v >= -7.9) {
			dst[i] = tanhCore(v)
		} else {
			dst[i] = Tanh1(v)
		}
	}
}

const (
	geluBeta  = math.Sqrt2 * (2 / math.SqrtPi) * 0.5
	geluKappa = 0.044715
)

// GeluTanh1 is gelu(x, approximate='tanh') by the algorithm of the vector
// loops.
func GeluTanh1(x float32) float32 {
	inner := (x + geluKappa*(x*x*x)) * geluBeta
	return 0.5 * x * (1 + Tanh1(inner))
}

func geluTanhGo(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = GeluTanh1(v)
	}
}

// erfcPos is 1 - erf(z) for z >= 0 by Abramowitz and Stegun 7.1.26.
func erfcPos(z float32) float32 {
	t := 1 / (0.3275911*z + 1)
	p := ((((1.061405429*t-1.453152027)*t+1.421413741)*t-0.284496736)*t + 0.254829592) * t
	return p * Exp(-(z * z))
}

// GeluErf1 is gelu(x) = 0.5*x*(1 + erf(x/sqrt 2)) by the algorithm of the
// vector loops: for x < 0, 1 + erf is erfc(|x|/sqrt 2), without
// cancellation.
func GeluErf1(x float32) float32 {
	w := erfcPos(float32(math.Abs(float64(x))) * (math.Sqrt2 / 2))
	if x >= 0 {
		w = 2 - w
	}
	return x * 0.5 * w
}

func geluErfGo(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = GeluErf1(v)
	}
}

func meanVarGo(x []float32) (mean, variance float64) {
	n := float64(len(x))
	var s [4]float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s[0] += float64(x[i])
		s[1] += float64(x[i+1])
		s[2] += float64(x[i+2])
		s[3] += float64(x[i+3])
	}
	for ; i < len(x); i++ {
		s[0] += float64(x[i])
	}
	mean = (s[0] + s[1] + s[2] + s[3]) / n
	s = [4]float64{}
	i = 0
	for ; i+4 <= len(x); i += 4 {
		d0, d1, d2, d3 := float64(x[i])-mean, float64(x[i+1])-mean, float64(x[i+2])-mean, float64(x[i+3])-mean
		s[0] += d0 * d0
		s[1] += d1 * d1
		s[2] += d2 * d2
		s[3] += d3 * d3
	}
	for ; i < len(x); i++ {
		d := float64(x[i]) - mean
		s[0] += d * d
	}
	return mean, (s[0] + s[1] + s[2] + s[3]) / n
}

// sumGo and sqDevGo finish MeanVar's AVX2 sums on the last len%8 values.
func sumGo(x []float32) float64 {
	s := 0.0
	for _, v := range x {
		s += float64(v)
	}
	return s
}

func sqDevGo(x []float32, mean float64) float64 {
	s := 0.0
	for _, v := range x {
		d := float64(v) - mean
		s += d * d
	}
	return s
}

func normalizeGo(dst, x, g, b []float32, mean, rstd float32) {
	dst, g, b = dst[:len(x)], g[:len(x)], b[:len(x)]
	for i, v := range x {
		dst[i] = (v-mean)*rstd*g[i] + b[i]
	}
}

func reluGo(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		if v < 0 {
			v = 0
		}
		dst[i] = v
	}
}

func scaleAddGo(dst, x []float32, a, b float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = v*a + b
	}
}

func softmaxRowGo(dst, x []float32) {
	m := Max(x)
	s := ExpShiftSum(dst, x, m)
	MulScalar(dst, dst[:len(x)], float32(1/s))
}

// Clamp1 is min(max(x, lo), hi) with x's NaN kept (bounds are not NaN).
func Clamp1(x, lo, hi float32) float32 {
	if x < lo {
		x = lo
	}
	if x > hi {
		x = hi
	}
	return x
}

func clampGo(dst, x []float32, lo, hi float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = Clamp1(v, lo, hi)
	}
}

func maximumGo(dst, a, b []float32) {
	dst, b = dst[:len(a)], b[:len(a)]
	for i, v := range a {
		w := b[i]
		switch {
		case v != v || w != w:
			dst[i] = v + w
		case w > v:
			dst[i] = w
		default:
			dst[i] = v
		}
	}
}

func minimumGo(dst, a, b []float32) {
	dst, b = dst[:len(a)], b[:len(a)]
	for i, v := range a {
		w := b[i]
		switch {
		case v != v || w != w:
			dst[i] = v + w
		case w < v:
			dst[i] = w
		default:
			dst[i] = v
		}
	}
}

// Hardsigmoid1 is clamp(x + 3, 0, 6) / 6 in float32 steps.
func Hardsigmoid1(x float32) float32 { return Clamp1(x+3, 0, 6) / 6 }

// Hardswish1 is x * clamp(x + 3, 0, 6) / 6 in float32 steps.
func Hardswish1(x float32) float32 { return x * Clamp1(x+3, 0, 6) / 6 }

func hardswishGo(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = Hardswish1(v)
	}
}

func hardsigmoidGo(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = Hardsigmoid1(v)
	}
}

// Sigmoid1 is 1/(1 + exp(-x)) by the algorithm of the vector loops.
func Sigmoid1(x float32) float32 { return 1 / (1 + Exp(-x)) }

// Silu1 is x/(1 + exp(-x)) by the algorithm of the vector loops.
func Silu1(x float32) float32 { return x / (1 + Exp(-x)) }

func sigmoidGo(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = Sigmoid1(v)
	}
}

func siluGo(dst, x []float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = Silu1(v)
	}
}

func axpyGo(dst, x []float32, a float32) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] += a * v
	}
}

func tapsGo(dst, src []float32, offs []int, w []float32, bias float32) {
	for i := range dst {
		s := bias
		for t, o := range offs {
			s += w[t] * src[i+o]
		}
		dst[i] = s
	}
}

func deinterleaveGo(even, odd, src []float32) {
	for i := range odd {
		p := src[2*i : 2*i+2 : 2*i+2]
		even[i], odd[i] = p[0], p[1]
	}
	if len(even) > len(odd) {
		even[len(odd)] = src[2*len(odd)]
	}
}

func gateRowsGo(op RowOp, dst, x, gate []float32, cols, step int) {
	for r := 0; r*cols < len(x); r++ {
		s, o, row := gate[r*step], dst[r*cols:][:cols], x[r*cols:][:cols]
		for i, v := range row {
			switch op {
			case RowAdd:
				o[i] = v + s
			case RowSub:
				o[i] = v - s
			case RowMul:
				o[i] = v * s
			case RowDiv:
				o[i] = v / s
			case RowSubFrom:
				o[i] = s - v
			default:
				o[i] = s / v
			}
		}
	}
}

func keepMaxGo(dst, cur, later []float32) {
	dst, later = dst[:len(cur)], later[:len(cur)]
	for i, c := range cur {
		if v := later[i]; v > c || v != v {
			c = v
		}
		dst[i] = c
	}
}

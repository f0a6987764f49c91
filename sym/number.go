package sym

import (
	"math"
	"math/big"
)

// Arithmetic on number nodes, as SymPy's Number classes do it: Integer and
// Rational exactly, Float in float64 (a zero Float result becomes Integer 0,
// as Float._new does), infinities and nan as SymPy and torch's int_oo do.

// maxPowBits bounds the size of an exact power folded at construction;
// larger powers stay unevaluated rather than exhausting memory.
const maxPowBits = 1 << 14

func infSign(e *Expr) int {
	switch e.op {
	case OpInfinity, OpIntInfinity:
		return 1
	case OpNegInfinity, OpNegIntInfinity:
		return -1
	}
	return 0
}

func isIntInf(e *Expr) bool { return e.op == OpIntInfinity || e.op == OpNegIntInfinity }

func infinity(sign int, intFlavour bool) *Expr {
	switch {
	case intFlavour && sign > 0:
		return IntInfinity()
	case intFlavour:
		return NegIntInfinity()
	case sign > 0:
		return Infinity()
	}
	return NegInfinity()
}

// numRat is the exact value of an Integer or Rational.
func numRat(e *Expr) *big.Rat {
	if e.op == OpInteger {
		return new(big.Rat).SetInt(e.num)
	}
	return new(big.Rat).SetFrac(e.num, e.den)
}

// numFloat converts a number node to float64, rounding to nearest.
func numFloat(e *Expr) float64 {
	switch e.op {
	case OpInteger:
		if e.fits {
			return float64(e.small)
		}
		f, _ := new(big.Float).SetInt(e.num).Float64()
		return f
	case OpRational:
		f, _ := numRat(e).Float64()
		return f
	}
	f, _ := e.Float64()
	return f
}

// numSign is -1, 0 or 1; ok is false for nan.
func numSign(e *Expr) (int, bool) {
	switch e.op {
	case OpInteger, OpRational:
		return e.num.Sign(), true
	case OpFloat:
		switch {
		case e.f > 0:
			return 1, true
		case e.f < 0:
			return -1, true
		}
		return 0, true
	case OpNaN:
		return 0, false
	}
	return infSign(e), true
}

// numCmp compares two number nodes exactly; ok is false when either is nan.
func numCmp(a, b *Expr) (int, bool) {
	if a.op == OpNaN || b.op == OpNaN {
		return 0, false
	}
	ai, bi := infSign(a), infSign(b)
	if ai != 0 || bi != 0 {
		return cmpInt(ai, bi), true
	}
	if a.op == OpFloat || b.op == OpFloat {
		return numRatOrFloat(a).Cmp(numRatOrFloat(b)), true
	}
	return numRat(a).Cmp(numRat(b)), true
}

// numRatOrFloat is the exact rational value of a finite number node.
func numRatOrFloat(e *Expr) *big.Rat {
	if e.op == OpFloat {
		if r := new(big.Rat).SetFloat64(e.f); r != nil {
			return r
		}
		return new(big.Rat)
	}
	return numRat(e)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func maxPrec(a, b *Expr) int {
	p := 0
	if a.op == OpFloat {
		p = a.prec
	}
	if b.op == OpFloat && b.prec > p {
		p = b.prec
	}
	return p
}

// floatResult is a Float from arithmetic: zero becomes Integer 0.
func floatResult(v float64, prec int) *Expr {
	if v == 0 {
		return Int(0)
	}
	return floatPrec(v, prec)
}

func numAdd(a, b *Expr) *Expr {
	if a.op == OpNaN || b.op == OpNaN {
		return NaN()
	}
	ai, bi := infSign(a), infSign(b)
	if ai != 0 && bi != 0 && ai != bi {
		return NaN()
	}
	if ai != 0 || bi != 0 {
		return infinity(ai+bi, isIntInf(a) || isIntInf(b))
	}
	if a.op == OpFloat || b.op == OpFloat {
		return floatResult(numFloat(a)+numFloat(b), maxPrec(a, b))
	}
	return ratExpr(new(big.Rat).Add(numRat(a), numRat(b)))
}

func numMul(a, b *Expr) *Expr {
	if a.op == OpNaN || b.op == OpNaN {
		return NaN()
	}
	ai, bi := infSign(a), infSign(b)
	if ai != 0 || bi != 0 {
		as, _ := numSign(a)
		bs, _ := numSign(b)
		if as == 0 || bs == 0 {
			return NaN()
		}
		return infinity(as*bs, isIntInf(a) || isIntInf(b))
	}
	if a.op == OpFloat || b.op == OpFloat {
		return floatResult(numFloat(a)*numFloat(b), maxPrec(a, b))
	}
	if a.op == OpInteger && b.op == OpInteger {
		return newInteger(new(big.Int).Mul(a.num, b.num))
	}
	return ratExpr(new(big.Rat).Mul(numRat(a), numRat(b)))
}

func numNeg(a *Expr) *Expr { return numMul(Int(-1), a) }

// numPow folds b**e for number nodes, or returns nil to leave the power
// unevaluated (complex results, zoo, huge or irrational exact results).
func numPow(b, e *Expr) *Expr {
	if b.op == OpNaN || e.op == OpNaN {
		return NaN()
	}
	if isInfinite(b) || isInfinite(e) {
		return nil
	}
	switch e.op {
	case OpInteger:
		if !e.fits {
			return nil
		}
		n := e.small
		switch b.op {
		case OpInteger, OpRational:
			return ratPowInt(numRat(b), n)
		case OpFloat:
			if b.f == 0 && n < 0 {
				return nil
			}
			return floatResult(math.Pow(b.f, float64(n)), b.prec)
		}
	case OpRational:
		if s, _ := numSign(b); s < 0 {
			return nil
		}
		switch b.op {
		case OpInteger, OpRational:
			return ratPowRat(numRat(b), numRat(e))
		case OpFloat:
			return floatResult(math.Pow(b.f, numFloat(e)), b.prec)
		}
	case OpFloat:
		if s, _ := numSign(b); s < 0 {
			return nil
		}
		if s, _ := numSign(b); s == 0 && e.f < 0 {
			return nil
		}
		return floatResult(math.Pow(numFloat(b), e.f), maxPrec(b, e))
	}
	return nil
}

func ratPowInt(r *big.Rat, n int64) *Expr {
	if r.Sign() == 0 {
		if n < 0 {
			return nil
		}
		if n == 0 {
			return Int(1)
		}
		return Int(0)
	}
	neg := n < 0
	if neg {
		n = -n
	}
	num, den := new(big.Int).Abs(r.Num()), r.Denom()
	if num.Cmp(bigOne) != 0 || den.Cmp(bigOne) != 0 {
		bits := max(num.BitLen(), den.BitLen())
		if n > maxPowBits || int64(bits)*n > maxPowBits {
			return nil
		}
	}
	bn := big.NewInt(n)
	p := new(big.Int).Exp(num, bn, nil)
	q := new(big.Int).Exp(den, bn, nil)
	if r.Sign() < 0 && n%2 == 1 {
		p.Neg(p)
	}
	if neg {
		p, q = q, p
		if q.Sign() < 0 {
			p.Neg(p)
			q.Neg(q)
		}
	}
	return ratExpr(new(big.Rat).SetFrac(p, q))
}

// ratPowRat folds r**(p/q) for r >= 0 when the q-th roots are exact.
func ratPowRat(r, e *big.Rat) *Expr {
	if !e.Denom().IsInt64() || e.Denom().Int64() > 64 || !e.Num().IsInt64() {
		return nil
	}
	q := e.Denom().Int64()
	num, okn := intRoot(r.Num(), q)
	den, okd := intRoot(r.Denom(), q)
	if !okn || !okd {
		return nil
	}
	return ratPowInt(new(big.Rat).SetFrac(num, den), e.Num().Int64())
}

// intRoot returns the exact q-th root of v >= 0, if there is one.
func intRoot(v *big.Int, q int64) (*big.Int, bool) {
	if v.Sign() == 0 || v.Cmp(bigOne) == 0 {
		return new(big.Int).Set(v), true
	}
	// Binary search on [1, 2^(bits/q + 1)].
	lo := big.NewInt(1)
	hi := new(big.Int).Lsh(bigOne, uint(v.BitLen()/int(q)+1))
	qq := big.NewInt(q)
	mid, p := new(big.Int), new(big.Int)
	for lo.Cmp(hi) <= 0 {
		mid.Add(lo, hi).Rsh(mid, 1)
		p.Exp(mid, qq, nil)
		switch p.Cmp(v) {
		case 0:
			return mid, true
		case -1:
			lo.Add(mid, bigOne)
		default:
			hi.Sub(mid, bigOne)
		}
	}
	return nil, false
}

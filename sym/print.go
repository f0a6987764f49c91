package sym

import (
	"strings"
)

// String prints e as SymPy's str() does (sympy/printing/str.py with torch's
// _sympystr overrides), which is the text print_readable() shows in Sym(...)
// annotations and tensor sizes: s53, 2*s0 + 1, s0 - 1, -s0, s0**2,
// (s0//2), s77 > 4, 0.5*ToFloat(s77), FloatTrueDiv(ToFloat(s77), 3.0).
func (e *Expr) String() string {
	var p strPrinter
	return p.print(e)
}

// strPrinter tracks the nesting level: a Float at the top level is printed
// with all its digits, nested ones with trailing zeros stripped.
type strPrinter struct{ level int }

// precedence is sympy.printing.precedence.precedence for e.
func precedence(e *Expr) float64 {
	switch e.op {
	case OpInteger, OpFloat, OpRational:
		if s, _ := numSign(e); s < 0 {
			return precAdd
		}
		return float64(ops[e.op].prec)
	case OpMul:
		for _, a := range e.args {
			if a.op.isFunction() && ops[a.op].prec < precMul {
				return precMul
			}
		}
		if s, ok := numSign(e.args[0]); ok && e.args[0].op.IsNumber() && s < 0 {
			return precAdd
		}
		return precMul
	}
	return float64(ops[e.op].prec)
}

func (p *strPrinter) paren(e *Expr, level float64, strict bool) string {
	s := p.print(e)
	pr := precedence(e)
	if pr < level || (!strict && pr <= level) {
		return "(" + s + ")"
	}
	return s
}

func (p *strPrinter) print(e *Expr) string {
	p.level++
	defer func() { p.level-- }()
	switch e.op {
	case OpSymbol:
		return e.name
	case OpInteger:
		return e.num.String()
	case OpRational:
		return e.num.String() + "/" + e.den.String()
	case OpFloat:
		dps := 0
		if e.prec >= 5 {
			dps = precToDps(e.prec)
		}
		return mpmathStr(e.f, max(dps, 1), p.level > 1)
	case OpTrue:
		return "True"
	case OpFalse:
		return "False"
	case OpInfinity:
		return "oo"
	case OpNegInfinity:
		return "-oo"
	case OpIntInfinity:
		return "int_oo"
	case OpNegIntInfinity:
		return "-int_oo"
	case OpNaN:
		return "nan"
	case OpAdd:
		return p.add(e)
	case OpMul:
		return p.mul(e)
	case OpPow:
		return p.pow(e)
	case OpFloorDiv, OpCleanDiv:
		return "(" + p.paren(e.args[0], precAtom-0.5, false) + "//" + p.paren(e.args[1], precAtom-0.5, false) + ")"
	case OpMax, OpMin:
		args := append([]*Expr(nil), e.args...)
		sortByKey(args)
		return e.op.String() + "(" + p.join(args, ", ", 0) + ")"
	case OpEq:
		return "Eq(" + p.print(e.args[0]) + ", " + p.print(e.args[1]) + ")"
	case OpNe:
		return "Ne(" + p.print(e.args[0]) + ", " + p.print(e.args[1]) + ")"
	case OpLt, OpLe, OpGt, OpGe:
		return p.paren(e.args[0], precRelational, false) + " " + relOp[e.op] + " " + p.paren(e.args[1], precRelational, false)
	case OpAnd:
		return p.join(e.args, " & ", precBitwiseAnd)
	case OpOr:
		return p.join(e.args, " | ", precBitwiseOr)
	case OpNot:
		return "~" + p.paren(e.args[0], precNot, false)
	case OpIdentity:
		// torch's Identity._sympystr.
		return "(" + p.print(e.args[0]) + ")"
	}
	return e.op.String() + "(" + p.join(e.args, ", ", 0) + ")"
}

var relOp = map[Op]string{OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">="}

func (p *strPrinter) join(args []*Expr, sep string, level float64) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = p.paren(a, level, false)
	}
	return strings.Join(parts, sep)
}

// add is StrPrinter._print_Add; the terms are already in printing order.
func (p *strPrinter) add(e *Expr) string {
	var sb strings.Builder
	for i, t := range e.args {
		s := p.print(t)
		sign := "+"
		if strings.HasPrefix(s, "-") && t.op != OpAdd {
			sign, s = "-", s[1:]
		}
		if precedence(t) < precAdd || t.op == OpAdd {
			s = "(" + s + ")"
		}
		switch {
		case i > 0:
			sb.WriteString(" " + sign + " ")
		case sign == "-":
			sb.WriteString("-")
		}
		sb.WriteString(s)
	}
	return sb.String()
}

// mul is StrPrinter._print_Mul for an evaluated Mul: a sign, numerator
// factors and denominator factors (negative powers, rational denominators).
func (p *strPrinter) mul(e *Expr) string {
	prec := precedence(e)
	c, rest := asCoeffMul(e)
	sign := ""
	factors := orderedFactors(e)
	if s, ok := numSign(c); ok && c.op.IsNumber() && s < 0 {
		sign = "-"
		factors = mulFactors(numNeg(c), rest)
	}
	var num, den []*Expr
	var powParen []*Expr
	for _, f := range factors {
		switch {
		case f.op == OpPow && !f.nc && negativeExponent(f.args[1]):
			if isInt(f.args[1], -1) {
				b := f.args[0]
				if len(b.args) != 1 && (b.op == OpMul || b.op == OpPow) {
					powParen = append(powParen, b)
				}
				den = append(den, b)
			} else {
				den = append(den, rawNode(OpPow, []*Expr{f.args[0], negateExponent(f.args[1])}))
			}
		case isRationalNum(f):
			if f.op == OpInteger {
				num = append(num, f)
				continue
			}
			if f.num.Cmp(bigOne) != 0 {
				num = append(num, newInteger(f.num))
			}
			den = append(den, newInteger(f.den))
		default:
			num = append(num, f)
		}
	}
	if len(num) == 0 {
		num = []*Expr{Int(1)}
	}
	ns := make([]string, len(num))
	for i, f := range num {
		ns[i] = p.paren(f, prec, false)
	}
	ds := make([]string, len(den))
	for i, f := range den {
		ds[i] = p.paren(f, prec, false)
		for _, b := range powParen {
			if b == f {
				ds[i] = "(" + ds[i] + ")"
			}
		}
	}
	out := sign + strings.Join(ns, "*")
	switch len(ds) {
	case 0:
		return out
	case 1:
		return out + "/" + ds[0]
	}
	return out + "/(" + strings.Join(ds, "*") + ")"
}

// mulFactors is _keep_coeff(c, rest).as_ordered_factors() for c > 0.
func mulFactors(c, rest *Expr) []*Expr {
	fs := []*Expr{rest}
	if rest.op == OpMul {
		fs = rest.args
	}
	if isOne(c) {
		return fs
	}
	return append([]*Expr{c}, fs...)
}

// negativeExponent: the exponent's numeric coefficient is negative.
func negativeExponent(x *Expr) bool {
	c := x
	if !x.op.IsNumber() {
		c, _ = asCoeffMul(x)
	}
	s, ok := numSign(c)
	return ok && c.op.IsNumber() && s < 0
}

// negateExponent drops the minus of an exponent as apow in _print_Mul does.
func negateExponent(x *Expr) *Expr {
	if x.op.IsNumber() {
		return numNeg(x)
	}
	if isInt(x.args[0], -1) {
		if len(x.args) == 2 {
			return x.args[1]
		}
		return rawNode(OpMul, x.args[1:])
	}
	args := append([]*Expr{numNeg(x.args[0])}, x.args[1:]...)
	return rawNode(OpMul, args)
}

// pow is StrPrinter._print_Pow.
func (p *strPrinter) pow(e *Expr) string {
	b, x := e.args[0], e.args[1]
	half := x.op == OpRational && x.den.Cmp(bigTwo) == 0 && x.num.IsInt64()
	if half && x.num.Int64() == 1 {
		return "sqrt(" + p.print(b) + ")"
	}
	if !e.nc {
		if half && x.num.Int64() == -1 {
			return p.print(Int(1)) + "/sqrt(" + p.print(b) + ")"
		}
		if isInt(x, -1) {
			return p.print(Int(1)) + "/" + p.paren(b, precPow, false)
		}
	}
	ex := p.paren(x, precPow, false)
	return p.paren(b, precPow, false) + "**" + ex
}

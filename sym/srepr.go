package sym

import (
	"strconv"
	"strings"
)

// Srepr writes e as sympy.srepr does, which is the form torch.export writes
// in SymExpr.expr_str: Symbol('s53', positive=True, integer=True),
// Mul(Integer(-1), Integer(2), Symbol('s0')), Float('3.0', precision=53).
// Symbols keep the assumptions they were read with, so reading and writing
// an exported expression gives the same text.
func (e *Expr) Srepr() string {
	var sb strings.Builder
	e.writeSrepr(&sb)
	return sb.String()
}

func (e *Expr) writeSrepr(sb *strings.Builder) {
	switch e.op {
	case OpSymbol:
		sb.WriteString("Symbol(")
		sb.WriteString(PyRepr(e.name))
		for _, a := range e.assume {
			sb.WriteString(", ")
			sb.WriteString(a.Name)
			sb.WriteByte('=')
			sb.WriteString(a.Value)
		}
		sb.WriteByte(')')
		return
	case OpInteger:
		sb.WriteString("Integer(")
		sb.WriteString(e.num.String())
		sb.WriteByte(')')
		return
	case OpRational:
		sb.WriteString("Rational(")
		sb.WriteString(e.num.String())
		sb.WriteString(", ")
		sb.WriteString(e.den.String())
		sb.WriteByte(')')
		return
	case OpFloat:
		sb.WriteString("Float('")
		sb.WriteString(mpmathStr(e.f, reprDps(e.prec), true))
		sb.WriteString("', precision=")
		sb.WriteString(strconv.Itoa(e.prec))
		sb.WriteByte(')')
		return
	case OpTrue:
		sb.WriteString("true")
		return
	case OpFalse:
		sb.WriteString("false")
		return
	case OpInfinity:
		sb.WriteString("oo")
		return
	case OpNegInfinity:
		sb.WriteString("-oo")
		return
	case OpIntInfinity:
		sb.WriteString("int_oo")
		return
	case OpNegIntInfinity:
		sb.WriteString("-int_oo")
		return
	case OpNaN:
		sb.WriteString("nan")
		return
	}
	args := e.args
	if e.op == OpMul {
		args = orderedFactors(e)
	}
	sb.WriteString(e.op.String())
	sb.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			sb.WriteString(", ")
		}
		a.writeSrepr(sb)
	}
	sb.WriteByte(')')
}

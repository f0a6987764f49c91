package sym

import (
	"errors"
	"math"
	"math/big"
	"strconv"
)

// Calls: the constructors srepr text is made of, and torch's functions.

// maxFloatPrec bounds a Float's precision (values are float64 anyway; this
// keeps printed digits to about 1200).
const maxFloatPrec = 4096

type kwarg struct {
	name string
	v    value
}

func (p *parser) call(fn token) (value, error) {
	p.next() // (
	var args []value
	var kwargs []kwarg
	for !p.isOp(")") {
		if len(args)+len(kwargs) > 0 {
			if !p.isOp(",") {
				return value{}, p.errAt(p.peek().pos, "expected ',' or ')', found %s", describe(p.peek()))
			}
			p.next()
			if p.isOp(")") {
				break // trailing comma
			}
		}
		if t := p.peek(); t.kind == tokName && p.toks[p.i+1].kind == tokOp && p.toks[p.i+1].text == "=" {
			p.next()
			p.next()
			v, err := p.expr()
			if err != nil {
				return value{}, err
			}
			kwargs = append(kwargs, kwarg{t.text, v})
			continue
		}
		if len(kwargs) > 0 {
			return value{}, p.errAt(p.peek().pos, "positional argument after keyword argument")
		}
		v, err := p.expr()
		if err != nil {
			return value{}, err
		}
		args = append(args, v)
	}
	p.next() // )
	e, err := p.apply(fn, args, kwargs)
	return value{e: e, pos: fn.pos}, err
}

// apply builds the node a call names.
func (p *parser) apply(fn token, args []value, kwargs []kwarg) (*Expr, error) {
	name := fn.text
	if name == "Symbol" {
		return p.symbol(fn, args, kwargs)
	}
	if name == "Float" {
		return p.float(fn, args, kwargs)
	}
	if len(kwargs) > 0 {
		return nil, p.errAt(fn.pos, "%s does not take keyword arguments", name)
	}
	xs := make([]*Expr, len(args))
	for i, a := range args {
		x, err := p.want(a)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	nargs := func(lo, hi int) error {
		if len(xs) < lo || len(xs) > hi {
			return p.errAt(fn.pos, "%s takes %d to %d arguments, got %d", name, lo, hi, len(xs))
		}
		return nil
	}
	switch name {
	case "Integer":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		if xs[0].op != OpInteger {
			return nil, p.errAt(args[0].pos, "Integer needs an integer")
		}
		return xs[0], nil
	case "Rational":
		if err := nargs(1, 2); err != nil {
			return nil, err
		}
		if len(xs) == 1 {
			xs = append(xs, Int(1))
		}
		if xs[0].op != OpInteger || xs[1].op != OpInteger {
			return nil, p.errAt(fn.pos, "Rational needs two integers")
		}
		if xs[1].num.Sign() == 0 {
			return nil, p.errAt(args[1].pos, "Rational with zero denominator")
		}
		return Rational(xs[0].num, xs[1].num), nil
	case "BooleanTrue", "BooleanFalse", "Infinity", "NegativeInfinity", "IntInfinity", "NegativeIntInfinity", "NaN":
		if err := nargs(0, 0); err != nil {
			return nil, err
		}
		return map[string]func() *Expr{
			"BooleanTrue": func() *Expr { return Bool(true) }, "BooleanFalse": func() *Expr { return Bool(false) },
			"Infinity": Infinity, "NegativeInfinity": NegInfinity, "IntInfinity": IntInfinity,
			"NegativeIntInfinity": NegIntInfinity, "NaN": NaN,
		}[name](), nil
	case "Add":
		return Add(xs...), nil
	case "Mul":
		return Mul(xs...), nil
	case "sqrt":
		if err := nargs(1, 1); err != nil {
			return nil, err
		}
		return Pow(xs[0], Rational(bigOne, bigTwo)), nil
	}
	op, ok := opByName[name]
	if !ok {
		return nil, p.errAt(fn.pos, "unknown function %s", name)
	}
	e, err := New(op, xs...)
	if err != nil {
		return nil, p.errAt(fn.pos, "%v", err)
	}
	return e, nil
}

func (p *parser) symbol(fn token, args []value, kwargs []kwarg) (*Expr, error) {
	if len(args) != 1 || !args[0].isStr {
		return nil, p.errAt(fn.pos, "Symbol needs one name string")
	}
	var as []Assumption
	for _, kw := range kwargs {
		v := kw.v.e
		if kw.v.isStr || v == nil || (v.op != OpTrue && v.op != OpFalse) {
			return nil, p.errAt(kw.v.pos, "assumption %s must be True or False", kw.name)
		}
		val := "True"
		if v.op == OpFalse {
			val = "False"
		}
		as = append(as, Assumption{Name: kw.name, Value: val})
	}
	return Sym(args[0].str, as...), nil
}

func (p *parser) float(fn token, args []value, kwargs []kwarg) (*Expr, error) {
	if len(args) != 1 {
		return nil, p.errAt(fn.pos, "Float needs one value")
	}
	prec := 53
	for _, kw := range kwargs {
		if kw.name != "precision" || kw.v.isStr || kw.v.e.op != OpInteger || !kw.v.e.fits ||
			kw.v.e.small < 1 || kw.v.e.small > maxFloatPrec {
			return nil, p.errAt(kw.v.pos, "Float takes precision=<bits>")
		}
		prec = int(kw.v.e.small)
	}
	a := args[0]
	if !a.isStr {
		if !a.e.op.IsNumber() {
			return nil, p.errAt(a.pos, "Float needs a number")
		}
		if a.e.op == OpInteger || a.e.op == OpRational || a.e.op == OpFloat {
			return floatPrec(roundToPrec(numFloat(a.e), prec), prec), nil
		}
		return a.e, nil
	}
	switch a.str {
	case "inf", "+inf":
		return Infinity(), nil
	case "-inf":
		return NegInfinity(), nil
	case "nan":
		return NaN(), nil
	}
	f, err := strconv.ParseFloat(a.str, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, p.errAt(a.pos, "bad Float value %q", a.str)
	}
	if prec < 53 {
		// A value of lower precision is rounded once, from its digits.
		bf, _, err := big.ParseFloat(a.str, 10, uint(prec), big.ToNearestEven)
		if err != nil {
			return nil, p.errAt(a.pos, "bad Float value %q", a.str)
		}
		f, _ = bf.Float64()
	}
	return floatPrec(f, prec), nil
}

// roundToPrec rounds v to prec bits (mpmath's precision), when below 53.
func roundToPrec(v float64, prec int) float64 {
	if prec >= 53 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	f, _ := new(big.Float).SetPrec(uint(prec)).SetMode(big.ToNearestEven).SetFloat64(v).Float64()
	return f
}

package sym

import (
	"math"
	"sort"
)

// SymPy's ordering, reproduced so that printed expressions match PyTorch's
// output: default_sort_key (Basic/Expr/Symbol/Number.sort_key) orders the
// factors of a Mul and the arguments of Max and Min; as_ordered_terms (a lex
// order on monomials over the sorted generators) orders the terms of an Add.

type classKey struct {
	a, b int
	name string
}

func classKeyOf(e *Expr) classKey {
	switch {
	case e.op.IsNumber():
		return classKey{1, 0, "Number"}
	case e.op == OpSymbol:
		return classKey{2, 0, "Symbol"}
	}
	info := &ops[e.op]
	return classKey{info.classA, info.classB, info.name}
}

func (a classKey) cmp(b classKey) int {
	if c := cmpInt(a.a, b.a); c != 0 {
		return c
	}
	if c := cmpInt(a.b, b.b); c != 0 {
		return c
	}
	return cmpString(a.name, b.name)
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sortKey mirrors the tuple SymPy's sort_key returns:
// (class_key, (first, args), exp_key or () for numbers, coeff).
type sortKey struct {
	cls    classKey
	first  int // 0 for numbers and booleans; 1 for atoms; else the arity
	isAtom bool
	atom   string
	args   []*sortKey
	exp    *sortKey // nil stands for the () of Number.sort_key
	coeff  *Expr    // a number node
}

var oneKey = &sortKey{cls: classKey{1, 0, "Number"}, coeff: Int(1)}

func keyOf(e *Expr) *sortKey {
	switch {
	case e.op.IsNumber():
		return &sortKey{cls: classKeyOf(e), coeff: e}
	case e.op == OpSymbol:
		return &sortKey{cls: classKeyOf(e), first: 1, isAtom: true, atom: e.name, exp: oneKey, coeff: oneKey.coeff}
	case e.op == OpTrue || e.op == OpFalse:
		return &sortKey{cls: classKeyOf(e), exp: oneKey, coeff: oneKey.coeff}
	case e.op.IsRelational() || e.op == OpAnd || e.op == OpOr || e.op == OpNot:
		// Basic.sort_key: no coefficient or power is split off.
		return &sortKey{cls: classKeyOf(e), first: len(e.args), args: keysOf(e.args), exp: oneKey, coeff: oneKey.coeff}
	}
	// Expr.sort_key.
	coeff, rest := asCoeffMul(e)
	exp := Int(1)
	if rest.op == OpPow {
		rest, exp = asBaseExp(rest)
	}
	k := &sortKey{cls: classKeyOf(rest), exp: keyOf(exp), coeff: coeff}
	switch {
	case rest.op.IsAtom():
		k.first, k.isAtom, k.atom = 1, true, rest.String()
	case rest.op == OpMul:
		k.args = keysOf(orderedFactors(rest))
		k.first = len(k.args)
	default:
		k.args = keysOf(rest.args)
		k.first = len(k.args)
	}
	return k
}

func keysOf(es []*Expr) []*sortKey {
	ks := make([]*sortKey, len(es))
	for i, e := range es {
		ks[i] = keyOf(e)
	}
	return ks
}

func (a *sortKey) cmp(b *sortKey) int {
	if c := a.cls.cmp(b.cls); c != 0 {
		return c
	}
	if c := cmpInt(a.first, b.first); c != 0 {
		return c
	}
	if a.isAtom && b.isAtom {
		if c := cmpString(a.atom, b.atom); c != 0 {
			return c
		}
	} else if !a.isAtom && !b.isAtom {
		for i := 0; i < len(a.args) && i < len(b.args); i++ {
			if c := a.args[i].cmp(b.args[i]); c != 0 {
				return c
			}
		}
		if c := cmpInt(len(a.args), len(b.args)); c != 0 {
			return c
		}
	} else if a.isAtom {
		return 1 // unreachable for SymPy's classes; any fixed answer keeps sorting total
	} else {
		return -1
	}
	switch {
	case a.exp == nil && b.exp != nil:
		return -1
	case a.exp != nil && b.exp == nil:
		return 1
	case a.exp != nil:
		if c := a.exp.cmp(b.exp); c != 0 {
			return c
		}
	}
	c, _ := numCmp(a.coeff, b.coeff)
	return c
}

// sortByKey sorts es in place by default_sort_key (stable, as Python's sort).
func sortByKey(es []*Expr) {
	if len(es) < 2 {
		return
	}
	ks := keysOf(es)
	idx := make([]int, len(es))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		if c := ks[idx[i]].cmp(ks[idx[j]]); c != 0 {
			return c < 0
		}
		// SymPy leaves ties (1.5 and 3/2 compare equal) to hash order; any
		// fixed order keeps construction independent of argument order.
		return es[idx[i]].Key() < es[idx[j]].Key()
	})
	out := make([]*Expr, len(es))
	for i, j := range idx {
		out[i] = es[j]
	}
	copy(es, out)
}

// asCoeffMul splits a Mul's leading number off: 2*x*y -> (2, x*y).
func asCoeffMul(e *Expr) (coeff, rest *Expr) {
	if e.op == OpMul && e.args[0].op.IsNumber() {
		if len(e.args) == 2 {
			return e.args[0], e.args[1]
		}
		return e.args[0], rawNode(OpMul, e.args[1:])
	}
	return Int(1), e
}

// asBaseExp is Pow.as_base_exp: (1/2)**x is seen as 2**(-x).
func asBaseExp(e *Expr) (base, exp *Expr) {
	if e.op != OpPow {
		return e, Int(1)
	}
	b, x := e.args[0], e.args[1]
	if b.op == OpRational && b.num.Cmp(bigOne) == 0 {
		return newInteger(b.den), Mul(Int(-1), x)
	}
	return b, x
}

// orderedFactors is Mul.as_ordered_factors: a negative leading number other
// than -1 is split into -1 and its absolute value (srepr shows this split).
func orderedFactors(e *Expr) []*Expr {
	if e.op != OpMul {
		return []*Expr{e}
	}
	c := e.args[0]
	if c.op.IsNumber() && !isInt(c, -1) {
		if s, ok := numSign(c); ok && s < 0 {
			out := []*Expr{Int(-1), numNeg(c)}
			return append(out, e.args[1:]...)
		}
	}
	return e.args
}

// orderTerms puts the terms of an Add in the order SymPy prints them
// (Expr.as_ordered_terms with the default lex order).
func orderTerms(terms []*Expr) []*Expr {
	if len(terms) == 2 {
		// 1 - x prints number first: Add(positive number, Mul(negative number, x)).
		num, other := terms[0], terms[1]
		if !num.op.IsNumber() {
			num, other = other, num
		}
		if num.op.IsNumber() && !other.op.IsNumber() && other.op == OpMul && len(other.args) == 2 {
			ns, _ := numSign(num)
			c := other.args[0]
			if !c.op.IsNumber() {
				c = other.args[1]
			}
			if cs, ok := numSign(c); ok && c.op.IsNumber() && ns > 0 && cs < 0 {
				return []*Expr{num, other}
			}
		}
	}
	type term struct {
		e     *Expr
		coeff float64
		monom map[string]int64
		nc    []*sortKey // non-commutative factors, in order
	}
	ts := make([]term, len(terms))
	gens := map[string]*Expr{}
	for i, t := range terms {
		c, rest := asCoeffMul(t)
		cf := 1.0
		if c.op.IsNumber() {
			cf = numFloat(c)
		}
		ts[i] = term{e: t, monom: map[string]int64{}}
		if t.op.IsNumber() {
			ts[i].coeff = numFloat(t)
			continue
		}
		factors := []*Expr{rest}
		if rest.op == OpMul {
			factors = rest.args
		}
		for _, f := range factors {
			if v, ok := constantFactorValue(f); ok {
				cf *= v
				continue
			}
			if f.nc {
				ts[i].nc = append(ts[i].nc, keyOf(f))
				continue
			}
			base, exp := decomposePower(f)
			k := base.Key()
			gens[k] = base
			ts[i].monom[k] += exp
		}
		ts[i].coeff = cf
	}
	order := make([]*Expr, 0, len(gens))
	for _, g := range gens {
		order = append(order, g)
	}
	sortByKey(order)
	genKeys := make([]string, len(order))
	for i, g := range order {
		genKeys[i] = g.Key()
	}
	sort.SliceStable(ts, func(i, j int) bool {
		for _, g := range genKeys {
			a, b := ts[i].monom[g], ts[j].monom[g]
			if a != b {
				return a > b
			}
		}
		a, b := ts[i].nc, ts[j].nc
		for k := 0; k < len(a) && k < len(b); k++ {
			if c := a[k].cmp(b[k]); c != 0 {
				return c < 0
			}
		}
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		if ts[i].coeff != ts[j].coeff {
			return ts[i].coeff < ts[j].coeff
		}
		return ts[i].e.Key() < ts[j].e.Key()
	})
	out := make([]*Expr, len(ts))
	for i, t := range ts {
		out[i] = t.e
	}
	return out
}

// constantFactorValue: a power of numbers such as sqrt(2) is part of a
// term's coefficient (SymPy's is_number and complex() succeed), not a
// generator. Functions of numbers, even Identity(3), are generators: complex()
// fails on them.
func constantFactorValue(f *Expr) (float64, bool) {
	if f.op == OpPow && f.args[0].op.IsNumber() && f.args[1].op.IsNumber() {
		v := math.Pow(numFloat(f.args[0]), numFloat(f.args[1]))
		return v, !math.IsNaN(v)
	}
	return 0, false
}

// decomposePower is sympy.core.exprtools.decompose_power: x**3 -> (x, 3),
// x**(3/2) -> (sqrt(x), 3), x**(2*y) -> (x**y, 2).
func decomposePower(e *Expr) (*Expr, int64) {
	base, exp := asBaseExp(e)
	switch exp.op {
	case OpInteger:
		if exp.fits {
			return base, exp.small
		}
		return e, 1
	case OpRational:
		if !exp.num.IsInt64() {
			return e, 1
		}
		return Pow(base, Rational(bigOne, exp.den)), exp.num.Int64()
	}
	if exp.op.IsNumber() {
		return e, 1
	}
	c, tail := asCoeffMul(exp)
	switch {
	case isInt(c, -1):
		return Pow(base, tail), -1
	case c.op == OpInteger && c.fits && c.small != 1:
		return Pow(base, tail), c.small
	case c.op == OpRational && c.num.IsInt64():
		return Pow(base, Mul(Rational(bigOne, c.den), tail)), c.num.Int64()
	}
	return e, 1
}

package sym

import "fmt"

// Builders of compound expressions. Add, Mul and Pow evaluate as SymPy's
// constructors do (Add.flatten, Mul.flatten, Pow.__new__), restricted to the
// real, commutative expressions shapes are made of, so that an expression
// read from a file and printed again is printed as PyTorch printed it. They
// never expand products of sums beyond what SymPy does (2*(x + 1) becomes
// 2*x + 2, x*(y + 1) stays); Canonical does.

// rawNode makes a node without evaluation; args must already be final.
func rawNode(op Op, args []*Expr) *Expr {
	return node(op, append([]*Expr(nil), args...))
}

// node makes a node that owns args.
func node(op Op, args []*Expr) *Expr {
	return &Expr{op: op, args: args, nc: noncommutative(op, args)}
}

// alwaysCommutative: torch's functions declared is_integer or is_real (and
// Max, Min, Abs) are commutative whatever their arguments.
var alwaysCommutative = map[Op]bool{
	OpFloorDiv: true, OpCleanDiv: true, OpCeilDiv: true, OpModularIndexing: true, OpPythonMod: true,
	OpMod: true, OpCeilToInt: true, OpFloorToInt: true, OpLShift: true, OpRShift: true,
	OpPowByNatural: true, OpFloatPow: true, OpFloatTrueDiv: true, OpIntTrueDiv: true,
	OpTruncToFloat: true, OpTruncToInt: true, OpRoundToInt: true, OpRoundDecimal: true,
	OpToFloat: true, OpMax: true, OpMin: true, OpAbs: true,
}

// noncommutative mirrors SymPy's is_commutative, which matters for order:
// relations, booleans and Not have is_commutative None, And and Or True, and
// anything else is commutative only when all its arguments are. A Mul keeps
// non-commutative factors (Where(s0 > 4, ...)) after the others, in order,
// and an Add orders terms with such factors after constants.
func noncommutative(op Op, args []*Expr) bool {
	switch {
	case op.IsRelational() || op == OpNot || op == OpTrue || op == OpFalse:
		return true
	case op == OpAnd || op == OpOr || alwaysCommutative[op]:
		return false
	}
	for _, a := range args {
		if a.nc {
			return true
		}
	}
	return false
}

// Add is the sum of args, evaluated as SymPy's Add.
func Add(args ...*Expr) *Expr {
	seq := make([]*Expr, 0, len(args))
	for _, a := range args {
		if !isZero(a) { // Add's identity is dropped before flattening
			seq = append(seq, a)
		}
	}
	switch len(seq) {
	case 0:
		return Int(0)
	case 1:
		return seq[0]
	}
	coeff := Int(0)
	type term struct {
		s *Expr
		c *Expr
	}
	var terms []term
	index := map[string]int{}
	for i := 0; i < len(seq); i++ {
		o := seq[i]
		var c, s *Expr
		switch {
		case o.op.IsNumber():
			coeff = numAdd(coeff, o)
			if coeff.op == OpNaN {
				return coeff
			}
			continue
		case o.op == OpAdd:
			seq = append(seq, o.args...)
			continue
		case o.op == OpMul:
			c, s = asCoeffMul(o)
		default:
			c, s = Int(1), o
		}
		k := s.Key()
		if j, ok := index[k]; ok {
			terms[j].c = numAdd(terms[j].c, c)
		} else {
			index[k] = len(terms)
			terms = append(terms, term{s, c})
		}
	}
	if coeff.op == OpInfinity || coeff.op == OpNegInfinity {
		// oo absorbs every real term.
		return coeff
	}
	out := make([]*Expr, 0, len(terms)+1)
	for _, t := range terms {
		switch {
		case isZero(t.c):
		case isOne(t.c):
			out = append(out, t.s)
		case t.s.op == OpMul:
			out = append(out, rawNode(OpMul, append([]*Expr{t.c}, t.s.args...)))
		default:
			out = append(out, Mul(t.c, t.s))
		}
	}
	if !isZero(coeff) {
		out = append(out, coeff)
	}
	switch len(out) {
	case 0:
		return Int(0)
	case 1:
		return out[0]
	}
	return node(OpAdd, orderTerms(out))
}

// Sub is a - b.
func Sub(a, b *Expr) *Expr { return Add(a, Neg(b)) }

// Neg is -a.
func Neg(a *Expr) *Expr { return Mul(Int(-1), a) }

// Div is a/b as SymPy writes it: a*b**-1 (exact rational arithmetic; use
// IntTrueDiv or FloatTrueDiv for Python's true division).
func Div(a, b *Expr) *Expr { return Mul(a, Pow(b, Int(-1))) }

// Mul is the product of args, evaluated as SymPy's Mul.
func Mul(args ...*Expr) *Expr {
	seq := make([]*Expr, 0, len(args))
	for _, a := range args {
		if !isOne(a) { // Mul's identity is dropped before flattening
			seq = append(seq, a)
		}
	}
	switch len(seq) {
	case 0:
		return Int(1)
	case 1:
		return seq[0]
	case 2:
		// SymPy's two-argument rule: a rational times a sum distributes.
		a, b := seq[0], seq[1]
		if isRationalNum(b) {
			a, b = b, a
		}
		if isRationalNum(a) && !isZero(a) {
			if r, s := asCoeffMul(b); isOne(r) && s.op == OpAdd && !s.nc {
				terms := make([]*Expr, len(s.args))
				for i, t := range s.args {
					terms[i] = Mul(a, t)
				}
				return Add(terms...)
			}
		}
	}
	coeff := Int(1)
	type power struct {
		base *Expr
		exps []*Expr // exponents to add up, by their non-numeric part
	}
	var powers []*power
	var ncPart []*Expr
	index := map[string]int{}
	for i := 0; i < len(seq); i++ {
		o := seq[i]
		switch {
		case o.op.IsNumber():
			coeff = numMul(coeff, o)
			if coeff.op == OpNaN {
				return coeff
			}
			continue
		case o.op == OpMul:
			// Commutative factors join the queue; non-commutative ones keep
			// their place in the product now, as SymPy's flatten does.
			for _, q := range o.args {
				if !q.nc {
					seq = append(seq, q)
					continue
				}
				var c *Expr
				if ncPart, c = pushNoncommutative(ncPart, q); c != nil {
					seq = append(seq, c)
				}
			}
			continue
		case o.nc:
			var c *Expr
			if ncPart, c = pushNoncommutative(ncPart, o); c != nil {
				seq = append(seq, c)
			}
			continue
		}
		b, e := o, Int(1)
		if o.op == OpPow {
			b, e = asBaseExp(o)
		}
		k := b.Key()
		if j, ok := index[k]; ok {
			powers[j].exps = append(powers[j].exps, e)
		} else {
			index[k] = len(powers)
			powers = append(powers, &power{base: b, exps: []*Expr{e}})
		}
	}
	var cpart []*Expr
	for _, p := range powers {
		for _, e := range gatherExponents(p.exps) {
			switch {
			case isZero(e):
			case isOne(e):
				if p.base.op.IsNumber() {
					coeff = numMul(coeff, p.base)
				} else {
					cpart = append(cpart, p.base)
				}
			default:
				cpart = append(cpart, Pow(p.base, e))
			}
		}
	}
	// Numbers produced by the powers join the coefficient.
	rest := cpart[:0]
	for _, f := range cpart {
		switch {
		case f.op.IsNumber():
			coeff = numMul(coeff, f)
		case f.op == OpMul:
			// A power of a product split into a product; fold it in.
			c, s := asCoeffMul(f)
			coeff = numMul(coeff, c)
			if s.op == OpMul {
				rest = append(rest, s.args...)
			} else {
				rest = append(rest, s)
			}
		default:
			rest = append(rest, f)
		}
	}
	cpart = rest
	if coeff.op == OpNaN || isZero(coeff) {
		return coeff
	}
	sortByKey(cpart)
	if !isOne(coeff) {
		cpart = append([]*Expr{coeff}, cpart...)
	}
	if len(ncPart) == 0 && len(cpart) == 2 && cpart[0].op.IsNumber() && !isInfinite(cpart[0]) && cpart[1].op == OpAdd {
		// 2*(1 + a) -> 2 + 2*a
		terms := make([]*Expr, len(cpart[1].args))
		for i, t := range cpart[1].args {
			terms[i] = Mul(cpart[0], t)
		}
		return Add(terms...)
	}
	cpart = append(cpart, ncPart...)
	switch len(cpart) {
	case 0:
		return Int(1)
	case 1:
		return cpart[0]
	}
	return node(OpMul, cpart)
}

// pushNoncommutative appends a non-commutative factor: such factors keep
// their order and equal neighbours combine (w*w -> w**2). A combination that
// turns out commutative is returned for the commutative part instead.
func pushNoncommutative(part []*Expr, o *Expr) ([]*Expr, *Expr) {
	for {
		n := len(part)
		if n == 0 {
			return append(part, o), nil
		}
		b1, e1 := asBaseExp(part[n-1])
		b2, e2 := asBaseExp(o)
		e := Add(e1, e2)
		if !Equal(b1, b2) || e.op == OpAdd {
			return append(part, o), nil
		}
		part = part[:n-1]
		o = Pow(b1, e)
		if !o.nc {
			return part, o
		}
	}
}

// gatherExponents adds exponents that differ only by a numeric factor
// (x**2 * x**3 -> x**5, x**y * x**(2*y) -> x**(3*y)), as Mul._gather does.
func gatherExponents(exps []*Expr) []*Expr {
	if len(exps) == 1 {
		return exps
	}
	type group struct {
		t  *Expr
		cs []*Expr
	}
	var groups []*group
	index := map[string]int{}
	for _, e := range exps {
		var c, t *Expr
		if e.op.IsNumber() {
			c, t = e, Int(1)
		} else {
			c, t = asCoeffMul(e)
		}
		k := t.Key()
		if j, ok := index[k]; ok {
			groups[j].cs = append(groups[j].cs, c)
		} else {
			index[k] = len(groups)
			groups = append(groups, &group{t, []*Expr{c}})
		}
	}
	out := make([]*Expr, len(groups))
	for i, g := range groups {
		out[i] = Mul(Add(g.cs...), g.t)
	}
	return out
}

// Pow is base**exp, evaluated as SymPy's Pow.
func Pow(base, exp *Expr) *Expr {
	switch {
	case isZero(exp):
		return Int(1)
	case isOne(exp):
		return base
	case base.op == OpNaN || exp.op == OpNaN:
		return NaN()
	case isOne(base) && !isInfinite(exp):
		return Int(1)
	}
	if base.op.IsNumber() && exp.op.IsNumber() {
		if v := numPow(base, exp); v != nil {
			return v
		}
		return rawNode(OpPow, []*Expr{base, exp})
	}
	if exp.op == OpInteger {
		switch base.op {
		case OpPow:
			// (x**a)**n = x**(a*n) for integer n.
			return Pow(base.args[0], Mul(base.args[1], exp))
		case OpMul:
			// (2*x*y)**n = 2**n * x**n * y**n for integer n.
			fs := make([]*Expr, len(base.args))
			for i, f := range base.args {
				fs[i] = Pow(f, exp)
			}
			return Mul(fs...)
		}
	}
	return rawNode(OpPow, []*Expr{base, exp})
}

// New builds an application of op, checking its arity: Add, Mul and Pow
// evaluate (and Max or Min of one argument is that argument); every other
// operation keeps its arguments as given, as torch's functions do for
// symbolic arguments. Atoms have their own constructors.
func New(op Op, args ...*Expr) (*Expr, error) {
	if op <= OpInvalid || op >= numOps || op.IsAtom() {
		return nil, fmt.Errorf("sym: New(%v): not an operation", op)
	}
	info := &ops[op]
	if len(args) < info.minArgs || (info.maxArgs != variadic && len(args) > info.maxArgs) {
		return nil, fmt.Errorf("sym: %s takes %s, got %d", info.name, arityText(info), len(args))
	}
	for i, a := range args {
		if a == nil {
			return nil, fmt.Errorf("sym: %s: argument %d is nil", info.name, i)
		}
	}
	switch op {
	case OpAdd:
		return Add(args...), nil
	case OpMul:
		return Mul(args...), nil
	case OpPow:
		return Pow(args[0], args[1]), nil
	case OpMax, OpMin:
		if len(args) == 1 {
			return args[0], nil // SymPy's Max(x) is x
		}
	}
	return rawNode(op, args), nil
}

func arityText(info *opInfo) string {
	switch {
	case info.maxArgs == variadic:
		return fmt.Sprintf("at least %d arguments", info.minArgs)
	case info.minArgs == 1:
		return "1 argument"
	}
	return fmt.Sprintf("%d arguments", info.minArgs)
}

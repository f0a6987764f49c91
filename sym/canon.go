package sym

// maxExpandTerms bounds the expansion of products of sums; beyond it a
// product stays factored (deterministically, so Canonical stays idempotent).
const maxExpandTerms = 256

// Canonical returns the normal form of e, so that expressions with the same
// value in the usual ways compare Equal and share a Key:
//
//   - sums of products: products of sums and integer powers of sums are
//     expanded, like terms collected, constants folded, coefficients integer,
//     rational or float (s0*2 and 2*s0, s0 + s0 and 2*s0 become one form);
//   - other functions are atoms with canonical arguments, folded when all
//     arguments are constants (FloorDiv(7, 2) is 3), with the identities
//     FloorDiv(x, 1) = x, Mod(x, 1) = 0, Where(true, a, b) = a;
//   - Max and Min flattened, constants folded, duplicates dropped, arguments
//     sorted; relations between constants folded; And and Or flattened,
//     deduplicated and sorted; Not pushed into relations.
//
// Arguments are in SymPy's printing order, so String prints canonical forms
// as SymPy would. Canonical is idempotent and preserves values wherever the
// original has one (it may give a value where the original divides by zero
// in a term that cancels, as SymPy does).
func (e *Expr) Canonical() *Expr {
	if e.op.IsAtom() {
		return e
	}
	args := make([]*Expr, len(e.args))
	for i, a := range e.args {
		args[i] = a.Canonical()
	}
	switch e.op {
	case OpAdd:
		return Add(args...)
	case OpMul:
		return expandMul(args)
	case OpPow:
		return expandPow(args[0], args[1])
	case OpMax, OpMin:
		return canonMinMax(e.op, args)
	case OpAnd, OpOr:
		return canonLogic(e.op, args)
	case OpNot:
		return canonNot(args[0])
	}
	if e.op.IsRelational() {
		return canonRelation(e.op, args[0], args[1])
	}
	return canonFunction(e.op, args)
}

// terms lists the summands of e.
func terms(e *Expr) []*Expr {
	if e.op == OpAdd {
		return e.args
	}
	return []*Expr{e}
}

// expandMul multiplies canonical factors, distributing over sums.
func expandMul(factors []*Expr) *Expr {
	n := 1
	for _, f := range factors {
		if f.op == OpAdd && !f.nc {
			n *= len(f.args)
			if n > maxExpandTerms {
				return Mul(factors...)
			}
		}
	}
	if n == 1 {
		return Mul(factors...)
	}
	products := [][]*Expr{nil}
	for _, f := range factors {
		ts := []*Expr{f}
		if f.op == OpAdd && !f.nc {
			ts = f.args
		}
		next := make([][]*Expr, 0, len(products)*len(ts))
		for _, p := range products {
			for _, t := range ts {
				next = append(next, append(append([]*Expr(nil), p...), t))
			}
		}
		products = next
	}
	sum := make([]*Expr, len(products))
	for i, p := range products {
		sum[i] = Mul(p...)
	}
	return Add(sum...)
}

// expandPow expands a sum raised to a small positive integer power.
func expandPow(base, exp *Expr) *Expr {
	p := Pow(base, exp)
	if p.op != OpPow || base.op != OpAdd || base.nc || !exp.fits || exp.op != OpInteger || exp.small < 2 {
		return p
	}
	n := exp.small
	count := 1
	for i := int64(0); i < n; i++ {
		count *= len(base.args)
		if count > maxExpandTerms {
			return p
		}
	}
	acc := base
	for i := int64(1); i < n; i++ {
		acc = expandMul([]*Expr{acc, base})
	}
	return acc
}

// foldConstant evaluates an operation on constants, or returns nil when it
// has no value (division by zero) or the value cannot be written exactly.
func foldConstant(e *Expr) *Expr {
	n, err := evalNum(e, nil)
	if err != nil {
		return nil
	}
	switch n.kind {
	case kBool:
		return Bool(n.b)
	case kFloat:
		return Float(n.f)
	case kRat:
		return ratExpr(n.rat)
	}
	if n.big != nil {
		return newInteger(n.big)
	}
	return Int(n.i)
}

func allConstant(args []*Expr) bool {
	for _, a := range args {
		if !a.op.IsAtom() || a.op == OpSymbol || isIntInf(a) {
			return false
		}
	}
	return true
}

func canonFunction(op Op, args []*Expr) *Expr {
	e := rawNode(op, args)
	if allConstant(args) {
		if v := foldConstant(e); v != nil {
			return v
		}
		return e
	}
	switch op {
	case OpFloorDiv, OpCleanDiv, OpCeilDiv:
		if isOne(args[1]) && intValued(args[0]) {
			return args[0]
		}
	case OpMod, OpPythonMod:
		if isOne(args[1]) && intValued(args[0]) {
			return Int(0)
		}
	case OpWhere:
		if v, ok := args[0].BoolValue(); ok {
			if v {
				return args[1]
			}
			return args[2]
		}
	}
	return e
}

// canonMinMax flattens, folds the constants into one, drops duplicates and
// sorts, as torch's Max and Min do.
func canonMinMax(op Op, args []*Expr) *Expr {
	var flat []*Expr
	for _, a := range args {
		if a.op == op {
			flat = append(flat, a.args...)
		} else {
			flat = append(flat, a)
		}
	}
	var best *Expr
	var rest []*Expr
	seen := map[string]bool{}
	for _, a := range flat {
		if a.op.IsNumber() && a.op != OpNaN {
			if best == nil {
				best = a
				continue
			}
			c, _ := numCmp(a, best)
			if (op == OpMax && c > 0) || (op == OpMin && c < 0) {
				best = a
			}
			continue
		}
		if k := a.Key(); !seen[k] {
			seen[k] = true
			rest = append(rest, a)
		}
	}
	if best != nil {
		// An infinite bound absorbs everything on its side.
		if (op == OpMax && infSign(best) > 0) || (op == OpMin && infSign(best) < 0) {
			return best
		}
		if !((op == OpMax && infSign(best) < 0) || (op == OpMin && infSign(best) > 0)) || len(rest) == 0 {
			rest = append(rest, best)
		}
	}
	if len(rest) == 1 {
		return rest[0]
	}
	sortByKey(rest)
	return node(op, rest)
}

func canonRelation(op Op, l, r *Expr) *Expr {
	if l.op.IsNumber() && r.op.IsNumber() {
		c, ok := numCmp(l, r)
		if !ok {
			return Bool(op == OpNe)
		}
		return Bool(relHolds(op, c))
	}
	if lb, ok := l.BoolValue(); ok {
		if rb, ok := r.BoolValue(); ok && (op == OpEq || op == OpNe) {
			return Bool((lb == rb) == (op == OpEq))
		}
	}
	if Equal(l, r) && floatFree(l) {
		return Bool(op == OpEq || op == OpLe || op == OpGe)
	}
	return node(op, []*Expr{l, r})
}

func relHolds(op Op, c int) bool {
	switch op {
	case OpEq:
		return c == 0
	case OpNe:
		return c != 0
	case OpLt:
		return c < 0
	case OpLe:
		return c <= 0
	case OpGt:
		return c > 0
	}
	return c >= 0
}

// negated relations: Not(a < b) is a >= b (for ints; SymPy does the same).
var negatedRel = map[Op]Op{OpEq: OpNe, OpNe: OpEq, OpLt: OpGe, OpGe: OpLt, OpGt: OpLe, OpLe: OpGt}

func canonNot(x *Expr) *Expr {
	switch {
	case x.op == OpTrue:
		return Bool(false)
	case x.op == OpFalse:
		return Bool(true)
	case x.op == OpNot:
		return x.args[0]
	case x.op.IsRelational() && floatFree(x.args[0]) && floatFree(x.args[1]):
		return canonRelation(negatedRel[x.op], x.args[0], x.args[1])
	}
	return node(OpNot, []*Expr{x})
}

// canonLogic flattens And/Or, applies true/false, drops duplicates, sorts.
func canonLogic(op Op, args []*Expr) *Expr {
	absorb, identity := OpFalse, OpTrue // And
	if op == OpOr {
		absorb, identity = OpTrue, OpFalse
	}
	var flat []*Expr
	for _, a := range args {
		if a.op == op {
			flat = append(flat, a.args...)
		} else {
			flat = append(flat, a)
		}
	}
	var rest []*Expr
	seen := map[string]bool{}
	for _, a := range flat {
		switch {
		case a.op == absorb:
			return Bool(absorb == OpTrue)
		case a.op == identity:
			continue
		}
		if k := a.Key(); !seen[k] {
			seen[k] = true
			rest = append(rest, a)
		}
	}
	switch len(rest) {
	case 0:
		return Bool(identity == OpTrue)
	case 1:
		return rest[0]
	}
	sortByKey(rest)
	return node(op, rest)
}

// intValued reports whether e is an integer whenever it has a value, from
// its structure (Type is what torch declares, which nonsense arguments such
// as PowByNatural(1/2, 1) can contradict).
func intValued(e *Expr) bool {
	switch e.op {
	case OpSymbol:
		return e.symbolType() == TypeInt
	case OpInteger, OpTruncToInt, OpFloorToInt, OpCeilToInt, OpRoundToInt:
		return true
	case OpPow, OpPowByNatural:
		v, ok := e.args[1].Int64()
		return ok && v >= 0 && intValued(e.args[0])
	case OpWhere:
		return intValued(e.args[1]) && intValued(e.args[2])
	case OpAdd, OpMul, OpFloorDiv, OpCleanDiv, OpCeilDiv, OpMod, OpPythonMod, OpModularIndexing,
		OpMax, OpMin, OpAbs, OpIdentity, OpLShift, OpRShift, OpBitwiseAnd, OpBitwiseOr, OpBitwiseXor:
		for _, a := range e.args {
			if !intValued(a) {
				return false
			}
		}
		return true
	}
	return false
}

// floatFree reports whether e computes without floats, so its value is
// never NaN and comparisons on it obey the usual laws.
func floatFree(e *Expr) bool {
	switch e.op {
	case OpSymbol:
		return e.symbolType() == TypeInt
	case OpFloat, OpInfinity, OpNegInfinity, OpNaN, OpToFloat, OpFloatTrueDiv, OpIntTrueDiv,
		OpTruncToFloat, OpRoundDecimal, OpFloatPow, OpSqrt, OpCos, OpCosh, OpSin, OpSinh, OpTan,
		OpTanh, OpAsin, OpAcos, OpAtan, OpExp, OpLog, OpAsinh, OpLog2:
		return false
	case OpPow:
		if e.args[1].op == OpRational {
			return false // an irrational root is a float
		}
	}
	for _, a := range e.args {
		if !floatFree(a) {
			return false
		}
	}
	return true
}

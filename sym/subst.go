package sym

// Subst replaces symbols, by name, with expressions and rebuilds the result
// (Add, Mul and Pow evaluate as SymPy's subs would; other operations keep
// their form). Use Canonical on the result to fold what became constant.
func (e *Expr) Subst(m map[string]*Expr) *Expr {
	if len(m) == 0 {
		return e
	}
	return e.subst(m)
}

func (e *Expr) subst(m map[string]*Expr) *Expr {
	if e.op == OpSymbol {
		if r, ok := m[e.name]; ok && r != nil {
			return r
		}
		return e
	}
	if e.op.IsAtom() {
		return e
	}
	changed := false
	args := make([]*Expr, len(e.args))
	for i, a := range e.args {
		args[i] = a.subst(m)
		changed = changed || args[i] != a
	}
	if !changed {
		return e
	}
	switch e.op {
	case OpAdd:
		return Add(args...)
	case OpMul:
		return Mul(args...)
	case OpPow:
		return Pow(args[0], args[1])
	}
	return node(e.op, args)
}

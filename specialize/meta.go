package specialize

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
)

// meta rewrites g's value tables for the binding: sizes, strides and
// offsets whose symbols are bound become numbers (or smaller expressions),
// and the symbolic scalars that become constant are returned by name.
func (s *specializer) meta(path string, g *ir.Graph) (map[string]sym.Value, error) {
	for _, name := range ir.SortedKeys(g.TensorValues) {
		m := g.TensorValues[name]
		if m == nil {
			continue
		}
		where := ir.PathName(path, name)
		for d := range m.Sizes {
			v, err := s.symInt(m.Sizes[d], where, "dim", d)
			if err != nil {
				return nil, err
			}
			if v.IsStatic() && v.Int < 0 {
				return nil, &Error{Node: where, Msg: fmt.Sprintf("the binding %s makes %s dim %d (%s) %d, a negative size",
					String(s.bind), where, d, m.Sizes[d].Expr.Expr, v.Int)}
			}
			m.Sizes[d] = v
		}
		for d := range m.Strides {
			v, err := s.symInt(m.Strides[d], where, "stride", d)
			if err != nil {
				return nil, err
			}
			m.Strides[d] = v
		}
		v, err := s.symInt(m.StorageOffset, where, "storage offset", -1)
		if err != nil {
			return nil, err
		}
		m.StorageOffset = v
	}
	consts := map[string]sym.Value{}
	for _, name := range ir.SortedKeys(g.SymIntValues) {
		si := g.SymIntValues[name]
		if si.Expr == nil {
			consts[name] = sym.IntValue(si.Int)
			continue
		}
		v, err := s.symInt(si, ir.PathName(path, name), "", -1)
		if err != nil {
			return nil, err
		}
		g.SymIntValues[name] = v
		if v.IsStatic() {
			consts[name] = sym.IntValue(v.Int)
		}
	}
	for _, name := range ir.SortedKeys(g.SymBoolValues) {
		sb := g.SymBoolValues[name]
		if sb.Expr == nil {
			consts[name] = sym.BoolValue(sb.Bool)
			continue
		}
		e, v, constant, err := s.eval(sb.Expr, ir.PathName(path, name))
		switch {
		case err != nil:
			return nil, err
		case !constant:
			g.SymBoolValues[name] = ir.SymBool{Expr: e}
		case v.Type() != sym.TypeBool:
			return nil, s.notA(ir.PathName(path, name), sb.Expr, v, "a bool")
		default:
			g.SymBoolValues[name] = ir.SymBool{Bool: v.Bool()}
			consts[name] = v
		}
	}
	for _, name := range ir.SortedKeys(g.SymFloatValues) {
		sf := g.SymFloatValues[name]
		if sf.Expr == nil {
			consts[name] = sym.FloatValue(sf.Float)
			continue
		}
		e, v, constant, err := s.eval(sf.Expr, ir.PathName(path, name))
		switch {
		case err != nil:
			return nil, err
		case !constant:
			g.SymFloatValues[name] = ir.SymFloat{Expr: e}
		case v.Type() == sym.TypeBool:
			return nil, s.notA(ir.PathName(path, name), sf.Expr, v, "a float")
		default:
			g.SymFloatValues[name] = ir.SymFloat{Float: v.Float()}
			consts[name] = sym.FloatValue(v.Float())
		}
	}
	return consts, nil
}

// symInt specializes one SymInt of value node (its dim d, its stride d,
// its storage offset, or the value itself when part is ""): a number when
// its symbols are all bound, the expression with the bound ones
// substituted otherwise.
func (s *specializer) symInt(si ir.SymInt, node, part string, d int) (ir.SymInt, error) {
	if si.Expr == nil {
		return si, nil
	}
	e, v, constant, err := s.eval(si.Expr, node)
	switch {
	case err != nil:
		return si, err
	case !constant:
		return ir.SymInt{Expr: e}, nil
	case v.Type() != sym.TypeInt:
		what := node
		if d >= 0 {
			what = fmt.Sprintf("%s %s %d", node, part, d)
		} else if part != "" {
			what = node + " " + part
		}
		return si, s.notA(what, si.Expr, v, "an integer")
	}
	return ir.IntSym(v.Int()), nil
}

// eval evaluates an expression under the binding. Unless every symbol is
// bound (constant), it returns the expression to keep: the original when
// none of its symbols is bound, the substituted one otherwise.
func (s *specializer) eval(se *ir.SymExpr, node string) (kept *ir.SymExpr, v sym.Value, constant bool, err error) {
	// Most sizes of a program share a few expressions (s53, 12*s53).
	if r, ok := s.evals[se.Expr]; ok {
		if r.kept == nil && !r.constant {
			return se, r.v, false, nil
		}
		return r.kept, r.v, r.constant, nil
	}
	kept, v, constant, err = s.evalUncached(se, node)
	if err == nil {
		r := evalResult{v: v, constant: constant}
		if kept != se {
			r.kept = kept
		}
		s.evals[se.Expr] = r
	}
	return kept, v, constant, err
}

// evalResult is a cached eval: kept is nil when the expression stays as it is.
type evalResult struct {
	kept     *ir.SymExpr
	v        sym.Value
	constant bool
}

func (s *specializer) evalUncached(se *ir.SymExpr, node string) (kept *ir.SymExpr, v sym.Value, constant bool, err error) {
	e, err := s.parse(se.Expr)
	if err != nil {
		return nil, v, false, fmt.Errorf("value %s: expression %q does not parse: %w", node, se.Expr, err)
	}
	bound, free := 0, 0
	for _, name := range e.Symbols() {
		if _, ok := s.bind[name]; ok {
			bound++
		} else {
			free++
		}
	}
	if free > 0 && bound == 0 {
		return se, v, false, nil
	}
	if free > 0 {
		e = e.Subst(s.subst).Canonical()
		if !e.IsConstant() {
			return &ir.SymExpr{Expr: e.Srepr()}, v, false, nil
		}
	}
	v, err = e.Eval(s.bind)
	if err != nil {
		return nil, v, false, &Error{Node: node, Msg: fmt.Sprintf("the binding %s leaves %s (%s) without a value: %v", String(s.bind), node, se.Expr, err)}
	}
	return nil, v, true, nil
}

func (s *specializer) notA(what string, se *ir.SymExpr, v sym.Value, want string) error {
	return &Error{Node: what, Msg: fmt.Sprintf("the binding %s makes %s (%s) %s, not %s", String(s.bind), what, se.Expr, v, want)}
}

// foldArg replaces references to constant values with their literals, as
// export writes the numbers of a static program: a SymInt argument becomes
// an int, a list of SymInts that are all known an int list. References in
// other forms stay (their producers are then kept).
func foldArg(a *ir.Argument, consts map[string]sym.Value) {
	switch a.Kind {
	case ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool:
		if v, ok := consts[a.Name]; ok && a.Name != "" {
			if lit, ok := literal(a.Kind, v); ok {
				*a = scalarArg(lit)
			}
		}
	case ir.ArgSymInts, ir.ArgSymFloats, ir.ArgSymBools:
		all := true
		for i := range a.List {
			el := &a.List[i]
			if v, ok := consts[el.Name]; ok && el.Name != "" {
				if lit, ok := literal(el.Kind, v); ok {
					*el = lit
				}
			}
			all = all && el.Name == ""
		}
		if all {
			*a = literalList(a)
		}
	case ir.ArgStringToArgument:
		for k, v := range a.Map() {
			foldArg(&v, consts)
			a.Map()[k] = v
		}
	}
}

// literal is v as a literal element of kind k (a SymInt holding an int),
// when v has k's type.
func literal(k ir.ArgKind, v sym.Value) (ir.Argument, bool) {
	switch {
	case k == ir.ArgSymInt && v.Type() == sym.TypeInt:
		return ir.Argument{Kind: k, Int: v.Int()}, true
	case k == ir.ArgSymFloat && v.Type() != sym.TypeBool:
		return ir.Argument{Kind: k, Float: v.Float()}, true
	case k == ir.ArgSymBool && v.Type() == sym.TypeBool:
		return ir.Argument{Kind: k, Bool: v.Bool()}, true
	}
	return ir.Argument{}, false
}

// scalarArg turns a literal SymInt, SymFloat or SymBool into the plain
// int, float or bool export writes for a known number.
func scalarArg(a ir.Argument) ir.Argument {
	switch a.Kind {
	case ir.ArgSymInt:
		return ir.IntArg(a.Int)
	case ir.ArgSymFloat:
		return ir.FloatArg(a.Float)
	case ir.ArgSymBool:
		return ir.BoolArg(a.Bool)
	}
	return a
}

// literalList turns a list of literal symbolic scalars into the plain list.
func literalList(a *ir.Argument) ir.Argument {
	switch a.Kind {
	case ir.ArgSymInts:
		ints := make([]int64, len(a.List))
		for i, el := range a.List {
			ints[i] = el.Int
		}
		return ir.IntsArg(ints)
	case ir.ArgSymFloats:
		fs := make([]float64, len(a.List))
		for i, el := range a.List {
			fs[i] = el.Float
		}
		return ir.FloatsArg(fs)
	}
	bs := make([]bool, len(a.List))
	for i, el := range a.List {
		bs[i] = el.Bool
	}
	return ir.BoolsArg(bs)
}

package sym

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
)

// Binder binds a program's symbols to the sizes of the tensors (and the
// symbolic ints) it is given, checking that every source agrees and that
// every value is inside its symbol's range. It knows nothing of tensors or
// graphs: callers describe each source in words ("input attention_mask
// dim 1"), which the errors quote.
//
// A Binder is not safe for concurrent use.
type Binder struct {
	ranges   map[string]Range
	values   map[string]int64
	from     map[string]string // where each symbol got its value
	deferred []pending
}

type pending struct {
	expr  *Expr
	value int64
	where string
}

// NewBinder starts binding symbols with the given ranges (a program's
// range_constraints). Symbols without a range are unbounded.
func NewBinder(ranges map[string]Range) *Binder {
	rs := make(map[string]Range, len(ranges))
	for k, v := range ranges {
		rs[k] = v
	}
	return &Binder{ranges: rs, values: map[string]int64{}, from: map[string]string{}}
}

// Value returns a symbol's bound value.
func (b *Binder) Value(name string) (int64, bool) {
	v, ok := b.values[name]
	return v, ok
}

// Bind records that size has the value actual at where. A bare unbound
// symbol is bound; a bound one is checked. Any other expression is solved
// when it is linear with integer coefficients in one unbound symbol (2*s0,
// s0 + 1) and checked when it has no unbound symbol; otherwise it waits for
// Finish, which checks it as a unit if nothing determines it. The error
// names both sources of a conflict.
func (b *Binder) Bind(size *Expr, actual int64, where string) error {
	if size.op == OpSymbol {
		return b.bindSymbol(size.name, actual, where)
	}
	done, err := b.try(pending{size, actual, where})
	if err != nil || done {
		return err
	}
	b.deferred = append(b.deferred, pending{size, actual, where})
	return nil
}

func (b *Binder) bindSymbol(name string, actual int64, where string) error {
	if old, ok := b.values[name]; ok {
		if old != actual {
			return fmt.Errorf("%s: %s is %d but %s is %d", name, where, actual, b.from[name], old)
		}
		return nil
	}
	b.values[name] = actual
	b.from[name] = where
	return nil
}

// try checks or solves one constraint; done is false when it must wait.
func (b *Binder) try(p pending) (done bool, err error) {
	subst := map[string]*Expr{}
	var unbound []string
	for _, s := range p.expr.Symbols() {
		if v, ok := b.values[s]; ok {
			subst[s] = Int(v)
		} else {
			unbound = append(unbound, s)
		}
	}
	e := p.expr.Subst(subst).Canonical()
	switch len(unbound) {
	case 0:
		v, err := e.Eval(nil)
		if err != nil {
			return true, fmt.Errorf("%s: %s: %w", p.expr, p.where, err)
		}
		if p.expr.IsConstant() && (v.Type() != TypeInt || v.Int() != p.value) {
			return true, fmt.Errorf("%s is %d but the program requires %s", p.where, p.value, v)
		}
		if v.Type() != TypeInt || v.Int() != p.value {
			return true, fmt.Errorf("%s: %s is %d but %s = %s%s", p.expr, p.where, p.value, p.expr, v, b.sources(p.expr))
		}
		return true, nil
	case 1:
		a, c, ok := linearIn(e, unbound[0])
		if !ok {
			return false, nil
		}
		// a*s + c = value: s = (value - c) / a when that is an integer.
		rhs := new(big.Int).Sub(big.NewInt(p.value), c)
		q, m := new(big.Int).QuoRem(rhs, a, new(big.Int))
		if m.Sign() != 0 || !q.IsInt64() {
			return true, fmt.Errorf("%s: %s is %d, which no integer %s satisfies%s", p.expr, p.where, p.value, unbound[0], b.sources(p.expr))
		}
		return true, b.bindSymbol(unbound[0], q.Int64(), fmt.Sprintf("%s (%s = %d)", p.where, p.expr, p.value))
	}
	return false, nil
}

// sources lists where the bound symbols of e got their values.
func (b *Binder) sources(e *Expr) string {
	s := ""
	for _, name := range e.Symbols() {
		if v, ok := b.values[name]; ok {
			if s == "" {
				s = " ("
			} else {
				s += ", "
			}
			s += fmt.Sprintf("%s = %d from %s", name, v, b.from[name])
		}
	}
	if s != "" {
		s += ")"
	}
	return s
}

// linearIn matches a canonical e against a*s + c with integer a != 0, c.
func linearIn(e *Expr, s string) (a, c *big.Int, ok bool) {
	a, c = new(big.Int), new(big.Int)
	for _, t := range terms(e) {
		switch {
		case t.op == OpInteger:
			c.Add(c, t.num)
		case t.op == OpSymbol && t.name == s:
			a.Add(a, bigOne)
		case t.op == OpMul && len(t.args) == 2 && t.args[0].op == OpInteger &&
			t.args[1].op == OpSymbol && t.args[1].name == s:
			a.Add(a, t.args[0].num)
		default:
			return nil, nil, false
		}
	}
	return a, c, a.Sign() != 0
}

// Finish settles the constraints that had to wait, checks every bound value
// against its symbol's range, and returns the bindings. Errors name the
// symbol, its value, its range and where the value came from:
// "s53 = 500 outside [2, 200] (input attention_mask dim 1)".
//
// A size that the others do not determine (s0*s1 when neither s0 nor s1 is
// bound elsewhere, (s0//2) without s0) is not an error: the program is
// given the size, not its symbols, and needs no more. It is checked as a
// unit instead: every size with that expression must agree, and its value
// must lie in the expression's range over its symbols' ranges.
func (b *Binder) Finish() (Bindings, error) {
	var errs []error
	for progress := true; progress; {
		progress = false
		rest := b.deferred[:0]
		for _, p := range b.deferred {
			done, err := b.try(p)
			switch {
			case err != nil:
				errs = append(errs, err)
				progress = true
			case done:
				progress = true
			default:
				rest = append(rest, p)
			}
		}
		b.deferred = rest
	}
	errs = append(errs, b.checkUnits()...)
	b.deferred = nil
	names := make([]string, 0, len(b.values))
	for n := range b.values {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		r, ok := b.ranges[n]
		if !ok {
			continue
		}
		if v := b.values[n]; !r.Contains(IntValue(v)) {
			errs = append(errs, fmt.Errorf("%s = %d outside %s (%s)", n, v, r, b.from[n]))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	out := make(Bindings, len(b.values))
	for k, v := range b.values {
		out[k] = v
	}
	return out, nil
}

// checkUnits checks the sizes no binding determines: the same expression
// (once the bound symbols are substituted) has one value, inside its range.
func (b *Binder) checkUnits() []error {
	var errs []error
	type unit struct {
		value int64
		where string
	}
	seen := map[string]unit{}
	for _, p := range b.deferred {
		subst := map[string]*Expr{}
		for _, s := range p.expr.Symbols() {
			if v, ok := b.values[s]; ok {
				subst[s] = Int(v)
			}
		}
		e := p.expr.Subst(subst).Canonical()
		k := e.Key()
		if u, ok := seen[k]; ok {
			if u.value != p.value {
				errs = append(errs, fmt.Errorf("%s: %s is %d but %s is %d", p.expr, p.where, p.value, u.where, u.value))
			}
			continue
		}
		seen[k] = unit{p.value, p.where}
		if r := e.Range(b.ranges); !r.Contains(IntValue(p.value)) {
			errs = append(errs, fmt.Errorf("%s: %s is %d, outside the range %s its symbols' ranges give it%s", p.expr, p.where, p.value, r, b.sources(p.expr)))
		}
	}
	return errs
}

package sym

import (
	"fmt"
	"strings"
)

// Knowledge is what a list of given sizes (the dims of the tensors a
// program receives, the SymInts it is given) tells about their symbols, and
// how to compute other expressions from them: the static counterpart of
// Binder. A symbol is determined when some size is it, or is linear in it
// once the symbols determined before are known (2*s0, s1 - 1, s0*s1 with
// s1 determined); the other sizes are units, known only as wholes (s0*s1
// when neither s0 nor s1 is determined).
type Knowledge struct {
	sizes  []*Expr
	ranges map[string]Range
	unit   map[string]int // canonical key -> first size with it
	solved map[string]solution
	order  []string // determined symbols, in the order they were solved
	memo   map[string]*Derivation
}

// solution: the symbol is (sizes[size] - rest) / coeff.
type solution struct {
	size        int
	coeff, rest *Expr
}

// Know analyses the given sizes; ranges are the symbols' ranges (a linear
// coefficient whose range holds zero does not determine anything).
func Know(sizes []*Expr, ranges map[string]Range) *Knowledge {
	k := &Knowledge{ranges: ranges, unit: map[string]int{}, solved: map[string]solution{}, memo: map[string]*Derivation{}}
	for i, s := range sizes {
		c := s.Canonical()
		k.sizes = append(k.sizes, c)
		if _, ok := k.unit[c.Key()]; !ok {
			k.unit[c.Key()] = i
		}
	}
	for progress := true; progress; {
		progress = false
		for i, s := range k.sizes {
			var unbound []string
			for _, name := range s.Symbols() {
				if _, ok := k.solved[name]; !ok {
					unbound = append(unbound, name)
				}
			}
			if len(unbound) != 1 {
				continue
			}
			if coeff, rest, ok := k.linear(s, unbound[0]); ok {
				k.solved[unbound[0]] = solution{i, coeff, rest}
				k.order = append(k.order, unbound[0])
				progress = true
			}
		}
	}
	return k
}

// linear splits a canonical e as coeff*s + rest, where coeff and rest use
// determined symbols only and coeff cannot be zero.
func (k *Knowledge) linear(e *Expr, s string) (coeff, rest *Expr, ok bool) {
	var coeffs, others []*Expr
	for _, t := range terms(e) {
		if !hasSymbol(t, s) {
			others = append(others, t)
			continue
		}
		if t.op == OpSymbol {
			coeffs = append(coeffs, Int(1))
			continue
		}
		if t.op != OpMul {
			return nil, nil, false
		}
		var rest []*Expr
		found := 0
		for _, f := range t.args {
			switch {
			case f.op == OpSymbol && f.name == s:
				found++
			case hasSymbol(f, s):
				return nil, nil, false
			default:
				rest = append(rest, f)
			}
		}
		if found != 1 {
			return nil, nil, false
		}
		coeffs = append(coeffs, Mul(rest...))
	}
	coeff = Add(coeffs...).Canonical()
	if coeff.Range(k.ranges).Contains(IntValue(0)) {
		return nil, nil, false
	}
	return coeff, Add(others...).Canonical(), true
}

func hasSymbol(e *Expr, s string) bool {
	if e.op == OpSymbol {
		return e.name == s
	}
	for _, a := range e.args {
		if hasSymbol(a, s) {
			return true
		}
	}
	return false
}

// Determined reports whether the sizes determine symbol s.
func (k *Knowledge) Determined(s string) bool {
	_, ok := k.solved[s]
	return ok
}

// Symbols lists the determined symbols, in the order they were solved.
func (k *Knowledge) Symbols() []string { return append([]string(nil), k.order...) }

// Units lists the indices of the sizes that are not determined: sizes the
// program knows only as wholes.
func (k *Knowledge) Units() []int {
	var out []int
	for i, s := range k.sizes {
		for _, name := range s.Symbols() {
			if !k.Determined(name) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// Derivation says how to compute an expression from the given sizes: it
// is one of them (Size >= 0), a number (Op is an atom), or an operation on
// other derivations.
type Derivation struct {
	// Expr is the value computed, in canonical form.
	Expr *Expr
	// Size is the index of the given size that is the value, or -1.
	Size int
	// Op and Args: the value is Op applied to Args (an n-ary Add or Mul
	// folds left).
	Op   Op
	Args []*Derivation
}

// IsNumber reports whether the derivation is a literal number or bool.
func (d *Derivation) IsNumber() bool { return d.Size < 0 && len(d.Args) == 0 }

// UndeterminedError says that a symbol an expression needs on its own is
// not determined by the sizes given.
type UndeterminedError struct {
	Symbol string
	Expr   *Expr
}

func (e *UndeterminedError) Error() string {
	return fmt.Sprintf("%s needs %s, which the sizes given do not determine", e.Expr, e.Symbol)
}

// Plan derives e from the given sizes: as one of them, from the symbols
// they determine, or from sizes known as wholes (2*s0*s1 from s0*s1).
func (k *Knowledge) Plan(e *Expr) (*Derivation, error) {
	return k.plan(e.Canonical())
}

func (k *Knowledge) plan(e *Expr) (*Derivation, error) {
	key := e.Key()
	if d, ok := k.memo[key]; ok {
		return d, nil
	}
	d, err := k.planUncached(e)
	if err == nil {
		k.memo[key] = d
	}
	return d, err
}

func (k *Knowledge) planUncached(e *Expr) (*Derivation, error) {
	if i, ok := k.unit[e.Key()]; ok {
		return &Derivation{Expr: e, Size: i}, nil
	}
	if e.op.IsAtom() && e.op != OpSymbol {
		return &Derivation{Expr: e, Size: -1, Op: e.op}, nil
	}
	if e.op == OpSymbol {
		sol, ok := k.solved[e.name]
		if !ok {
			return nil, &UndeterminedError{Symbol: e.name, Expr: e}
		}
		return k.solve(e, sol)
	}
	if e.op == OpAdd || e.op == OpMul {
		if d, ok := k.partial(e); ok {
			return d, nil
		}
	}
	d := &Derivation{Expr: e, Size: -1, Op: e.op}
	for _, a := range e.args {
		ad, err := k.plan(a)
		if err != nil {
			if u, ok := err.(*UndeterminedError); ok {
				return nil, &UndeterminedError{Symbol: u.Symbol, Expr: e}
			}
			return nil, err
		}
		d.Args = append(d.Args, ad)
	}
	return d, nil
}

// solve computes a determined symbol: (size - rest) // coeff.
func (k *Knowledge) solve(s *Expr, sol solution) (*Derivation, error) {
	d := &Derivation{Expr: k.sizes[sol.size], Size: sol.size}
	if !isZero(sol.rest) {
		neg, err := k.plan(Neg(sol.rest).Canonical())
		if err != nil {
			return nil, err
		}
		d = &Derivation{Expr: Mul(sol.coeff, s).Canonical(), Size: -1, Op: OpAdd, Args: []*Derivation{d, neg}}
	}
	if !isOne(sol.coeff) {
		c, err := k.plan(sol.coeff)
		if err != nil {
			return nil, err
		}
		d = &Derivation{Expr: s, Size: -1, Op: OpFloorDiv, Args: []*Derivation{d, c}}
	}
	if d.Size >= 0 {
		// The size is the symbol itself.
		d = &Derivation{Expr: s, Size: sol.size}
	}
	return d, nil
}

// partial derives a sum or product part of which is a size known as a
// whole: 2*s0*s1 from s0*s1, s0*s1 + 1 from s0*s1.
func (k *Knowledge) partial(e *Expr) (*Derivation, bool) {
	var best []int
	bestLen := 0
	bestSize := -1
	for _, i := range k.Units() {
		u := k.sizes[i]
		if u.op != e.op {
			continue
		}
		pos, ok := subMultiset(u.args, e.args)
		if ok && len(u.args) > bestLen && len(u.args) < len(e.args) {
			best, bestLen, bestSize = pos, len(u.args), i
		}
	}
	if bestSize < 0 {
		return nil, false
	}
	used := map[int]bool{}
	for _, p := range best {
		used[p] = true
	}
	var rest []*Expr
	for j, a := range e.args {
		if !used[j] {
			rest = append(rest, a)
		}
	}
	var restExpr *Expr
	if e.op == OpAdd {
		restExpr = Add(rest...)
	} else {
		restExpr = Mul(rest...)
	}
	rd, err := k.plan(restExpr.Canonical())
	if err != nil {
		return nil, false
	}
	return &Derivation{Expr: e, Size: -1, Op: e.op, Args: []*Derivation{{Expr: k.sizes[bestSize], Size: bestSize}, rd}}, true
}

// subMultiset finds each of sub among of (by Key, each used once) and
// returns their positions.
func subMultiset(sub, of []*Expr) ([]int, bool) {
	used := make([]bool, len(of))
	var pos []int
	for _, s := range sub {
		found := false
		for j, o := range of {
			if !used[j] && o.Key() == s.Key() {
				used[j], found = true, true
				pos = append(pos, j)
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return pos, true
}

// String prints a derivation for tests and errors: #i for given size i.
func (d *Derivation) String() string {
	if d.Size >= 0 {
		return fmt.Sprintf("#%d", d.Size)
	}
	if d.IsNumber() {
		return d.Expr.String()
	}
	args := make([]string, len(d.Args))
	for i, a := range d.Args {
		args[i] = a.String()
	}
	return fmt.Sprintf("%s(%s)", d.Op, strings.Join(args, ", "))
}

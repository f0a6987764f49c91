package sym

import (
	"fmt"
	"strings"
)

// Knowledge is what a list of given sizes (the dims of the tensors a
// program receives, the SymInts it is given) tells about their symbols, and
// how to compute other expressions from them: the static counterpart of
// Binder. A symbol is determined when some size is it, or is linear in it
// once what was determined before is known (2*s0, s1 - 1, s0*s1 with s1
// determined); so is a function of undetermined symbols that a size is
// linear in (F = ((s1 + 1)//2) from 2*F - 1). The other sizes are known
// only as wholes (s0*s1 when neither s0 nor s1 is determined).
type Knowledge struct {
	sizes  []*Expr
	ranges map[string]Range
	unit   map[string]int // canonical key -> first size with it
	// solved holds, by key, the atoms (symbols, or functions such as
	// FloorDiv of undetermined symbols) the sizes determine.
	solved map[string]solution
	order  []string // determined symbols, in the order they were solved
	memo   map[string]*Derivation
	busy   map[string]bool // expressions being planned, against cycles
	// relDepth > 0 while relative plans a difference or ratio: those are
	// derived without it again, which keeps planning finite.
	relDepth int
}

// solution: the atom is (sizes[size] - rest) / coeff.
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
			open := k.openAtoms(s)
			if len(open) != 1 {
				continue
			}
			if coeff, rest, ok := k.linear(s, open[0]); ok {
				k.solved[open[0].Key()] = solution{i, coeff, rest}
				if open[0].op == OpSymbol {
					k.order = append(k.order, open[0].name)
				}
				progress = true
			}
		}
	}
	return k
}

// openAtoms lists, once each, the atoms of e not yet determined: its
// undetermined symbols, and the functions (FloorDiv, Mod, Max, ...) of
// undetermined symbols it has as terms or factors.
func (k *Knowledge) openAtoms(e *Expr) []*Expr {
	var out []*Expr
	seen := map[string]bool{}
	var walk func(e *Expr)
	walk = func(e *Expr) {
		switch {
		case e.op.IsAtom() && e.op != OpSymbol:
			return
		case e.op == OpAdd || e.op == OpMul || e.op == OpPow:
			for _, a := range e.args {
				walk(a)
			}
			return
		}
		if _, ok := k.solved[e.Key()]; ok || k.known(e) {
			return
		}
		if !seen[e.Key()] {
			seen[e.Key()] = true
			out = append(out, e)
		}
	}
	walk(e)
	return out
}

// known: every symbol of e is determined (e is then computed from them).
func (k *Knowledge) known(e *Expr) bool {
	for _, s := range e.Symbols() {
		if !k.Determined(s) {
			return false
		}
	}
	return true
}

// linear splits a canonical e as coeff*a + rest for the atom a, where coeff
// and rest are known and coeff cannot be zero.
func (k *Knowledge) linear(e, a *Expr) (coeff, rest *Expr, ok bool) {
	key := a.Key()
	var coeffs, others []*Expr
	for _, t := range terms(e) {
		if !hasSub(t, key) {
			others = append(others, t)
			continue
		}
		if t.Key() == key {
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
			case f.Key() == key:
				found++
			case hasSub(f, key):
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

// hasSub reports whether e has the subexpression with this key.
func hasSub(e *Expr, key string) bool {
	if e.Key() == key {
		return true
	}
	for _, a := range e.args {
		if hasSub(a, key) {
			return true
		}
	}
	return false
}

// Determined reports whether the sizes determine symbol s.
func (k *Knowledge) Determined(s string) bool {
	_, ok := k.solved[PyRepr(s)]
	return ok
}

// Symbols lists the determined symbols, in the order they were solved.
func (k *Knowledge) Symbols() []string { return append([]string(nil), k.order...) }

// Units lists the indices of the sizes with symbols not determined: sizes
// the program knows only as wholes.
func (k *Knowledge) Units() []int {
	var out []int
	for i, s := range k.sizes {
		if !k.known(s) {
			out = append(out, i)
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
	if k.busy[key] {
		// Deriving e needs e itself (through sizes known as wholes).
		return nil, &UndeterminedError{Symbol: firstOf(e.Symbols()), Expr: e}
	}
	if k.busy == nil {
		k.busy = map[string]bool{}
	}
	k.busy[key] = true
	d, err := k.planUncached(e)
	delete(k.busy, key)
	if err == nil {
		k.memo[key] = d
	}
	return d, err
}

func firstOf(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

func (k *Knowledge) planUncached(e *Expr) (*Derivation, error) {
	if i, ok := k.unit[e.Key()]; ok {
		return &Derivation{Expr: e, Size: i}, nil
	}
	if e.op.IsAtom() && e.op != OpSymbol {
		return &Derivation{Expr: e, Size: -1, Op: e.op}, nil
	}
	if sol, ok := k.solved[e.Key()]; ok {
		return k.solve(e, sol)
	}
	if e.op == OpSymbol {
		return nil, &UndeterminedError{Symbol: e.name, Expr: e}
	}
	d := &Derivation{Expr: e, Size: -1, Op: e.op}
	for _, a := range e.args {
		ad, err := k.plan(a)
		if err != nil {
			if k.relDepth == 0 {
				if d, ok := k.relative(e); ok {
					return d, nil
				}
			}
			if u, ok := err.(*UndeterminedError); ok {
				return nil, &UndeterminedError{Symbol: u.Symbol, Expr: e}
			}
			return nil, err
		}
		d.Args = append(d.Args, ad)
	}
	return d, nil
}

// solve computes a determined atom: (size - rest) // coeff.
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
		// The size is the atom itself.
		d = &Derivation{Expr: s, Size: sol.size}
	}
	return d, nil
}

// relative derives e from a size known as a whole that it differs from by
// something derivable: a sum (s0*s1 + 1, or (s0//2) from (s0//2) - 1), or
// a factor (2*s0*s1 from s0*s1, 2*x from 4*x by an exact division).
func (k *Knowledge) relative(e *Expr) (*Derivation, bool) {
	k.relDepth++
	defer func() { k.relDepth-- }()
	for _, i := range k.Units() {
		u := &Derivation{Expr: k.sizes[i], Size: i}
		ratio := Mul(e, Pow(k.sizes[i], Int(-1))).Canonical()
		if ratio.op == OpRational && ratio.num.IsInt64() && ratio.num.Int64() == 1 {
			n := &Derivation{Expr: BigInt(ratio.den), Size: -1, Op: OpInteger}
			return &Derivation{Expr: e, Size: -1, Op: OpFloorDiv, Args: []*Derivation{u, n}}, true
		}
		if polynomial(ratio) {
			if rd, err := k.plan(ratio); err == nil {
				return &Derivation{Expr: e, Size: -1, Op: OpMul, Args: []*Derivation{u, rd}}, true
			}
		}
		if diff := Add(e, Neg(k.sizes[i])).Canonical(); polynomial(diff) {
			if dd, err := k.plan(diff); err == nil {
				return &Derivation{Expr: e, Size: -1, Op: OpAdd, Args: []*Derivation{u, dd}}, true
			}
		}
	}
	return nil, false
}

// polynomial: no division and no rational number anywhere in e (a ratio
// or difference that is one computes e exactly from the size).
func polynomial(e *Expr) bool {
	switch e.op {
	case OpRational, OpFloat:
		return false
	case OpPow:
		if v, ok := e.args[1].Int64(); !ok || v < 0 {
			return false
		}
	}
	for _, a := range e.args {
		if !polynomial(a) {
			return false
		}
	}
	return true
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

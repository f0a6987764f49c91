package sym

import (
	"math"
	"math/big"
	"sort"
	"strings"
	"sync/atomic"
)

// Expr is an immutable symbolic scalar: a SymPy expression as torch.export
// writes it in SymExpr.expr_str. Add, Mul and Pow are always held in the form
// SymPy's automatic evaluation gives them (flattened, numbers folded, like
// terms collected, arguments in SymPy's printing order), so printing an
// expression reproduces what PyTorch prints for it. Other operations keep the
// arguments they were built with; Canonical normalises further.
//
// The zero value is not a valid expression; build expressions with Parse or
// the constructors. Expressions are safe for concurrent use.
type Expr struct {
	op     Op
	args   []*Expr
	name   string       // OpSymbol
	assume []Assumption // OpSymbol, as written
	num    *big.Int     // OpInteger value, OpRational numerator
	den    *big.Int     // OpRational denominator (> 1)
	f      float64      // OpFloat
	prec   int          // OpFloat precision in bits
	small  int64        // OpInteger value when it fits
	fits   bool         // OpInteger fits in int64
	nc     bool         // SymPy's is_commutative is not True (see noncommutative)
	key    atomic.Pointer[string]
}

// Assumption is one keyword argument of a SymPy Symbol, e.g. positive=True.
// Symbols are identified by name alone; assumptions are kept so that Srepr
// writes back what was read.
type Assumption struct {
	Name  string
	Value string // "True" or "False"
}

// Op is the node kind.
func (e *Expr) Op() Op { return e.op }

// NumArgs is the number of arguments (0 for atoms).
func (e *Expr) NumArgs() int { return len(e.args) }

// Arg returns argument i.
func (e *Expr) Arg(i int) *Expr { return e.args[i] }

// Args returns a copy of the arguments, in printing order.
func (e *Expr) Args() []*Expr { return append([]*Expr(nil), e.args...) }

// Name is a symbol's name ("" for other nodes).
func (e *Expr) Name() string { return e.name }

// Assumptions are a symbol's SymPy assumptions in the order they were written.
func (e *Expr) Assumptions() []Assumption { return append([]Assumption(nil), e.assume...) }

// Int64 returns an Integer constant's value; ok is false for other nodes and
// for integers outside int64.
func (e *Expr) Int64() (v int64, ok bool) {
	if e.op != OpInteger || !e.fits {
		return 0, false
	}
	return e.small, true
}

// BigInt returns a copy of an Integer constant's value, or nil.
func (e *Expr) BigInt() *big.Int {
	if e.op != OpInteger {
		return nil
	}
	return new(big.Int).Set(e.num)
}

// Rat returns a copy of an Integer or Rational constant's value, or nil.
func (e *Expr) Rat() *big.Rat {
	switch e.op {
	case OpInteger:
		return new(big.Rat).SetInt(e.num)
	case OpRational:
		return new(big.Rat).SetFrac(e.num, e.den)
	}
	return nil
}

// Float64 returns a Float constant's value (and ±Inf, NaN for oo, -oo, nan).
func (e *Expr) Float64() (float64, bool) {
	switch e.op {
	case OpFloat:
		return e.f, true
	case OpInfinity:
		return math.Inf(1), true
	case OpNegInfinity:
		return math.Inf(-1), true
	case OpNaN:
		return math.NaN(), true
	}
	return 0, false
}

// Precision is a Float constant's precision in bits (53 for float64).
func (e *Expr) Precision() int { return e.prec }

// BoolValue returns the value of true or false.
func (e *Expr) BoolValue() (v, ok bool) {
	switch e.op {
	case OpTrue:
		return true, true
	case OpFalse:
		return false, true
	}
	return false, false
}

// IsConstant reports whether e has no free symbols.
func (e *Expr) IsConstant() bool {
	if e.op == OpSymbol {
		return false
	}
	for _, a := range e.args {
		if !a.IsConstant() {
			return false
		}
	}
	return true
}

// Symbols returns the names of the free symbols of e, sorted.
func (e *Expr) Symbols() []string {
	set := map[string]bool{}
	e.collectSymbols(set)
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (e *Expr) collectSymbols(set map[string]bool) {
	if e.op == OpSymbol {
		set[e.name] = true
	}
	for _, a := range e.args {
		a.collectSymbols(set)
	}
}

// Type is the kind of value e has: bool for relations and logic, float when
// a float is involved (ToFloat, a Float constant, true division), else int.
func (e *Expr) Type() Type {
	switch e.op {
	case OpSymbol:
		return e.symbolType()
	case OpPow:
		if e.args[0].Type() == TypeFloat || e.args[1].Type() == TypeFloat {
			return TypeFloat
		}
		if v, ok := e.args[1].Int64(); ok && v < 0 {
			return TypeFloat
		}
		return TypeInt
	case OpWhere:
		if e.args[1].Type() == TypeFloat || e.args[2].Type() == TypeFloat {
			return TypeFloat
		}
		return e.args[1].Type()
	case OpBitwiseAnd, OpBitwiseOr, OpBitwiseXor:
		if e.args[0].Type() == TypeBool && e.args[1].Type() == TypeBool {
			return TypeBool
		}
		return TypeInt
	}
	info := &ops[e.op]
	if !info.argTyped {
		return info.result
	}
	t := TypeInt
	for _, a := range e.args {
		switch a.Type() {
		case TypeFloat:
			return TypeFloat
		case TypeBool:
			if e.op == OpIdentity {
				t = TypeBool
			}
		}
	}
	return t
}

// symbolType follows SymPy's assumptions: integer symbols (all shape
// symbols) are ints; real but not integer ones are floats.
func (e *Expr) symbolType() Type {
	real := false
	for _, a := range e.assume {
		if a.Value != "True" {
			continue
		}
		switch a.Name {
		case "integer", "even", "odd", "prime", "composite":
			return TypeInt
		case "real", "extended_real", "rational", "irrational", "finite":
			real = true
		}
	}
	if real {
		return TypeFloat
	}
	return TypeInt
}

// Equal reports whether a and b are the same tree. Symbols compare by name,
// Floats by value (not precision). Use Canonical first to compare values of
// expressions written differently.
func Equal(a, b *Expr) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.op != b.op || len(a.args) != len(b.args) {
		return false
	}
	switch a.op {
	case OpSymbol:
		return a.name == b.name
	case OpInteger:
		return a.num.Cmp(b.num) == 0
	case OpRational:
		return a.num.Cmp(b.num) == 0 && a.den.Cmp(b.den) == 0
	case OpFloat:
		return a.f == b.f || (math.IsNaN(a.f) && math.IsNaN(b.f))
	}
	for i := range a.args {
		if !Equal(a.args[i], b.args[i]) {
			return false
		}
	}
	return true
}

// Key is a compact string that identifies the tree (as Equal does), for use
// as a map key. Canonical().Key() identifies the value.
func (e *Expr) Key() string {
	if k := e.key.Load(); k != nil {
		return *k
	}
	var sb strings.Builder
	e.writeKey(&sb)
	k := sb.String()
	e.key.Store(&k)
	return k
}

func (e *Expr) writeKey(sb *strings.Builder) {
	if k := e.key.Load(); k != nil {
		sb.WriteString(*k)
		return
	}
	switch e.op {
	case OpSymbol:
		sb.WriteString(PyRepr(e.name))
		return
	case OpInteger:
		sb.WriteString(e.num.String())
		return
	case OpRational:
		sb.WriteString(e.num.String())
		sb.WriteByte('/')
		sb.WriteString(e.den.String())
		return
	case OpFloat:
		sb.WriteString("F")
		sb.WriteString(formatShortest(e.f))
		return
	}
	sb.WriteString(e.op.String())
	if e.op.IsAtom() {
		return
	}
	sb.WriteByte('(')
	for i, a := range e.args {
		if i > 0 {
			sb.WriteByte(',')
		}
		a.writeKey(sb)
	}
	sb.WriteByte(')')
}

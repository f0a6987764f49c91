package ir

// SymExpr is a symbolic expression as export writes it: SymPy srepr text
// (`Symbol('s53', positive=True, integer=True)`) or, in older files, plain
// str() text (`2*s0`). Package sym parses it.
type SymExpr struct {
	Expr string `json:"expr_str"`
	Hint *Hint  `json:"hint"` // the value seen while tracing, when recorded
}

// HintKind says which member of the SymExprHint union a Hint holds.
type HintKind uint8

// Hint kinds.
const (
	HintInt HintKind = iota + 1
	HintFloat
	HintBool
)

// Hint is a traced example value of a symbolic expression.
type Hint struct {
	Kind  HintKind
	Int   int64
	Float float64
	Bool  bool
}

// SymInt is an integer that is either known (Expr nil) or symbolic.
type SymInt struct {
	Expr *SymExpr
	Int  int64
}

// SymFloat is a float that is either known (Expr nil) or symbolic.
type SymFloat struct {
	Expr  *SymExpr
	Float float64
}

// SymBool is a bool that is either known (Expr nil) or symbolic.
type SymBool struct {
	Expr *SymExpr
	Bool bool
}

// IntSym is a known SymInt.
func IntSym(v int64) SymInt { return SymInt{Int: v} }

// ExprSym is a symbolic SymInt.
func ExprSym(expr string) SymInt { return SymInt{Expr: &SymExpr{Expr: expr}} }

// IsStatic reports whether the value is known without binding any symbol.
func (s SymInt) IsStatic() bool { return s.Expr == nil }

// TensorMeta describes a tensor value: dtype, sizes and strides (each a
// SymInt), storage offset, layout and device.
type TensorMeta struct {
	DType         ScalarType `json:"dtype"`
	Sizes         []SymInt   `json:"sizes"`
	RequiresGrad  bool       `json:"requires_grad"`
	Device        Device     `json:"device"`
	Strides       []SymInt   `json:"strides"`
	StorageOffset SymInt     `json:"storage_offset"`
	Layout        Layout     `json:"layout"`
}

// IsStatic reports whether every size is known.
func (m *TensorMeta) IsStatic() bool {
	for _, s := range m.Sizes {
		if !s.IsStatic() {
			return false
		}
	}
	return true
}

// StaticSizes returns the sizes when all are known.
func (m *TensorMeta) StaticSizes() ([]int64, bool) {
	out := make([]int64, len(m.Sizes))
	for i, s := range m.Sizes {
		if !s.IsStatic() {
			return nil, false
		}
		out[i] = s.Int
	}
	return out, true
}

// RangeConstraint is the range of a symbol; a nil bound is unbounded (int_oo).
type RangeConstraint struct {
	Min *int64 `json:"min_val"`
	Max *int64 `json:"max_val"`
}

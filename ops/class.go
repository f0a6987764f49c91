package ops

import "strings"

// Class says what an op does, as partitioning, lowering, the kernels and
// the executor need to know it. It is decided here once, from the schema.
type Class uint8

const (
	// Compute ops compute tensors (or read a scalar out of one, as
	// _local_scalar_dense does): a kernel's work, and what makes a
	// partition worth a delegate call.
	Compute Class = iota
	// View ops alias their input's storage (view, permute, expand,
	// split ...): they move no data.
	View
	// Symbolic ops compute a symbolic scalar from sizes or other scalars:
	// the size queries (sym_size.int, sym_numel, sym_stride.int,
	// sym_storage_offset) and the Python scalar functions (_operator.*,
	// math.*, torch.sym_*). The executor evaluates them itself.
	Symbolic
	// Check ops compute nothing and return nothing: runtime asserts and
	// range constraints (_assert_scalar, _assert_async,
	// _assert_tensor_metadata, sym_constrain_range*).
	Check
	// Control ops run subgraphs (higher_order.cond ...).
	Control
)

var classNames = [...]string{"compute", "view", "symbolic", "check", "control"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "unknown class"
}

// Class classifies the op from its schema.
func (s *Schema) Class() Class {
	switch {
	case s.Kind == HigherOrder:
		return Control
	case s.Kind == Python:
		return Symbolic
	case s.IsView():
		return View
	case len(s.Returns) == 0 && !s.Mutates():
		return Check
	case len(s.Returns) == 1 && s.Returns[0].Type == Type{Base: SymIntT} && strings.HasPrefix(s.Name, "sym_"):
		return Symbolic
	}
	return Compute
}

// ClassOf classifies a target ("aten.sym_size.int"; a leading "torch.ops."
// is accepted). A target the table does not know is classified by its
// namespace, as export names them: _operator.*, math.*, torch.sym_* and
// aten.sym_* are symbolic, aten._assert_* a check, anything else compute.
func ClassOf(target string) Class {
	if s, ok := Lookup(target); ok {
		return s.Class()
	}
	t := strings.TrimPrefix(target, "torch.ops.")
	for _, p := range []string{"_operator.", "math.", "torch.sym_", "aten.sym_"} {
		if strings.HasPrefix(t, p) {
			return Symbolic
		}
	}
	if strings.HasPrefix(t, "aten._assert_") {
		return Check
	}
	return Compute
}

// ExecutorOwned reports an op the executor evaluates itself rather than
// through a kernel: symbolic ops, checks on scalars (_assert_scalar,
// sym_constrain_range*) and control flow. Checks on tensors
// (_assert_async, _assert_tensor_metadata) are kernels.
func (s *Schema) ExecutorOwned() bool {
	switch s.Class() {
	case Symbolic, Control:
		return true
	case Check:
		for _, a := range s.Args {
			if a.Type.Base == TensorT {
				return false
			}
		}
		return true
	}
	return false
}

// ScalarResult reports an op whose one result is a scalar, not a tensor:
// symbolic ops, and compute ops that read a scalar out of a tensor
// (_local_scalar_dense, item). Lowering may copy a chain of them across a
// cut.
func (s *Schema) ScalarResult() bool {
	if len(s.Returns) != 1 {
		return false
	}
	t := s.Returns[0].Type
	if t.List || t.Optional {
		return false
	}
	switch t.Base {
	case IntT, SymIntT, FloatT, ScalarT, BoolT:
		return true
	}
	return false
}

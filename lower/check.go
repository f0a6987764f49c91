package lower

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/verify"
)

// BugError is a failure of seam, not of the user's input: a lowered
// program that fails verification or its contract, or a step of lowering
// that found seam's own plan impossible to carry out.
type BugError struct {
	// Violations are what verify found in the lowered program.
	Violations []verify.Violation
	// Err, when set, is the step that failed instead (partitions that
	// cannot be ordered in their parent: they were not convex).
	Err error
}

func (e *BugError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("lower: %v (a bug in seam, please report it)", e.Err)
	}
	lines := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		lines[i] = "  " + v.String()
	}
	return fmt.Sprintf("lower: the lowered program does not verify (a bug in seam, please report it):\n%s", strings.Join(lines, "\n"))
}

func (e *BugError) Unwrap() error { return e.Err }

// check verifies the parent and every module, and each module against its
// backend's contract, as a reader of the written archive would. Lowering
// never assumes it got this right.
func (lw *lowerer) check() error {
	if vs := verify.Errors(verify.Lowered(lw.res.Lowered)); len(vs) > 0 {
		return &BugError{Violations: vs}
	}
	return nil
}

// CompileError is a module its backend could not compile at lowering time
// (backend.Preprocessor): the backend refused what its contract accepted.
type CompileError struct {
	Backend, Module string
	Err             error
}

func (e *CompileError) Error() string {
	return fmt.Sprintf("lower: backend %s could not compile %s: %v", e.Backend, e.Module, e.Err)
}

func (e *CompileError) Unwrap() error { return e.Err }

// preprocess has a backend that compiles at lowering time compile each
// module this lowering made, storing the bytes with the module's record
// (ExecuTorch's processed_bytes), so that verify checks them and the
// runtime loads them.
func (lw *lowerer) preprocess() error {
	pre, ok := backend.PreprocessorFor(lw.prof.Name)
	if !ok {
		return nil
	}
	for _, m := range lw.res.Modules {
		blob, err := pre.Preprocess(m.Program, m.Delegate.CompileOptions)
		if err != nil {
			return &CompileError{Backend: lw.prof.Name, Module: m.Name, Err: err}
		}
		m.Delegate.Compiled = ir.Bytes(blob)
	}
	return nil
}

package lower

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/verify"
)

// BugError is a lowered program that fails verification or its contract:
// a bug in seam, not in the user's input.
type BugError struct {
	Violations []verify.Violation
}

func (e *BugError) Error() string {
	lines := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		lines[i] = "  " + v.String()
	}
	return fmt.Sprintf("lower: the lowered program does not verify (a bug in seam, please report it):\n%s", strings.Join(lines, "\n"))
}

// check verifies the parent and every module, and each module against its
// backend's contract, as a reader of the written archive would. Lowering
// never assumes it got this right.
func (lw *lowerer) check() error {
	if vs := verify.Errors(verify.Lowered(lw.res.Lowered)); len(vs) > 0 {
		return &BugError{Violations: vs}
	}
	return nil
}

package lower

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/ir"
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
// backend's contract. Lowering never assumes it got this right.
func (lw *lowerer) check() error {
	modules := map[string]*ir.Program{}
	for _, m := range lw.res.Modules {
		modules[m.Name] = m.Program
	}
	vs := verify.Errors(verify.Program(lw.res.Program, verify.Options{Modules: modules}))
	for _, m := range lw.res.Modules {
		for _, v := range verify.Errors(verify.Program(m.Program, verify.Options{Modules: modules})) {
			v.Graph = joinPath(m.Name, v.Graph)
			vs = append(vs, v)
		}
		for _, v := range verify.Contract(m.Program, lw.prof) {
			v.Graph = joinPath(m.Name, v.Graph)
			vs = append(vs, v)
		}
	}
	if len(vs) > 0 {
		return &BugError{Violations: vs}
	}
	return nil
}

func joinPath(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}

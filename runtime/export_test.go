package runtime

import (
	"fmt"
	"strings"
)

// PlanSummary describes a program's top-level plan, step by step, as far
// as the passes change it: the op each step runs, its argument count,
// whether it moves its input and how many values die after it.
func PlanSummary(p *Program) string {
	var b strings.Builder
	for i := range p.plan.steps {
		st := &p.plan.steps[i]
		fmt.Fprintf(&b, "%s %s/%d move=%v dead=%d\n", st.node.Name, st.runs, len(st.args), st.move, len(p.plan.dead[i]))
		// A module run on seam's kernels is a plan too: indented below.
		if st.call != nil {
			if m, ok := st.call.exe.(*Program); ok {
				for _, l := range strings.SplitAfter(PlanSummary(m), "\n") {
					if l != "" {
						b.WriteString("  " + l)
					}
				}
			}
		}
	}
	return b.String()
}

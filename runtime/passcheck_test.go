package runtime

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/seam-rt/seam/ir"
)

// A pass that leaves the plan broken fails the load with a PlanError that
// names the pass and what is wrong, whichever rule it breaks.
func TestPlanCheckCatchesBrokenPass(t *testing.T) {
	// slotOf finds the slot of a value by name.
	slotOf := func(gp *graphPlan, name string) int32 { return int32(slices.Index(gp.names, name)) }
	for _, c := range []struct {
		name string
		bad  pass
		want string
	}{
		{"fused away, still read", pass{name: "badfuse", at: []string{"aten.add.Tensor"},
			rewrite: func(f *fuser, i int) bool { f.gone[i] = true; return true }},
			"reads y (slot 2), which no graph input or earlier step defines"},
		{"defined twice", pass{name: "twice", plan: func(gp *graphPlan) {
			gp.steps[1].outs[0].slot = gp.steps[0].outs[0].slot
		}}, "step 1 (v): defines y (slot 2), which is already defined"},
		{"released early", pass{name: "early", plan: func(gp *graphPlan) {
			gp.dead[0] = append(gp.dead[0], slotOf(gp, "d"))
		}}, "step 0 (y): releases d (slot 5), which is not defined yet"},
		{"read after release", pass{name: "late", plan: func(gp *graphPlan) {
			gp.dead[1] = append(gp.dead[1], slotOf(gp, "y"))
		}}, "reads y (slot 2), released after step 1 (v)"},
		{"released twice", pass{name: "again", plan: func(gp *graphPlan) {
			gp.dead[6] = append(gp.dead[6], gp.dead[4]...)
		}}, "releases d (slot 5) again (released after step 4)"},
		{"an output released", pass{name: "output", plan: func(gp *graphPlan) {
			gp.dead[6] = append(gp.dead[6], slotOf(gp, "c"))
		}}, "releases c (slot 4), a graph input or output"},
		{"a move of a live value", pass{name: "move", plan: func(gp *graphPlan) {
			gp.steps[3].move = true
		}}, "step 3 (d): moves an input that does not die at this step"},
	} {
		table := append(slices.Clone(planPasses), c.bad)
		_, err := loadLowered(&ir.Lowered{Main: cloneProgram()}, Options{}, table, map[string]*delegateCall{})
		var pe *PlanError
		if !errors.As(err, &pe) || pe.Pass != c.bad.name || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want a PlanError of pass %s saying %q", c.name, err, c.bad.name, c.want)
		}
	}
	if _, err := loadLowered(&ir.Lowered{Main: cloneProgram()}, Options{}, planPasses, map[string]*delegateCall{}); err != nil {
		t.Fatalf("the real passes: %v", err)
	}
}

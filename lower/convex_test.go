package lower_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/partition"
)

// TestNonConvexPlanIsSeamsBug: a plan whose partition cannot be placed in
// its parent (the relu between mlp's two linears left outside the one
// partition holding both) is a plan only a bug in seam's partitioner
// makes: Lower reports a *BugError, which the command line's exit status
// gives as seam's fault (3), not the input's (2).
func TestNonConvexPlanIsSeamsBug(t *testing.T) {
	p := load(t, "mlp")
	prof, err := backend.Parse([]byte(`{"name": "no-relu", "ops": {"include": ["aten.*"], "exclude": ["aten.relu*"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := partition.ProposeProgram(p, prof, partition.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Partitions) != 2 {
		t.Fatalf("%d partitions, want the two linears apart: %v", len(plan.Partitions), plan.Partitions)
	}
	// Merge the two: nothing flows between them but through the relu, so
	// the merged cut is the two cuts side by side.
	a, b := plan.Boundaries[0], plan.Boundaries[1]
	for _, i := range plan.Partitions[1] {
		plan.PartOf[i] = 0
	}
	plan.Partitions = [][]int{append(plan.Partitions[0], plan.Partitions[1]...)}
	plan.Boundaries = []partition.Boundary{{Inputs: append(a.Inputs, b.Inputs...), Outputs: append(a.Outputs, b.Outputs...)}}

	_, _, err = lower.Lower(&ir.Lowered{Main: p}, plan, prof, lower.Options{})
	var bug *lower.BugError
	if !errors.As(err, &bug) {
		t.Fatalf("lowering a non-convex plan: %T %v, want a *lower.BugError", err, err)
	}
	if !strings.Contains(err.Error(), "not convex") || !strings.Contains(err.Error(), "a bug in seam") {
		t.Errorf("error %q does not say the partitions are not convex, as seam's bug", err)
	}
}

package runtime

import (
	"context"
	"testing"
)

// In steady state the executor and the kernels allocate nothing per op: a
// run allocates the slice of results and, per output, the tensor the
// caller keeps, which the pool never gets back: its header, sizes,
// strides, storage and bytes, plus a slice or two regrown as pooled
// headers change hands; whatever the number of steps.
func TestSteadyStateRunAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	for _, c := range []struct{ model, cs string }{
		{"gpt2_tiny", "case3"}, {"bert_tiny", "case3"}, {"cnn", "case2"}, {"gpt2_l12", "case1"}, {"mlp", "case3"},
	} {
		p := loadFixture(t, c.model, true)
		args := p.graphArgs(caseInputs(t, c.model, c.cs))
		f := newFrame(1)
		ctx := context.Background()
		outs, err := f.run(ctx, p.plan, args)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(5, func() {
			if _, err := f.run(ctx, p.plan, args); err != nil {
				t.Fatal(err)
			}
		})
		if limit := float64(1 + 8*len(outs)); allocs > limit {
			t.Errorf("%s: %v allocations per run of %d steps, want at most %v", c.model, allocs, len(p.plan.steps), limit)
		}
	}
}

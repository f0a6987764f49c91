package specialize_test

import (
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/report"
	"github.com/seam-rt/seam/specialize"
)

// TestStaticShapesTakeSpecializations: what the static-shapes backend is
// given of every fixture with a symbol, before and after specializing it
// at its first case. After, no node is refused for a dynamic size, and no
// fewer nodes are delegated. `go test -v -run TestStaticShapes` prints the
// table.
func TestStaticShapesTakeSpecializations(t *testing.T) {
	prof, ok := backend.Builtin("static-shapes")
	if !ok {
		t.Fatal("no static-shapes profile")
	}
	propose := func(p *ir.Program) (*partition.Plan, report.Summary) {
		plan, err := partition.ProposeProgram(p, prof, partition.GraphOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return plan, report.Build(p, plan, report.Options{}).Summary
	}
	t.Logf("%-16s %-16s %28s %28s", "fixture", "binding", "delegated/nodes (partitions)", "specialized")
	for _, f := range allFixtures(t) {
		p := readProgram(t, f.dir)
		if len(p.RangeConstraints) == 0 {
			continue
		}
		bind, err := load(t, p).Bindings(f.cases[0].inputs)
		if err != nil {
			t.Fatal(err)
		}
		res, err := specialize.Program(p, bind)
		if err != nil {
			t.Fatal(err)
		}
		_, before := propose(p)
		plan, after := propose(res.Program)
		var walk func(pl *partition.Plan)
		walk = func(pl *partition.Plan) {
			for i := range pl.Graph.Nodes {
				v := pl.Verdict(i)
				if v.Reason == "dynamic size refused" {
					t.Errorf("%s at %s: %s is refused for a dynamic size: %s", f.name, specialize.String(bind), v.Node, v.Detail)
				}
			}
			for _, n := range pl.Nested {
				walk(n)
			}
		}
		walk(plan)
		if after.Delegated < before.Delegated {
			t.Errorf("%s: %d nodes delegated after specializing, %d before", f.name, after.Delegated, before.Delegated)
		}
		t.Logf("%-16s %-16s %19d/%d (%d) %19d/%d (%d)", f.name, specialize.String(bind),
			before.Delegated, before.Nodes, before.Partitions, after.Delegated, after.Nodes, after.Partitions)
	}
}

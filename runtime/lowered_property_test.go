package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
)

// TestAnyCutComputesTheSame: cut a fixture at random nodes, for a random
// contract, under a random policy; whenever lowering accepts, the lowered
// program run through its delegates gives PyTorch's outputs on every case.
func TestAnyCutComputesTheSame(t *testing.T) {
	type fixture struct {
		p     *ir.Program
		cases []Case
	}
	all := map[string]fixture{}
	for _, name := range fixtures.Models() {
		a, err := pt2.Open(fixtures.Model(name))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := a.Program()
		all[name] = fixture{p, loadCases(t, name)}
		t.Cleanup(func() { a.Close() })
	}
	accepts := []string{"refuse", "int", "tensor"}
	rapid.Check(t, func(rt *rapid.T) {
		name := rapid.SampledFrom(fixtures.Models()).Draw(rt, "model")
		f := all[name]
		var excluded []string
		for _, n := range f.p.Graph.Nodes {
			if rapid.IntRange(0, 3).Draw(rt, "exclude "+n.Name) == 0 {
				excluded = append(excluded, `"`+n.Name+`"`)
			}
		}
		acc := func(kind string) string { return `"` + kind + `": "` + rapid.SampledFrom(accepts).Draw(rt, kind) + `"` }
		prof, err := backend.Parse([]byte(`{"name": "random", "ops": {"include": ["*"]},
			"exclude_nodes": [` + strings.Join(excluded, ", ") + `],
			"placeholders": {` + acc("sym_int") + `, ` + acc("sym_bool") + `, ` + acc("sym_float") + `},
			"single_node_partitions": ` + rapid.SampledFrom([]string{"true", "false"}).Draw(rt, "single") + `,
			"owns_weights": ` + rapid.SampledFrom([]string{"true", "false"}).Draw(rt, "owns_weights") + `,
			"owns_buffers": ` + rapid.SampledFrom([]string{"true", "false"}).Draw(rt, "owns_buffers") + `}`))
		if err != nil {
			rt.Fatal(err)
		}
		pol := rapid.SampledFrom(lower.Policies()).Draw(rt, "policy")
		res, err := delegate.Program(f.p, prof, delegate.Options{Policy: pol})
		var refusal *lower.Error
		if errors.As(err, &refusal) && pol != lower.Auto {
			return
		}
		if err != nil {
			rt.Fatal(err)
		}
		prog, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
		if err != nil {
			rt.Fatal(err)
		}
		if runCases(rt, name, prog, f.cases) < len(f.cases) {
			rt.Fatalf("%s: a lowered run failed", name)
		}
	})
}

package lower_test

import (
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
)

// TestLowerAnyCut: for a random cut (nodes excluded at random), a random
// contract and a random policy, lowering either succeeds, and then Lower has
// verified the parent, every module and every contract, or refuses with a
// reason naming the value, its producer and its consumer. It never reports
// a bug and never panics.
func TestLowerAnyCut(t *testing.T) {
	programs := map[string]*ir.Program{}
	for _, name := range fixtures.Models() {
		programs[name] = load(t, name)
	}
	names := fixtures.Models()
	accepts := []backend.Acceptance{backend.Refuse, backend.Scalar, backend.Tensor}
	dtypeSets := [][]ir.ScalarType{nil, {ir.Float32}, {ir.Float32, ir.Int64}, {ir.Float32, ir.Int64, ir.Bool, ir.Float64}}
	rapid.Check(t, func(rt *rapid.T) {
		name := rapid.SampledFrom(names).Draw(rt, "model")
		p := programs[name]
		prof, _ := backend.Builtin("reference")
		prof.Name = "random"
		for _, n := range p.Graph.Nodes {
			if rapid.IntRange(0, 3).Draw(rt, "exclude "+n.Name) == 0 {
				prof.ExcludeNodes = append(prof.ExcludeNodes, n.Name)
			}
		}
		prof.Placeholders = backend.Placeholders{
			SymInt:   rapid.SampledFrom(accepts).Draw(rt, "sym_int"),
			SymBool:  rapid.SampledFrom(accepts).Draw(rt, "sym_bool"),
			SymFloat: rapid.SampledFrom(accepts).Draw(rt, "sym_float"),
		}
		prof.DTypes = rapid.SampledFrom(dtypeSets).Draw(rt, "dtypes")
		prof.SingleNodePartitions = rapid.Bool().Draw(rt, "single")
		prof.OwnsWeights = rapid.Bool().Draw(rt, "owns_weights")
		prof.OwnsBuffers = rapid.Bool().Draw(rt, "owns_buffers")
		// Round trip through the file form so the profile is compiled.
		prof, err := backend.Parse(mustProfileJSON(rt, prof))
		if err != nil {
			rt.Fatal(err)
		}
		pol := rapid.SampledFrom(lower.Policies()).Draw(rt, "policy")
		_, err = delegate.Program(p, prof, delegate.Options{Policy: pol})
		var refusal *lower.Error
		switch {
		case err == nil:
		case errors.As(err, &refusal):
			if refusal.Value == "" || refusal.Producer == "" || refusal.Consumer == "" {
				rt.Fatalf("refusal without value, producer and consumer: %v", err)
			}
			if pol == lower.Auto {
				rt.Fatalf("the default policy refused: %v", err)
			}
		default:
			rt.Fatal(err)
		}
	})
}

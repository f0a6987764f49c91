package runtime_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
)

// stressProfile cuts a program everywhere: every op is supported, but
// every node whose name's code points sum to a multiple of 5 is excluded
// (the fixtures' stress_mod5 rule), and symbolic placeholders are refused,
// so symbolic values cross cuts in both directions, between modules and
// the parent and from module to module.
func stressProfile(t *testing.T, g *ir.Graph, accept string) *backend.Profile {
	var excluded []string
	for _, n := range g.Nodes {
		s := 0
		for _, r := range n.Name {
			s += int(r)
		}
		if s%5 == 0 {
			excluded = append(excluded, n.Name)
		}
	}
	data, _ := json.Marshal(map[string]any{
		"name": "stress-" + accept, "ops": map[string]any{"include": []string{"*"}}, "exclude_nodes": excluded,
		"placeholders": map[string]string{"sym_int": accept, "sym_bool": accept, "sym_float": accept},
	})
	p, err := backend.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStressCuts lowers every fixture with cuts in arbitrary places under
// every policy and, when lowering accepts, runs every case against
// PyTorch's outputs.
func TestStressCuts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs without -short")
	}
	ran := 0
	for _, model := range fixtures.Models() {
		a, err := pt2.Open(fixtures.Model(model))
		if err != nil {
			t.Fatal(err)
		}
		orig, _ := a.Program()
		cases := loadCases(t, model)
		for _, accept := range []string{"refuse", "int", "tensor"} {
			prof := stressProfile(t, orig.Graph, accept)
			for _, pol := range lower.Policies() {
				name := model + "/" + prof.Name + "/" + pol.String()
				res, err := delegate.Program(orig, prof, delegate.Options{Policy: pol})
				var refusal *lower.Error
				if errors.As(err, &refusal) {
					if pol == lower.Auto {
						t.Errorf("%s: the default policy refused: %v", name, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				p, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
				if err != nil {
					t.Errorf("%s: load: %v", name, err)
					continue
				}
				ran += runCases(t, name, p, cases)
			}
		}
		a.Close()
	}
	t.Logf("%d lowered runs compared", ran)
}

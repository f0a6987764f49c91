package lower_test

import (
	"slices"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
)

func inputKinds(p *ir.Program) map[string]ir.InputKind {
	m := map[string]ir.InputKind{}
	for _, s := range p.Signature.Inputs {
		m[s.PlaceholderName()] = s.Kind
	}
	return m
}

func outputKinds(p *ir.Program) []ir.OutputKind {
	var out []ir.OutputKind
	for _, s := range p.Signature.Outputs {
		out = append(out, s.Kind)
	}
	return out
}

// TestWeightsMoveIntoModules: a weight only a module uses moves into it and
// leaves the parent; one the parent still uses stays there too.
func TestWeightsMoveIntoModules(t *testing.T) {
	res, err := lowerWith(t, "gpt2_tiny", "tensor-only", lower.Auto)
	if err != nil {
		t.Fatal(err)
	}
	parent := inputKinds(res.Lowered.Main)
	// The embeddings stay on the CPU, so their tables stay in the parent.
	for _, w := range []string{"p_m_transformer_wpe_weight", "p_m_lm_head_weight"} {
		if parent[w] != ir.InputParameter {
			t.Errorf("parent lost %s", w)
		}
	}
	if _, ok := parent["p_m_transformer_h_0_ln_1_weight"]; ok {
		t.Error("a layer weight only a module uses stayed in the parent")
	}
	// wpe and lm_head feed the embeddings; wte, the tied twin of lm_head,
	// was unused before lowering and stays as it was.
	if len(res.Lowered.Main.Weights) != 3 {
		t.Errorf("parent weights %v", ir.SortedKeys(res.Lowered.Main.Weights))
	}
	owners := 0
	for _, m := range res.Modules {
		if inputKinds(m.Program)["p_m_transformer_h_0_ln_1_weight"] == ir.InputParameter {
			owners++
			if _, ok := m.Program.Weights["m.transformer.h.0.ln_1.weight"]; !ok {
				t.Errorf("%s owns the placeholder but not the weight", m.Name)
			}
		}
	}
	if owners != 1 {
		t.Errorf("%d modules own the layer weight", owners)
	}
}

// TestBufferTakenOver: a backend that owns buffers takes over the buffer a
// module mutates; one that does not gets it as an input and returns its new
// value, which the parent writes back.
func TestBufferTakenOver(t *testing.T) {
	res, err := lowerWith(t, "buffer_mutation", "reference", lower.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := inputKinds(res.Lowered.Main)["b_count"]; ok || slices.Contains(outputKinds(res.Lowered.Main), ir.OutputBufferMutation) {
		t.Errorf("the parent kept the buffer: inputs %v outputs %v", inputKinds(res.Lowered.Main), outputKinds(res.Lowered.Main))
	}
	m := res.Modules[0].Program
	if inputKinds(m)["b_count"] != ir.InputBuffer || outputKinds(m)[0] != ir.OutputBufferMutation {
		t.Errorf("module: inputs %v outputs %v", inputKinds(m), outputKinds(m))
	}

	res, err = lowerWith(t, "buffer_mutation", "tensor-only", lower.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if inputKinds(res.Lowered.Main)["b_count"] != ir.InputBuffer || !slices.Contains(outputKinds(res.Lowered.Main), ir.OutputBufferMutation) {
		t.Errorf("the parent gave the buffer away: inputs %v outputs %v", inputKinds(res.Lowered.Main), outputKinds(res.Lowered.Main))
	}
	for _, mod := range res.Modules {
		if k, ok := inputKinds(mod.Program)["b_count"]; ok && k != ir.InputUser {
			t.Errorf("%s takes b_count as %s, want a user input", mod.Name, k)
		}
	}
}

// TestNestedGraphsLowered: cond stays in the parent for a backend that
// does not run it, and its branches are lowered on their own.
func TestNestedGraphsLowered(t *testing.T) {
	res, err := lowerWith(t, "cond", "tensor-only", lower.Auto)
	if err != nil {
		t.Fatal(err)
	}
	var nested []string
	for _, m := range res.Modules {
		if m.Graph != "" {
			nested = append(nested, m.Graph)
		}
	}
	slices.Sort(nested)
	if !slices.Equal(nested, []string{"cond.false_graph_0", "cond.true_graph_0"}) {
		t.Errorf("modules cut from nested graphs: %v", nested)
	}
}

// TestWeightsStayWhenNotOwned: a backend that cannot own weights gets them
// as tensor inputs, and the parent keeps every one.
func TestWeightsStayWhenNotOwned(t *testing.T) {
	prof, _ := backend.Builtin("tensor-only")
	prof.OwnsWeights = false
	p := load(t, "gpt2_tiny")
	res, err := delegate.Program(p, prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lowered.Main.Weights) != len(p.Weights) {
		t.Errorf("the parent holds %d of %d weights", len(res.Lowered.Main.Weights), len(p.Weights))
	}
	for _, m := range res.Modules {
		if len(m.Program.Weights)+len(m.Program.Constants) != 0 {
			t.Errorf("%s owns weights", m.Name)
		}
		for name, k := range inputKinds(m.Program) {
			if k != ir.InputUser {
				t.Errorf("%s takes %s as %s", m.Name, name, k)
			}
		}
	}
}

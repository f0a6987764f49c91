package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
)

// TestInspectSaysGetitemsFolded: bert_tiny has 153 nodes in the export
// schema and five native_layer_norm results taken out by getitem nodes in
// torch.fx; inspect says so in text and JSON.
func TestInspectSaysGetitemsFolded(t *testing.T) {
	out := mustSeam(t, "inspect", fixtures.Model("bert_tiny"))
	if !strings.Contains(out, "153 nodes (+5 getitem nodes that torch.fx shows, folded into the nodes that make them)") {
		t.Errorf("inspect does not say it folded the getitems:\n%s", out)
	}
	var s struct {
		Nodes    int `json:"nodes"`
		Getitems int `json:"getitems_folded"`
	}
	if err := json.Unmarshal([]byte(mustSeam(t, "inspect", "--json", fixtures.Model("bert_tiny"))), &s); err != nil {
		t.Fatal(err)
	}
	if s.Nodes != 153 || s.Getitems != 5 {
		t.Errorf("inspect --json: %+v", s)
	}
	if out := mustSeam(t, "inspect", fixtures.Model("mlp")); strings.Contains(out, "getitem") {
		t.Errorf("mlp has no getitem, inspect says:\n%s", out)
	}
}

func TestPrintSource(t *testing.T) {
	const line = "        # File: transformers/models/gpt2/modeling_gpt2.py:549 in forward, code: input_ids = input_ids.view(-1, input_shape[-1])\n" +
		"        view: \"i64[1, s53]\" = torch.ops.aten.view.default(input_ids, [-1, sym_size_int_24])\n"
	out := mustSeam(t, "print", "--source", fixtures.Model("gpt2_tiny"))
	if !strings.Contains(out, line) || !strings.HasPrefix(out, "class GraphModule(torch.nn.Module):\n    def forward(self, p_m_transformer_wte_weight") {
		t.Errorf("print --source lacks the # File: line of view:\n%.2000s", out)
	}
	if out := mustSeam(t, "print", fixtures.Model("gpt2_tiny")); strings.Contains(out, "# File:") {
		t.Errorf("print without --source prints the source comments")
	}
}

package lower_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// A backend that runs sym_size itself but refuses symbolic placeholders,
// with view_3 (which reads sym_size_int_24) left to the CPU: the symbolic
// value must leave the module that makes it, the other direction of a cut.
const producingProfile = `{"name": "npu-with-shapes",
 "ops": {"include": ["aten.*"], "exclude": ["aten.embedding*", "aten.index*"]},
 "exclude_nodes": ["view_3"],
 "placeholders": {"sym_int": "refuse", "sym_bool": "refuse", "sym_float": "refuse"},
 "dtypes": ["f32", "i64", "bool"]}`

// TestSymbolicOutputs lowers with every policy and runs the result against
// PyTorch's outputs; each policy handles sym_size_int_24 leaving its module
// the way the contract document says.
func TestSymbolicOutputs(t *testing.T) {
	prof, err := backend.Parse([]byte(producingProfile))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(fixtures.ModelDir("gpt2_tiny"), "io", "case2")
	in0, _ := npy.ReadFile(filepath.Join(dir, "in_0.npy"))
	in1, _ := npy.ReadFile(filepath.Join(dir, "in_1.npy"))
	want, _ := npy.ReadFile(filepath.Join(dir, "out_0.npy"))
	p := load(t, "gpt2_tiny")
	expect := map[lower.Policy]string{lower.Auto: "rederive", lower.Rederive: "rederive", lower.Hoist: "hoist", lower.Box: "box", lower.Exclude: "exclude"}
	for _, pol := range lower.Policies() {
		res, err := delegate.Program(p, prof, delegate.Options{Policy: pol})
		if pol == lower.Fail || pol == lower.Pass {
			// The contract refuses the scalar: nothing else may carry it.
			var refusal *lower.Error
			if !errors.As(err, &refusal) || refusal.Value != "sym_size_int_24" {
				t.Errorf("%s: %v, want a refusal of sym_size_int_24", pol, err)
			}
			continue
		}
		var refusal *lower.Error
		if pol == lower.Hoist && errors.As(err, &refusal) {
			// The second module does not receive attention_mask, so the
			// chain cannot be hoisted into it: a refusal, named.
			if refusal.Value != "sym_size_int_24" {
				t.Errorf("hoist refused %s", refusal.Value)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		out := false
		for _, c := range res.Crossings {
			if c.Value == "sym_size_int_24" && c.To == "parent" {
				out = true
				if c.Policy != expect[pol] {
					t.Errorf("%s: the value left its module by %s", pol, c.Policy)
				}
			}
		}
		if !out {
			t.Errorf("%s: no crossing out of a module reported: %+v", pol, res.Crossings)
		}
		prog, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		outs, err := prog.Run(context.Background(), []value.Value{value.FromTensor(in0), value.FromTensor(in1)})
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		if _, err := tensor.AllClose(outs[0].Tensor(), want, 1e-4, 1e-5); err != nil {
			t.Errorf("%s: %v", pol, err)
		}
	}
}

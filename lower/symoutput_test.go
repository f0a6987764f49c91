package lower

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// TestSymbolicGraphOutput: a program that returns a symbolic size as well
// as its tensor (as x.shape[1] returned from forward exports) keeps
// returning it once lowered, whichever side of the cut makes the value:
// for every built-in profile and every policy that accepts.
func TestSymbolicGraphOutput(t *testing.T) {
	p := load(t, "gpt2_tiny").Clone()
	const s = "sym_size_int_24" // attention_mask.size(1)
	p.Graph.Outputs = append(p.Graph.Outputs, ir.SymIntRef(s))
	p.Signature.Outputs = append(p.Signature.Outputs, ir.OutputSpec{Kind: ir.OutputUser, Arg: ir.SymIntRef(s)})
	dir := filepath.Join(fixtures.ModelDir("gpt2_tiny"), "io", "case2")
	in0, _ := npy.ReadFile(filepath.Join(dir, "in_0.npy"))
	in1, _ := npy.ReadFile(filepath.Join(dir, "in_1.npy"))
	want, _ := npy.ReadFile(filepath.Join(dir, "out_0.npy"))
	ran := 0
	for _, bn := range backend.BuiltinNames() {
		prof, _ := backend.Builtin(bn)
		for _, pol := range Policies() {
			res, err := Lower(p, prof, Options{Policy: pol})
			var refusal *Error
			if errors.As(err, &refusal) && pol != Auto {
				continue
			}
			if err != nil {
				t.Errorf("%s/%s: %v", bn, pol, err)
				continue
			}
			prog, err := runtime.LoadArchive(res.Archive())
			if err != nil {
				t.Errorf("%s/%s: %v", bn, pol, err)
				continue
			}
			outs, err := prog.Run(context.Background(), []value.Value{value.FromTensor(in0), value.FromTensor(in1)})
			if err != nil {
				t.Errorf("%s/%s: %v", bn, pol, err)
				continue
			}
			if len(outs) != 2 {
				t.Errorf("%s/%s: %d outputs, want 2", bn, pol, len(outs))
				continue
			}
			if _, err := tensor.AllClose(outs[0].Tensor(), want, 1e-4, 1e-5); err != nil {
				t.Errorf("%s/%s: %v", bn, pol, err)
			}
			if n, err := outs[1].AsInt(); err != nil || n != int64(in1.Size(1)) {
				t.Errorf("%s/%s: %s = %v (%v), want %d", bn, pol, s, outs[1], err, in1.Size(1))
			}
			ran++
		}
	}
	if ran < len(backend.BuiltinNames()) {
		t.Errorf("only %d lowerings ran", ran)
	}
}

// TestSymbolicBetweenModules: a symbolic value one module makes and a later
// module reads (never the parent) goes through the parent under every
// policy that accepts, and the lowered program still computes PyTorch's
// output.
func TestSymbolicBetweenModules(t *testing.T) {
	prof, err := backend.Parse([]byte(`{"name": "npu-split",
 "ops": {"include": ["aten.*"], "exclude": ["aten.embedding*", "aten.index*"]},
 "exclude_nodes": ["native_layer_norm_1"],
 "placeholders": {"sym_int": "refuse", "sym_bool": "refuse", "sym_float": "refuse"},
 "dtypes": ["f32", "i64", "bool"]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := load(t, "gpt2_tiny")
	dir := filepath.Join(fixtures.ModelDir("gpt2_tiny"), "io", "case1")
	in0, _ := npy.ReadFile(filepath.Join(dir, "in_0.npy"))
	in1, _ := npy.ReadFile(filepath.Join(dir, "in_1.npy"))
	want, _ := npy.ReadFile(filepath.Join(dir, "out_0.npy"))
	ran := 0
	for _, pol := range Policies() {
		res, err := Lower(p, prof, Options{Policy: pol})
		var refusal *Error
		if errors.As(err, &refusal) && pol != Auto {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		if len(res.Modules) < 2 {
			t.Fatalf("%s: %d modules, want the cut at native_layer_norm_1 to split the graph", pol, len(res.Modules))
		}
		prog, err := runtime.LoadArchive(res.Archive())
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
		ran++
	}
	if ran < 3 {
		t.Errorf("only %d policies lowered", ran)
	}
}

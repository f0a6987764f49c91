package lower_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// lowerAndRun lowers p for prof under pol and runs the result on a
// gpt2_tiny reference case, checking the first output against PyTorch's.
// It returns the outputs, or nil when the policy refuses (or the run
// failed, which it reports).
func lowerAndRun(t *testing.T, p *ir.Program, prof *backend.Profile, pol lower.Policy, caseDir string) (*lower.Result, []value.Value) {
	t.Helper()
	name := prof.Name + "/" + pol.String()
	res, err := delegate.Program(p, prof, delegate.Options{Policy: pol})
	var refusal *lower.Error
	if errors.As(err, &refusal) && pol != lower.Auto {
		return nil, nil
	}
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return nil, nil
	}
	var in []value.Value
	for _, f := range []string{"in_0.npy", "in_1.npy"} {
		x, err := npy.ReadFile(filepath.Join(caseDir, f))
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, value.FromTensor(x))
	}
	want, err := npy.ReadFile(filepath.Join(caseDir, "out_0.npy"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := runtime.LoadLowered(res.Lowered, runtime.Options{})
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return nil, nil
	}
	outs, err := prog.Run(context.Background(), in)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return nil, nil
	}
	if _, err := tensor.AllClose(outs[0].Tensor(), want, 1e-4, 1e-5); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	return res, outs
}

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
	mask, _ := npy.ReadFile(filepath.Join(dir, "in_1.npy"))
	ran := 0
	for _, bn := range backend.BuiltinNames() {
		prof, _ := backend.Builtin(bn)
		for _, pol := range lower.Policies() {
			_, outs := lowerAndRun(t, p, prof, pol, dir)
			if outs == nil {
				continue
			}
			if len(outs) != 2 {
				t.Errorf("%s/%s: %d outputs, want 2", bn, pol, len(outs))
				continue
			}
			if n, err := outs[1].AsInt(); err != nil || n != int64(mask.Size(1)) {
				t.Errorf("%s/%s: %s = %v (%v), want %d", bn, pol, s, outs[1], err, mask.Size(1))
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
	ran := 0
	for _, pol := range lower.Policies() {
		res, outs := lowerAndRun(t, p, prof, pol, dir)
		if outs == nil {
			continue
		}
		if len(res.Modules) < 2 {
			t.Errorf("%s: %d modules, want the cut at native_layer_norm_1 to split the graph", pol, len(res.Modules))
		}
		ran++
	}
	if ran < 3 {
		t.Errorf("only %d policies lowered", ran)
	}
}

package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// llamaDir is the Llama-style decoder of fixtures/extra (made by
// make_llama.py there): RMSNorm, rotary embeddings computed in the graph,
// grouped-query attention (4 query heads, 2 KV heads), a SiLU-gated MLP,
// with a symbolic sequence length s0 in [2, 128].
func llamaDir() string { return filepath.Join(fixtures.Dir(), "extra", "llama_tiny") }

func openLlama(t testing.TB, path string) (*pt2.Archive, *runtime.Program) {
	t.Helper()
	a, err := pt2.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	prog, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	p, err := runtime.Load(prog, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a, p
}

// TestLlamaTinyProgram checks the fixture is the program the tests below
// mean: a symbolic input_ids i64[1, s0], s0 in [2, 128], the non-persistent
// inv_freq buffer among the constants, and the ops of a Llama decoder.
func TestLlamaTinyProgram(t *testing.T) {
	a, _ := openLlama(t, filepath.Join(llamaDir(), "model.pt2"))
	p, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	users := p.UserInputs()
	if len(users) != 1 {
		t.Fatalf("%d user inputs, want 1 (input_ids)", len(users))
	}
	meta := p.Graph.TensorValues["input_ids"]
	if meta == nil || meta.DType != ir.Int64 || len(meta.Sizes) != 2 {
		t.Fatalf("input_ids is %+v, want i64[1, s0]", meta)
	}
	if meta.Sizes[1].IsStatic() {
		t.Error("input_ids dim 1 is static, want s0")
	}
	rc, ok := p.RangeConstraints["s0"]
	if !ok || rc.Min == nil || rc.Max == nil || *rc.Min != 2 || *rc.Max != 128 {
		t.Errorf("range of s0 is %+v, want [2, 128]", rc)
	}
	if _, ok := p.Constants["model.rotary_emb.inv_freq"]; !ok {
		t.Error("the non-persistent buffer model.rotary_emb.inv_freq is not among the constants")
	}
	ops := map[string]int{}
	for _, n := range p.Graph.Nodes {
		ops[n.Target]++
	}
	for op, want := range map[string]int{
		"torch.ops.aten.rsqrt.default":         5, // 2 norms a layer, and the final one
		"torch.ops.aten.mean.dim":              5,
		"torch.ops.aten.pow.Tensor_Scalar":     5,
		"torch.ops.aten.silu.default":          2,
		"torch.ops.aten.slice.Tensor":          8, // rotate_half: 2 slices, for q and k, in 2 layers
		"torch.ops.aten.neg.default":           4,
		"torch.ops.aten.cat.default":           5,
		"torch.ops.aten.sin.default":           1,
		"torch.ops.aten.cos.default":           1,
		"torch.ops.aten.clone.default":         6, // repeat_kv for k and v, and transpose().contiguous()
		"torch.ops.aten._softmax.default":      2,
		"torch.ops.aten.where.self":            1,
		"torch.ops.aten.full.default":          1,
		"torch.ops.aten.arange.start_step":     2,
		"torch.ops.aten.embedding.default":     1,
		"torch.ops.aten.mm.default":            15,
		"torch.ops.aten.bmm.default":           5,
		"torch.ops.aten.sym_size.int":          1,
		"torch.ops.aten._to_copy.default":      1,
		"torch.ops.aten.scalar_tensor.default": 1,
		"torch.ops.aten.le.Tensor":             1,
	} {
		if ops[op] != want {
			t.Errorf("%s: %d nodes, want %d", op, ops[op], want)
		}
	}
}

// TestLlamaTinyCases runs every reference case (sequence lengths 12, 7 and
// 20 through one program) and compares with the eager PyTorch logits.
func TestLlamaTinyCases(t *testing.T) {
	_, p := openLlama(t, filepath.Join(llamaDir(), "model.pt2"))
	cases := loadCasesIn(t, llamaDir())
	lens := map[int]bool{}
	for _, c := range cases {
		x, err := runtime.OutputTensor(c.Inputs[0])
		if err != nil {
			t.Fatal(err)
		}
		lens[x.Size(1)] = true
	}
	if len(lens) < 2 {
		t.Errorf("the cases have sequence lengths %v: want several, s0 is symbolic", lens)
	}
	runCases(t, "llama_tiny", p, cases)
}

// TestLlamaTinyCausal runs prefixes of case0's tokens: a causal decoder's
// logits for the first k positions do not depend on the tokens after them,
// so they are the first k rows of case0's reference logits.
func TestLlamaTinyCausal(t *testing.T) {
	_, p := openLlama(t, filepath.Join(llamaDir(), "model.pt2"))
	c := loadCasesIn(t, llamaDir())[0]
	ids, err := runtime.OutputTensor(c.Inputs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{2, 5, ids.Size(1) - 1} {
		prefix, err := new(tensor.Tensor).Narrow(ids, 1, 0, k)
		if err != nil {
			t.Fatal(err)
		}
		if prefix, err = tensor.Contiguous(prefix); err != nil {
			t.Fatal(err)
		}
		outs, err := p.Run(context.Background(), []value.Value{runtime.InputValue(prefix)})
		if err != nil {
			t.Fatalf("prefix %d: %v", k, err)
		}
		want, err := new(tensor.Tensor).Narrow(c.Outputs[0], 1, 0, k)
		if err != nil {
			t.Fatal(err)
		}
		checkOutputs(t, fmt.Sprintf("prefix %d", k), outs, []*tensor.Tensor{want})
	}
}

// TestLlamaTinyRange: lengths outside s0's range [2, 128] are refused
// before anything runs.
func TestLlamaTinyRange(t *testing.T) {
	_, p := openLlama(t, filepath.Join(llamaDir(), "model.pt2"))
	for _, n := range []int{1, 129} {
		_, err := p.Run(context.Background(), []value.Value{i64(t, 1, n)})
		var ie *runtime.InputError
		if !errors.As(err, &ie) {
			t.Errorf("length %d: %v, want an InputError", n, err)
			continue
		}
		if want := fmt.Sprintf("s0 = %d outside [2, 128]", n); !strings.Contains(err.Error(), want) {
			t.Errorf("length %d: %q does not say %q", n, err, want)
		}
	}
}

// TestLlamaTinyRewrite writes the archive back with seam's writer, reads it
// again and runs the cases: the constants payload (the non-persistent
// buffer) and the symbolic metadata survive the round trip.
func TestLlamaTinyRewrite(t *testing.T) {
	a, _ := openLlama(t, filepath.Join(llamaDir(), "model.pt2"))
	path := filepath.Join(t.TempDir(), "model.pt2")
	if err := pt2.WriteFile(path, a); err != nil {
		t.Fatal(err)
	}
	b, p := openLlama(t, path)
	before, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	after, err := b.Program()
	if err != nil {
		t.Fatal(err)
	}
	opts := cmpopts.EquateEmpty()
	if d := cmp.Diff(before.Graph, after.Graph, opts); d != "" {
		t.Errorf("the graph changed in the round trip:\n%s", d)
	}
	if d := cmp.Diff(before.Signature, after.Signature, opts); d != "" {
		t.Errorf("the signature changed in the round trip:\n%s", d)
	}
	if d := cmp.Diff(before.RangeConstraints, after.RangeConstraints); d != "" {
		t.Errorf("the range constraints changed in the round trip:\n%s", d)
	}
	runCases(t, "rewritten", p, loadCasesIn(t, llamaDir()))
}

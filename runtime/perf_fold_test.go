package runtime

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// hardswish and hardsigmoid in their decomposition's spellings become one
// step each, with the same output bits; variants with other constants, or
// whose intermediates are used elsewhere, stay as they are.
func TestHardActivationsFuse(t *testing.T) {
	s := []int64{4, 37}
	b := newGraph()
	b.input("x", 4, 37)
	// hardswish as 2.x decomposes it: two clamps.
	b.node("a_add", "aten.add.Tensor", s, "x", 3)
	b.node("a_lo", "aten.clamp.default", s, "a_add", 0, nil)
	b.node("a_hi", "aten.clamp.default", s, "a_lo", nil, 6)
	b.node("a_mul", "aten.mul.Tensor", s, "x", "a_hi")
	b.node("a_out", "aten.div.Tensor", s, "a_mul", 6)
	b.output("a_out")
	// hardsigmoid with one clamp.
	b.node("b_add", "aten.add.Tensor", s, "x", 3.0)
	b.node("b_c", "aten.clamp.default", s, "b_add", 0.0, 6.0)
	b.node("b_out", "aten.div.Tensor", s, "b_c", 6)
	b.output("b_out")
	// hardswish with the product the other way round.
	b.node("c_add", "aten.add.Tensor", s, "x", 3)
	b.node("c_c", "aten.clamp.default", s, "c_add", 0, 6)
	b.node("c_mul", "aten.mul.Tensor", s, "c_c", "x")
	b.node("c_out", "aten.div.Tensor", s, "c_mul", 6)
	b.output("c_out")
	// Not hardsigmoid: clamps to [0, 5].
	b.node("d_add", "aten.add.Tensor", s, "x", 3)
	b.node("d_c", "aten.clamp.default", s, "d_add", 0, 5)
	b.node("d_out", "aten.div.Tensor", s, "d_c", 6)
	b.output("d_out")
	// Kept: the clamp is also an output.
	b.node("e_add", "aten.add.Tensor", s, "x", 3)
	b.node("e_c", "aten.clamp.default", s, "e_add", 0, 6)
	b.node("e_out", "aten.div.Tensor", s, "e_c", 6)
	b.output("e_out")
	b.output("e_c")
	load := func(fuse bool) *Program {
		p, err := Load(b.program(), fused(fuse))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	fused, plain := load(true), load(false)
	if got, want := len(fused.plan.steps), len(plain.plan.steps)-4-2-3; got != want {
		t.Fatalf("%d steps fused, want %d (of %d)", got, want, len(plain.plan.steps))
	}
	v := make([]float32, 4*37)
	for i := range v {
		v[i] = float32(i)/10 - 7.3
	}
	v[5], v[6] = float32(math.NaN()), float32(math.Inf(-1))
	x, _ := tensor.FromSlice(v, 4, 37)
	in := []value.Value{value.FromTensor(x)}
	want, err := plain.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fused.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		if !tensor.Equal(got[j].Tensor(), want[j].Tensor()) {
			t.Errorf("output %d differs with fusion", j)
		}
	}
}

// countSteps counts the plan's steps at nodes of target, and those of them
// whose kernel was replaced by a packed matrix product (fewer arguments
// than the schema's).
func countSteps(p *Program, target string) (all, packed int) {
	for _, st := range p.plan.steps {
		if ir.OpName(st.node.Target) != target {
			continue
		}
		all++
		if strings.HasSuffix(target, "mm.default") && len(st.args) < len(st.node.Inputs) {
			packed++
		}
	}
	return all, packed
}

// Batch norm after a convolution folds into it, and every Linear's weight
// is packed once; results stay within rounding of the unrewritten program.
func TestConstantRewrites(t *testing.T) {
	for _, c := range []struct {
		model, cases string
		packed       int
	}{
		{"cnn", "case0 case2", 1},
		{"gpt2_tiny", "case3", 9},
		{"bert_tiny", "case3", 12},
	} {
		load := func(fold bool) *Program {
			if fold {
				return loadFixtureWith(t, c.model, Options{})
			}
			return loadFixtureWith(t, c.model, Options{Disable: folds})
		}
		folded, plain := load(true), load(false)
		_, mm := countSteps(folded, "aten.mm.default")
		_, addmm := countSteps(folded, "aten.addmm.default")
		if mm+addmm != c.packed {
			t.Errorf("%s: %d packed products, want %d", c.model, mm+addmm, c.packed)
		}
		if bn, _ := countSteps(folded, "aten._native_batch_norm_legit_no_training.default"); bn != 0 {
			t.Errorf("%s: %d batch norms left", c.model, bn)
		}
		for _, cs := range strings.Fields(c.cases) {
			in := caseInputs(t, c.model, cs)
			want, err := plain.Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := folded.Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			for j := range want {
				if _, err := tensor.AllClose(got[j].Tensor(), want[j].Tensor(), 1e-5, 1e-6); err != nil {
					t.Errorf("%s %s output %d: %v", c.model, cs, j, err)
				}
			}
		}
	}
}

// In mobilenet_tiny the weight of every convolution over 1x1 planes (the
// squeeze-excite gates: two in each of its five blocks) is packed once,
// also where convact then fused the gate's relu or hardsigmoid into it,
// and no other convolution's is; the output stays within rounding of the
// program loaded without the pack pass.
func TestConvWeightsPacked(t *testing.T) {
	dir := fixtures.ExtraDir("mobilenet_tiny")
	prog := fixtures.Load(t, filepath.Join(dir, "model.pt2"))
	packed, err := Load(prog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Load(prog, Options{Disable: []string{"pack"}})
	if err != nil {
		t.Fatal(err)
	}
	convs, withWeight, withAct := 0, 0, 0
	for _, st := range packed.plan.steps {
		if ir.OpName(st.node.Target) != "aten.convolution.default" {
			continue
		}
		convs++
		if st.conv.weight != nil {
			withWeight++
			if st.conv.act != "" {
				withAct++
			}
		}
	}
	if withWeight != 10 || withAct != 10 {
		t.Errorf("%d of %d convolutions have a packed weight (%d with an activation fused), want 10 (10)", withWeight, convs, withAct)
	}
	_, in := loadExtra(t, "mobilenet_tiny", "case0", true)
	want, err := plain.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := packed.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tensor.AllClose(got[0].Tensor(), want[0].Tensor(), 1e-5, 1e-6); err != nil {
		t.Errorf("output with packed weights: %v", err)
	}
}

// A program gives the same bits on one thread and on several.
func TestThreadsKeepResults(t *testing.T) {
	for _, c := range []struct {
		model, cs string
		extra     bool
	}{{"gpt2_tiny", "case3", false}, {"bert_tiny", "case3", false}, {"cnn", "case2", false},
		{"mobilenet_tiny", "case0", true}, {"mobilenet_tiny_b8", "case0", true}, {"vit_tiny", "case0", true}, {"llama_tiny", "case2", true},
		{"gpt2_l12", "case0", false}} {
		var p *Program
		var in []value.Value
		if c.extra {
			p, in = loadExtra(t, c.model, c.cs, true)
		} else {
			p, in = loadFixture(t, c.model, true), caseInputs(t, c.model, c.cs)
		}
		run := func(threads int) []value.Value {
			p.frames.New = func() any { return newFrame(threads) }
			f := p.frames.Get().(*frame)
			outs, err := f.run(context.Background(), p.plan, p.graphArgs(in))
			if err != nil {
				t.Fatal(err)
			}
			return outs
		}
		want := run(1)
		for _, threads := range []int{2, 4} {
			got := run(threads)
			for j := range want {
				if !tensor.Equal(got[j].Tensor(), want[j].Tensor()) {
					t.Errorf("%s: output %d differs on %d threads", c.model, j, threads)
				}
			}
		}
	}
}

// loadExtra loads a program of fixtures/extra (fused or not) and the
// inputs of one of its cases.
func loadExtra(t testing.TB, name, cs string, fuse bool) (*Program, []value.Value) {
	t.Helper()
	dir := fixtures.ExtraDir(name)
	p, err := Load(fixtures.Load(t, filepath.Join(dir, "model.pt2")), fused(fuse))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := npy.ReadCase(os.DirFS(filepath.Join(dir, "io", cs)))
	if err != nil {
		t.Fatal(err)
	}
	var in []value.Value
	for _, x := range rc.Inputs {
		in = append(in, InputValue(x))
	}
	return p, in
}

// In mobilenet_tiny every relu, hardswish and hardsigmoid that follows a
// convolution runs inside it (kernels.ConvolutionAct), and the program's
// output bits do not change.
func TestConvActivationsFuse(t *testing.T) {
	fused, in := loadExtra(t, "mobilenet_tiny", "case0", true)
	plain, _ := loadExtra(t, "mobilenet_tiny", "case0", false)
	if n, _ := countSteps(fused, "aten.relu.default"); n != 0 {
		t.Errorf("%d relu steps left", n)
	}
	// The classifier's hardswish follows a Linear, not a convolution.
	if n, _ := countSteps(fused, "aten.div.Tensor"); n != 1 {
		t.Errorf("%d hard activations left, want 1", n)
	}
	want, err := plain.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fused.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if !tensor.Equal(got[0].Tensor(), want[0].Tensor()) {
		t.Errorf("output differs with fusion (max diff %g)", tensor.MaxAbsDiff(got[0].Tensor(), want[0].Tensor()))
	}
}

package runtime

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// loadWithFeatures loads a vision model with its first convolution's
// output as a second output: the random-weight fixtures' logits are nearly the same
// for every sample, their first features are not, so a part given the
// wrong samples shows there.
func loadWithFeatures(t testing.TB, model string, opt Options) *Program {
	t.Helper()
	prog := fixtures.Load(t, filepath.Join(fixtures.ExtraDir(model), "model.pt2"))
	var features string
	for _, n := range prog.Graph.Nodes {
		if n.OpName() == "aten.convolution.default" && features == "" {
			features = n.Outputs[0].Name
		}
	}
	prog.Graph.Outputs = append(prog.Graph.Outputs, ir.TensorArg(features))
	prog.Signature.Outputs = append(prog.Signature.Outputs, ir.OutputSpec{Kind: ir.OutputUser, Arg: ir.TensorArg(features)})
	p, err := Load(prog, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func extraInputs(t testing.TB, model string) []value.Value {
	t.Helper()
	return caseInputsIn(t, filepath.Join(fixtures.ExtraDir(model), "io", "case0"))
}

// A conv net whose batch splits runs in as many parts as the machine has
// cores (at most one sample each, the last part smaller when they do not
// divide), on every thread count with the same bits, within rounding of
// the whole batch's run.
func TestBatchPartsBitwise(t *testing.T) {
	defer func(f func() int) { numCPU = f }(numCPU)
	for _, c := range []struct {
		model string
		cores int
		parts int
	}{
		{"mobilenet_tiny_b8", 2, 2},
		{"mobilenet_tiny_b8", 3, 3}, // 3, 3 and 2 samples
		{"mobilenet_tiny", 2, 2},    // 2 and 1 samples, the first helped
		{"mobilenet_tiny", 8, 3},
		{"vit_tiny", 2, 2}, // a sample each, heads merged with the batch
	} {
		in := extraInputs(t, c.model)
		numCPU = func() int { return 1 }
		whole := loadWithFeatures(t, c.model, Options{Threads: 1})
		if k, err := whole.BatchParts(in); k != 1 || err == nil {
			t.Fatalf("%s on one core: %d parts (%v)", c.model, k, err)
		}
		want, err := whole.Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		numCPU = func() int { return c.cores }
		// The input on a pooled storage too, as a module's input is
		// another program's intermediate: the parts must not share its
		// reference count (go test -race).
		x := in[0].Tensor()
		pooled, err := tensor.NewPool().Empty(x.DType(), x.Sizes())
		if err == nil {
			err = tensor.Copy(pooled, x)
		}
		if err != nil {
			t.Fatal(err)
		}
		var first []float32
		for _, threads := range []int{1, 2, 3, 4} {
			p := loadWithFeatures(t, c.model, Options{Threads: threads, FixedThreads: true})
			if k, err := p.BatchParts(in); k != c.parts {
				t.Fatalf("%s on %d cores: %d parts (%v), want %d", c.model, c.cores, k, err, c.parts)
			}
			regions, _ := kernels.Splits()
			out, err := p.Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			again, err := p.Run(context.Background(), []value.Value{value.FromTensor(pooled)})
			if err != nil {
				t.Fatal(err)
			}
			if r, _ := kernels.Splits(); threads > 1 && r == regions {
				t.Errorf("%s on %d threads: nothing split", c.model, threads)
			}
			for n, part := range p.samples.progs {
				if part.samples != nil || part.bySymbols != nil {
					t.Errorf("%s: the part of %d samples runs in parts of its own", c.model, n)
				}
			}
			var got, ref []float32
			for o := range out {
				got = append(got, tensor.Contig[float32](out[o].Tensor())...)
				ref = append(ref, tensor.Contig[float32](want[o].Tensor())...)
			}
			if len(got) != len(ref) {
				t.Fatalf("%s: %d outputs, want %d", c.model, len(got), len(ref))
			}
			for i := range got {
				if d := math.Abs(float64(got[i] - ref[i])); d > 1e-5+1e-5*math.Abs(float64(ref[i])) {
					t.Fatalf("%s, %d parts on %d threads: element %d is %v, the whole batch's %v", c.model, c.parts, threads, i, got[i], ref[i])
				}
			}
			for o := range again {
				a, b := tensor.Contig[float32](again[o].Tensor()), tensor.Contig[float32](out[o].Tensor())
				for i := range a {
					if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
						t.Fatalf("%s: output %d element %d is %v from a pooled input, %v from the same values", c.model, o, i, a[i], b[i])
					}
				}
			}
			if first == nil {
				first = got
				continue
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(first[i]) {
					t.Fatalf("%s, %d parts: element %d is %v on %d threads, %v on one", c.model, c.parts, i, got[i], threads, first[i])
				}
			}
		}
	}
}

// A program whose batch is a symbol runs in parts per binding: those of
// the program specialized to it (cnn: f32[s77, 3, 16, 16]), with the
// same bits on every thread count; a batch of one runs whole; and parts
// are kept for partBindings bindings, the later ones running whole.
func TestBatchPartsSymbolic(t *testing.T) {
	defer func(f func() int, w float64) { numCPU, partMinMACs = f, w }(numCPU, partMinMACs)
	partMinMACs = 0 // cnn is tiny
	numCPU = func() int { return 2 }
	var cases [][]value.Value
	for _, c := range []string{"case0", "case1", "case2"} { // batches 2, 1 and 5
		cases = append(cases, caseInputs(t, "cnn", c))
	}
	numCPU = func() int { return 1 }
	whole := loadFixtureWith(t, "cnn", Options{Threads: 1})
	numCPU = func() int { return 2 }
	var first [][]float32
	for _, threads := range []int{1, 2, 3} {
		p := loadFixtureWith(t, "cnn", Options{Threads: threads, FixedThreads: true})
		for ci, in := range cases {
			batch := in[0].Tensor().Size(0)
			want := min(batch, 2)
			if k, err := p.BatchParts(in); k != want {
				t.Fatalf("batch %d: %d parts (%v), want %d", batch, k, err, want)
			}
			out, err := p.Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			got := tensor.Contig[float32](out[0].Tensor())
			if threads == 1 {
				ref, err := whole.Run(context.Background(), in)
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range tensor.Contig[float32](ref[0].Tensor()) {
					if d := math.Abs(float64(got[i] - r)); d > 1e-6+1e-5*math.Abs(float64(r)) {
						t.Fatalf("batch %d: element %d is %v in parts, %v whole", batch, i, got[i], r)
					}
				}
				first = append(first, got)
				continue
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(first[ci][i]) {
					t.Fatalf("batch %d: element %d is %v on %d threads, %v on one", batch, i, got[i], threads, first[ci][i])
				}
			}
		}
	}
	p := loadFixtureWith(t, "cnn", Options{Threads: 2})
	for n := int64(2); n < 2+partBindings; n++ {
		if s, err := p.samplesAt(sym.Bindings{"s77": n}); s == nil {
			t.Fatalf("s77 = %d: no parts: %v", n, err)
		}
	}
	if s, err := p.samplesAt(sym.Bindings{"s77": 2 + partBindings}); s != nil || err == nil {
		t.Errorf("a binding after %d: parts %v (%v), want none", partBindings, s, err)
	}
	if s, _ := p.samplesAt(sym.Bindings{"s77": 2}); s == nil {
		t.Error("a kept binding lost its parts")
	}
}

// A program whose batch is a static 1 (a language model's input_ids of
// [1, s0]) never looks for parts, whatever its other symbols.
func TestBatchPartsBatchOfOne(t *testing.T) {
	defer func(f func() int) { numCPU = f }(numCPU)
	numCPU = func() int { return 4 }
	p := loadFixtureWith(t, "gpt2_tiny", Options{Threads: 2})
	if p.samples != nil || p.bySymbols != nil {
		t.Errorf("gpt2_tiny looks for parts: %v", p.noSamples)
	}
}

// The parts' programs take the weights, folds and packs their program
// made, rather than a copy each.
func TestBatchPartsShareWeights(t *testing.T) {
	defer func(f func() int) { numCPU = f }(numCPU)
	numCPU = func() int { return 3 } // parts of 3, 3 and 2: two part programs
	p := loadWithFeatures(t, "mobilenet_tiny_b8", Options{Threads: 2})
	count := func() [4]int {
		s := p.shared
		return [4]int{len(s.weights), len(s.folds), len(s.packs), len(s.convs)}
	}
	before := count()
	if before[1] == 0 || before[2] == 0 || before[3] == 0 {
		t.Fatalf("weights, folds, packs and packed convolutions: %v, want some of each", before)
	}
	if _, err := p.Run(context.Background(), extraInputs(t, "mobilenet_tiny_b8")); err != nil {
		t.Fatal(err)
	}
	if len(p.samples.progs) != 2 {
		t.Fatalf("%d part programs, want 2", len(p.samples.progs))
	}
	for n, part := range p.samples.progs {
		if part.shared != p.shared {
			t.Errorf("the part of %d samples keeps its own weights", n)
		}
	}
	if after := count(); after != before {
		t.Errorf("the parts made their own: %v before they loaded, %v after", before, after)
	}
}

// Any input may carry the batch: a program whose first input is a
// [1, L] mask and whose second has a symbolic dim 0 looks for parts.
func TestBatchPartsBatchInSecondInput(t *testing.T) {
	defer func(f func() int) { numCPU = f }(numCPU)
	numCPU = func() int { return 2 }
	b := newGraph()
	b.input("mask", 1, 4)
	b.input("x", 2, 4)
	b.g.TensorValues["x"].Sizes[0] = ir.ExprSym("s0")
	b.node("y", "aten.add.Tensor", []int64{2, 4}, "x", "mask")
	b.g.TensorValues["y"].Sizes[0] = ir.ExprSym("s0")
	b.output("y")
	p, err := Load(b.program(), Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	if p.bySymbols == nil {
		t.Errorf("no parts looked for: %v", p.noSamples)
	}
}

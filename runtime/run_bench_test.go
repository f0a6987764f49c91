package runtime_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/value"
)

// largestCase is the fixture case with the most input elements: the one
// whose speed matters most.
func largestCase(b *testing.B, model string) Case {
	b.Helper()
	cases := loadCases(b, model)
	if len(cases) == 0 {
		b.Fatalf("%s: no cases", model)
	}
	best, bestN := 0, -1
	for i, c := range cases {
		n := 0
		for _, v := range c.Inputs {
			if v.Kind() == value.Tensor {
				n += v.Tensor().Numel()
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	return cases[best]
}

// warm runs the program once (and checks the result against PyTorch's
// outputs), so that the timed runs find its pools filled.
func warm(b *testing.B, p *runtime.Program, c Case) {
	b.Helper()
	outs, err := p.Run(context.Background(), c.Inputs)
	if err != nil {
		b.Fatalf("%s: %v", c.Dir, err)
	}
	// buffer_mutation's expected outputs hold for its first run only.
	if filepath.Base(filepath.Dir(filepath.Dir(c.Dir))) != "buffer_mutation" {
		checkOutputs(b, filepath.Base(c.Dir), outs, c.Outputs)
	}
}

// BenchmarkRun times one Run of every fixture on its largest reference
// case (gpt2_tiny and bert_tiny: io/case3, sequence length 128), in steady
// state. allocs/op counts what a run allocates after the first: the input
// checks and the outputs it hands back, none per op (BenchmarkExecute
// shows the executor alone).
func BenchmarkRun(b *testing.B) {
	ctx := context.Background()
	for _, model := range fixtures.Models() {
		b.Run(model, func(b *testing.B) {
			p := loadProgram(b, model)
			c := largestCase(b, model)
			warm(b, p, c)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := p.Run(ctx, c.Inputs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package runtime_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/value"

	"os"
)

// issueCases are the cases issue 16 times against ONNX Runtime, with the
// folder under fixtures/ that holds each program.
var issueCases = []struct{ folder, model, cas string }{
	{"models", "gpt2_tiny", "case3"},
	{"models", "bert_tiny", "case3"},
	{"models", "cnn", "case2"},
	{"extra", "llama_tiny", "case2"},
	{"extra", "mobilenet_tiny", "case0"},
	{"extra", "mobilenet_tiny_b8", "case0"},
	{"extra", "vit_tiny", "case0"},
	// Not in the issue's table, but its largest fixture: twelve layers of
	// small products, where a thread's hand-off must not cost.
	{"models", "gpt2_l12", "case0"},
}

// BenchmarkCases times the issue's cases on one and on two threads
// (Options.Threads; "fixed": every run split, FixedThreads, otherwise
// the program's choice once it has measured both), for profiles and for
// benchstat across changes;
// `seam bench run` and scripts/bench-vs-ort.sh set them beside ONNX Runtime.
func BenchmarkCases(b *testing.B) {
	ctx := context.Background()
	for _, c := range issueCases {
		dir := filepath.Join(fixtures.Dir(), c.folder, c.model)
		for _, o := range []runtime.Options{{Threads: 1}, {Threads: 2}, {Threads: 2, FixedThreads: true}} {
			name := fmt.Sprintf("%s/threads=%d", c.model, o.Threads)
			if o.FixedThreads {
				name += "-fixed"
			}
			b.Run(name, func(b *testing.B) {
				p, err := runtime.Load(fixtures.Load(b, filepath.Join(dir, "model.pt2")), o)
				if err != nil {
					b.Fatal(err)
				}
				rc, err := npy.ReadCase(os.DirFS(filepath.Join(dir, "io", c.cas)))
				if err != nil {
					b.Fatal(err)
				}
				var in []value.Value
				for _, t := range rc.Inputs {
					in = append(in, runtime.InputValue(t))
				}
				// Enough runs first for the program's choice of threads.
				for range 12 {
					if _, err := p.Run(ctx, in); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				for b.Loop() {
					if _, err := p.Run(ctx, in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

package ortbackend_test

import (
	"context"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort/orttest"
	"github.com/seam-rt/seam/onnx/ortbackend"
	"github.com/seam-rt/seam/runtime"
)

// BenchmarkFixtures runs the last case of some fixtures with seam's
// kernels and in ONNX Runtime (seam's export, one thread), side by side:
//
//	go test ./onnx/ortbackend -run X -bench Fixtures -cpu 1
func BenchmarkFixtures(b *testing.B) {
	lib := orttest.Library(b)
	for _, model := range []string{"gpt2_tiny", "bert_tiny", "cnn", "mlp"} {
		dir := fixtures.ModelDir(model)
		p := loadProgram(b, dir)
		cases := loadCases(b, dir)
		c := cases[len(cases)-1]
		b.Run(model+"/seam", func(b *testing.B) {
			prog, err := runtime.Load(p, runtime.Options{})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := prog.Run(context.Background(), c.inputs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(model+"/onnxruntime", func(b *testing.B) {
			tr, err := onnx.Translate(p)
			if err != nil {
				b.Fatal(err)
			}
			r, err := ortbackend.NewRunner(lib, tr.Model.Marshal(), p, ortbackend.Options{Threads: 1})
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			for b.Loop() {
				if _, err := r.Run(c.inputs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTranslate times translating a program and encoding it.
func BenchmarkTranslate(b *testing.B) {
	p := loadProgram(b, fixtures.ModelDir("gpt2_l12"))
	for b.Loop() {
		tr, err := onnx.Translate(p)
		if err != nil {
			b.Fatal(err)
		}
		_ = tr.Model.Marshal()
	}
}

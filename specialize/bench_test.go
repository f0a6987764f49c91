package specialize_test

import (
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/specialize"
	"github.com/seam-rt/seam/sym"
)

// BenchmarkSpecialize is one specialization of GPT-2 (12 layers, 693
// nodes), as lowering makes one per binding it is asked for.
func BenchmarkSpecialize(b *testing.B) {
	p := readProgram(b, fixtures.ModelDir("gpt2_l12"))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := specialize.Program(p, sym.Bindings{"s53": 128}); err != nil {
			b.Fatal(err)
		}
	}
}

package ir

import (
	"testing"

	"github.com/seam-rt/seam/internal/cputime"
)

// BenchmarkDefUse indexes a decoded 64,000-node chain (decoded, so that
// no two names share their bytes, as in a program read from a file).
func BenchmarkDefUse(b *testing.B) {
	data, err := EncodeProgram(benchChain(64000))
	if err != nil {
		b.Fatal(err)
	}
	p, err := DecodeProgram(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		p.Graph.DefUse()
	}
	cputime.Report(b, cpu, b.N)
}

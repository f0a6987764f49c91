package pt2_test

import (
	"os"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/internal/cputime"
	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// BenchmarkRead reads each fixture from memory: the zip directory, the
// program JSON and the payload configs (weights stay where they are).
func BenchmarkRead(b *testing.B) {
	for _, name := range fixtures.Models() {
		data, err := os.ReadFile(fixtures.Model(name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				if _, err := pt2.ReadBytes(data, name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadChain reads the generated archives the reading targets
// name (a 64,000-node program, a 200,000-node chain) from memory, whole:
// the zip, the program decoded from its record, and its checks.
func BenchmarkReadChain(b *testing.B) {
	for _, c := range []struct {
		name string
		p    func() *ir.Program
	}{
		{"chain_64000", func() *ir.Program { return hostile.Chain(64000, true) }},
		{"chain_200000", func() *ir.Program { return hostile.Chain(200000, false) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			data, err := hostile.Archive(c.p())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			cpu := cputime.Used()
			for i := 0; i < b.N; i++ {
				if _, err := pt2.ReadBytes(data, c.name); err != nil {
					b.Fatal(err)
				}
			}
			cputime.Report(b, cpu, b.N)
		})
	}
}

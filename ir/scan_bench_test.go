package ir

import (
	"testing"

	"github.com/seam-rt/seam/internal/cputime"
)

// BenchmarkScan walks a program's JSON token by token without building
// anything: the floor a decoder that reads each byte once can reach, to
// compare BenchmarkDecodeProgram (package pt2) with.
func BenchmarkScan(b *testing.B) {
	data, err := EncodeProgram(benchChain(64000))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	cpu := cputime.Used()
	for i := 0; i < b.N; i++ {
		d := newDecoder(data)
		if err := d.whole(d.skip); err != nil {
			b.Fatal(err)
		}
	}
	cputime.Report(b, cpu, b.N)
}

package pt2_test

import (
	"os"
	"testing"

	"github.com/seam-rt/seam/fixtures"
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

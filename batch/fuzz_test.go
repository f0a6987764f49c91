package batch

import (
	"archive/zip"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
)

// FuzzFind: no program that decodes makes Find or Program panic, and a
// program Find splits is written for every smaller batch with the sizes
// it promises.
func FuzzFind(f *testing.F) {
	for _, dir := range []string{fixtures.ExtraDir("mobilenet_tiny_b8"), fixtures.ExtraDir("vit_tiny"), fixtures.ModelDir("cnn")} {
		z, err := zip.OpenReader(filepath.Join(dir, "model.pt2"))
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range z.File {
			if strings.HasSuffix(e.Name, "models/model.json") {
				r, err := e.Open()
				if err != nil {
					f.Fatal(err)
				}
				b, err := io.ReadAll(r)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(b)
			}
		}
		z.Close()
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ir.DecodeProgram(data)
		if err != nil {
			return
		}
		s, err := Find(p)
		if err != nil {
			return
		}
		for _, n := range []int64{1, s.N} {
			q, err := s.Program(n)
			if err != nil {
				t.Fatalf("Program(%d) of a batch of %d: %v", n, s.N, err)
			}
			for _, name := range s.batched {
				m := q.Graph.TensorValues[name]
				a := s.axes[name]
				if d := m.Sizes[a].Int; d <= 0 || d%n != 0 {
					t.Fatalf("Program(%d): %s has %d at the batch's dim %d", n, name, d, a)
				}
			}
		}
	})
}

package npy

import (
	"bytes"
	"os"
	"testing"
	"testing/fstest"
)

// FuzzReadCase: no case folder makes ReadCase panic; what it reads has
// as many inputs and outputs as the folder has files in sequence.
func FuzzReadCase(f *testing.F) {
	for _, name := range []string{"f4", "scalar", "fortran", "v2"} {
		b, err := os.ReadFile("testdata/" + name + ".npy")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, b, uint8(0))
	}
	f.Fuzz(func(t *testing.T, in, out []byte, mode uint8) {
		fsys := fstest.MapFS{"in_0.npy": {Data: in}, "out_0.npy": {Data: out}, "in_2.npy": {Data: in}}
		switch mode % 4 {
		case 1:
			fsys["in_1.npy"] = &fstest.MapFile{Mode: os.ModeNamedPipe}
		case 2:
			fsys["out_1.npy"] = &fstest.MapFile{Mode: os.ModeDir}
		case 3:
			fsys["in_1.npy"] = &fstest.MapFile{Data: append(bytes.Clone(in), out...)}
		}
		c, err := ReadCase(fsys)
		if err != nil {
			return
		}
		if len(c.Inputs) < 1 || len(c.Outputs) < 1 || len(c.Inputs) > 2 {
			t.Fatalf("read %d inputs, %d outputs", len(c.Inputs), len(c.Outputs))
		}
	})
}

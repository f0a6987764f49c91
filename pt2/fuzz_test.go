package pt2_test

import (
	"archive/zip"
	"bytes"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// smallFixtures keep fuzzing fast; the large ones add nothing the
// small ones lack.
var smallFixtures = []string{"mlp", "cond", "sym_float", "symint_input", "buffer_mutation", "cnn"}

// FuzzReadArchive: no input makes the reader panic, and whatever it
// accepts writes back and reads again as the same programs.
func FuzzReadArchive(f *testing.F) {
	for _, m := range smallFixtures {
		data, err := os.ReadFile(fixtures.Model(m))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var spec bytes.Buffer
	if err := pt2.Write(&spec, specializedArchive(f), "model"); err != nil {
		f.Fatal(err)
	}
	f.Add(spec.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := pt2.ReadBytes(data, "fuzz.pt2")
		if err != nil {
			return
		}
		_, _ = a.Lowered()
		var buf bytes.Buffer
		if err := pt2.Write(&buf, a, "model"); err != nil {
			// Weights whose bytes cannot be read (corrupt entries) fail
			// here with an error; that is fine, a panic is not.
			return
		}
		b, err := pt2.ReadBytes(buf.Bytes(), "rewritten.pt2")
		if err != nil {
			t.Fatalf("reading what seam wrote: %v", err)
		}
		if diff := cmp.Diff(a.Programs, b.Programs, programOpts); diff != "" {
			t.Fatalf("rewritten archive differs:\n%s", diff)
		}
		if diff := cmp.Diff(a.Specializations, b.Specializations); diff != "" {
			t.Fatalf("rewritten specializations differ:\n%s", diff)
		}
	})
}

// FuzzDecodeProgram: the JSON decoder never panics, and a program it
// accepts encodes and decodes to itself.
func FuzzDecodeProgram(f *testing.F) {
	for _, m := range smallFixtures {
		data, err := os.ReadFile(fixtures.Model(m))
		if err != nil {
			f.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			f.Fatal(err)
		}
		for _, zf := range zr.File {
			if zf.Name == "model/models/model.json" {
				rc, _ := zf.Open()
				var buf bytes.Buffer
				buf.ReadFrom(rc)
				rc.Close()
				f.Add(buf.Bytes())
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ir.DecodeProgram(data)
		if err != nil {
			return
		}
		_ = p.CheckStructure()
		out, err := ir.EncodeProgram(p)
		if err != nil {
			return // e.g. a node whose fields cannot be encoded
		}
		q, err := ir.DecodeProgram(out)
		if err != nil {
			t.Fatalf("decoding what seam encoded: %v\n%s", err, out)
		}
		if diff := cmp.Diff(p, q, programOpts); diff != "" {
			t.Fatalf("re-decoded program differs:\n%s", diff)
		}
	})
}

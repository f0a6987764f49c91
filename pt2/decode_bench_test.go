package pt2_test

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/internal/cputime"
	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/ir"
)

// BenchmarkDecodeProgram decodes model.json alone (whole, and as a stream
// as the archive reader does): gpt2_l12's, and the
// generated programs the reading targets name (64,000 nodes, a
// 200,000-node chain, conds nested 1,000 deep). Compare with Python's
// json.loads on the same bytes: scripts/json_loads.py FILE (the -json-dir
// flag of this benchmark's package writes them: go test ./pt2 -run NONE
// -bench DecodeProgram -args -json-dir DIR).
func BenchmarkDecodeProgram(b *testing.B) {
	cases := []struct {
		name string
		json func() []byte
	}{
		{"gpt2_l12", func() []byte { return fixtureJSON(b, "gpt2_l12") }},
		{"chain_64000", func() []byte { return encode(b, hostile.Chain(64000, true)) }},
		{"nested_cond_1000", func() []byte { return encode(b, hostile.NestedCond(1000)) }},
		{"chain_200000", func() []byte { return encode(b, hostile.Chain(200000, false)) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			data := c.json()
			if dir := *jsonDir; dir != "" {
				if err := os.WriteFile(dir+"/"+c.name+".json", data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			cpu := cputime.Used()
			for i := 0; i < b.N; i++ {
				if _, err := ir.DecodeProgram(data); err != nil {
					b.Fatal(err)
				}
			}
			cputime.Report(b, cpu, b.N)
		})
		// As the archive reader decodes: from the record's reader,
		// never holding the JSON whole.
		b.Run(c.name+"/stream", func(b *testing.B) {
			data := c.json()
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			cpu := cputime.Used()
			for i := 0; i < b.N; i++ {
				if _, err := ir.DecodeProgramFrom(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
			cputime.Report(b, cpu, b.N)
		})
	}
}

func encode(b *testing.B, p *ir.Program) []byte {
	data, err := ir.EncodeProgram(p)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// fixtureJSON returns a fixture's models/model.json.
func fixtureJSON(tb testing.TB, model string) []byte {
	data, err := os.ReadFile(fixtures.Model(model))
	if err != nil {
		tb.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == "model/models/model.json" {
			rc, err := f.Open()
			if err != nil {
				tb.Fatal(err)
			}
			defer rc.Close()
			out, err := io.ReadAll(rc)
			if err != nil {
				tb.Fatal(err)
			}
			return out
		}
	}
	tb.Fatalf("%s has no models/model.json", model)
	return nil
}

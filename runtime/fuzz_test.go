package runtime_test

import (
	"bytes"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/verify"
)

// recordSep separates the records of a fuzzed archive: "name\x00data\x01".
// Fuzzing the zip bytes themselves mostly breaks CRCs, which the reader
// refuses at once; fuzzing the records it holds reaches the programs,
// payload configs and delegate records of a lowered archive.
const recordSep = "\x01"

func encodeRecords(recs []hostile.Record) []byte {
	var b bytes.Buffer
	for _, r := range recs {
		b.WriteString(r.Name)
		b.WriteByte(0)
		b.Write(r.Data)
		b.WriteString(recordSep)
	}
	return b.Bytes()
}

func decodeRecords(data []byte) []hostile.Record {
	var recs []hostile.Record
	for _, part := range bytes.Split(data, []byte(recordSep)) {
		name, body, ok := bytes.Cut(part, []byte{0})
		if ok && len(name) > 0 {
			recs = append(recs, hostile.Record{Name: string(name), Data: body})
		}
	}
	return recs
}

// FuzzReadLowered: no lowered archive makes reading, verifying or loading
// it panic, and what verifies clean loads.
func FuzzReadLowered(f *testing.F) {
	for _, c := range []struct{ model, backend string }{{"gpt2_tiny", "tensor-only"}, {"mlp", "scalar-args"}, {"cond", "reference"}} {
		a, err := pt2.Open(fixtures.Model(c.model))
		if err != nil {
			f.Fatal(err)
		}
		p, _ := a.Program()
		prof, _ := backend.Builtin(c.backend)
		res, err := delegate.Program(p, prof, delegate.Options{})
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if err := pt2.Write(&buf, pt2.FromLowered(res.Lowered, nil), "model"); err != nil {
			f.Fatal(err)
		}
		a.Close()
		recs, err := hostile.Records(buf.Bytes())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(encodeRecords(recs))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		archive, err := hostile.TryZip("model/", decodeRecords(data))
		if err != nil {
			return
		}
		a, err := pt2.ReadBytes(archive, "fuzz.pt2")
		if err != nil {
			return
		}
		if err := a.CheckBytes(); err != nil {
			t.Fatalf("an archive seam wrote fails its CRC check: %v", err)
		}
		l, err := a.Lowered()
		if err != nil {
			return
		}
		vs := verify.Errors(verify.Lowered(l))
		_, err = runtime.LoadLowered(l, runtime.Options{})
		if len(vs) == 0 && err != nil {
			if _, missing := err.(*runtime.MissingKernelsError); !missing {
				t.Logf("verifies clean but does not load: %v", err)
			}
		}
	})
}

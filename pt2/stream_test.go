package pt2_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"hash/crc32"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// TestDamagedProgramIsDamaged: the program record is decoded as it is
// read, so damage that breaks its JSON is met before its CRC is: the
// error must still say the record is damaged, not malformed.
func TestDamagedProgramIsDamaged(t *testing.T) {
	// Larger than the decoder's reads, so that it meets the damage first.
	data, err := hostile.Archive(hostile.Chain(2000, true))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := hostile.Records(data)
	if err != nil {
		t.Fatal(err)
	}
	js := hostile.Find(recs, "models/model.json")
	if len(js) < 1<<20 {
		t.Fatalf("model.json of %d bytes", len(js))
	}
	sum := crc32.ChecksumIEEE(js)
	for _, at := range []int{0, len(js) / 2, len(js) - 1} {
		bad := slices.Clone(js)
		bad[at] = '#'
		arch := hostile.Zip("m/", hostile.With(recs, hostile.Record{Name: "models/model.json", Data: bad, CRC: &sum}))
		// In memory (decoded in place) and through a reader (as read).
		_, inPlace := pt2.ReadBytes(arch, "bad.pt2")
		_, streamed := pt2.Read(bytes.NewReader(arch), int64(len(arch)), "bad.pt2")
		for _, err := range []error{inPlace, streamed} {
			if err == nil {
				t.Fatalf("byte %d: read succeeded", at)
			}
			for _, w := range []string{"models/model.json", "CRC-32", "damaged"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("byte %d: error %q does not say %q", at, err, w)
				}
			}
			if strings.Contains(err.Error(), "malformed") {
				t.Errorf("byte %d: error %q blames the JSON", at, err)
			}
		}
	}
}

// TestReadInPlaceAsStreamed: an archive in memory, whose program records
// are decoded where they lie, reads as the same archive read through an
// io.ReaderAt: the same programs, or the same error, for every fixture
// and every hostile archive.
func TestReadInPlaceAsStreamed(t *testing.T) {
	cases, err := hostile.Cases()
	if err != nil {
		t.Fatal(err)
	}
	archives := map[string][]byte{}
	for _, c := range cases {
		if c.Archive != nil && !c.Slow {
			archives[c.Name] = c.Archive
		}
	}
	for _, m := range fixtures.Models() {
		data, err := os.ReadFile(fixtures.Model(m))
		if err != nil {
			t.Fatal(err)
		}
		archives[m] = data
		archives[m+"_truncated"] = data[:len(data)*3/4]
		// Its program record, last, claiming a byte past the file's end.
		js := hostile.Record{Name: "models/model.json", Data: hostile.Find(fixtureRecords(t, m), "models/model.json")}
		recs := append(hostile.Drop(fixtureRecords(t, m), js.Name), js)
		last := hostile.Zip("m/", recs)
		zr, err := zip.NewReader(bytes.NewReader(last), int64(len(last)))
		if err != nil {
			t.Fatal(err)
		}
		off, err := zr.File[len(zr.File)-1].DataOffset()
		if err != nil {
			t.Fatal(err)
		}
		js.Claim = uint64(int64(len(last))-off) + 1
		archives[m+"_past_the_end"] = hostile.Zip("m/", append(recs[:len(recs)-1], js))
	}
	for name, data := range archives {
		a, inPlace := pt2.ReadBytes(data, "x.pt2")
		b, streamed := pt2.Read(bytes.NewReader(data), int64(len(data)), "x.pt2")
		if fmt.Sprint(inPlace) != fmt.Sprint(streamed) {
			t.Errorf("%s: in place: %v; streamed: %v", name, inPlace, streamed)
			continue
		}
		if inPlace != nil {
			continue
		}
		for model, p := range a.Programs {
			x, errA := ir.EncodeProgram(p)
			y, errB := ir.EncodeProgram(b.Programs[model])
			if errA != nil || errB != nil || !bytes.Equal(x, y) {
				t.Errorf("%s: program %s differs (%v, %v)", name, model, errA, errB)
			}
		}
	}
}

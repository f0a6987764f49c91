package pt2_test

import (
	"hash/crc32"
	"slices"
	"strings"
	"testing"

	"github.com/seam-rt/seam/internal/hostile"
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
		_, err := pt2.ReadBytes(arch, "bad.pt2")
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

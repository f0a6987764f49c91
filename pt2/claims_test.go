package pt2_test

import (
	"crypto/rand"
	"runtime"
	"strings"
	"testing"

	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/pt2"
)

// TestDeflatedClaimIsNotTrusted: a deflated record whose header claims
// 200 MiB (within every limit) but holds 200 KiB is refused having
// allocated about what it holds.
func TestDeflatedClaimIsNotTrusted(t *testing.T) {
	noise := make([]byte, 200<<10)
	rand.Read(noise)
	stream := hostile.Stored(noise)
	recs := append(fixtureRecords(t, "mlp"), hostile.Record{Name: "extra/notes", Data: stream, Deflated: true, Claim: 200 << 20})
	data := hostile.Zip("m/", recs)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := pt2.ReadBytes(data, "claims.pt2")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "holds 204800 bytes, its header says 209715200") {
		t.Errorf("read: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Errorf("allocated %d bytes for a record holding %d", grew, len(noise))
	}
}

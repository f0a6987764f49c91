package pt2_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/limits"
	"github.com/seam-rt/seam/pt2"
)

// TestRecordsCounted: the records limit is checked against the count the
// end record declares, in a zip64 archive (more than 65,535 records) too.
func TestRecordsCounted(t *testing.T) {
	recs := fixtureRecords(t, "mlp")
	for i := 0; i < 70000; i++ {
		recs = append(recs, hostile.Record{Name: fmt.Sprintf("extra/r%d", i)})
	}
	data := hostile.Zip("m/", recs)
	defer limits.Reset()
	limits.Set("records", "69999")
	_, err := pt2.ReadBytes(data, "many.pt2")
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d records in one archive", len(recs))) {
		t.Errorf("zip64 count: %v", err)
	}
	limits.Set("records", "100000")
	if _, err := pt2.ReadBytes(data, "many.pt2"); err != nil {
		t.Errorf("under the limit: %v", err)
	}
}

package pt2_test

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// programOpts compares programs by content; weights by their bytes.
var programOpts = cmp.Options{
	cmpopts.EquateEmpty(),
	cmpopts.EquateNaNs(),
	cmp.Comparer(func(a, b complex128) bool {
		same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
		return same(real(a), real(b)) && same(imag(a), imag(b))
	}),
	cmp.Comparer(func(a, b ir.Blob) bool {
		x, errA := (&ir.Weight{Data: a}).ReadAll()
		y, errB := (&ir.Weight{Data: b}).ReadAll()
		return errA == nil && errB == nil && bytes.Equal(x, y)
	}),
}

func TestReadAllFixtures(t *testing.T) {
	for _, name := range fixtures.Models() {
		t.Run(name, func(t *testing.T) {
			a, err := pt2.Open(fixtures.Model(name))
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			p, err := a.Program()
			if err != nil {
				t.Fatal(err)
			}
			if p.SchemaVersion != (ir.SchemaVersion{Major: 8, Minor: 17}) {
				t.Errorf("schema %v", p.SchemaVersion)
			}
			if len(p.Graph.Nodes) == 0 {
				t.Error("no nodes")
			}
			for fqn, w := range p.Weights {
				if _, err := w.ReadAll(); err != nil {
					t.Errorf("weight %s: %v", fqn, err)
				}
			}
		})
	}
}

func TestRoundTripFixtures(t *testing.T) {
	for _, name := range fixtures.Models() {
		t.Run(name, func(t *testing.T) {
			a, err := pt2.Open(fixtures.Model(name))
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			out := filepath.Join(t.TempDir(), "model.pt2")
			if err := pt2.WriteFile(out, a); err != nil {
				t.Fatal(err)
			}
			b, err := pt2.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if diff := cmp.Diff(a.Programs, b.Programs, programOpts); diff != "" {
				t.Errorf("programs differ after write and read (-read +reread):\n%s", diff)
			}
			if diff := cmp.Diff(a.SampleInputs, b.SampleInputs, programOpts); diff != "" {
				t.Errorf("sample inputs differ:\n%s", diff)
			}
		})
	}
}

package pt2_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// specializedArchive is mlp with two specializations (copies of its
// program: the archive does not look inside them).
func specializedArchive(t testing.TB) *pt2.Archive {
	p := fixtures.Load(t, fixtures.Model("mlp"))
	return pt2.FromLowered(&ir.Lowered{Main: p, Specializations: []*ir.Specialization{
		{Bind: map[string]int64{"s77": 4}, Main: p.Clone()},
		{Bind: map[string]int64{"s77": 7}, Main: p.Clone()},
	}}, nil)
}

func writeRead(t testing.TB, a *pt2.Archive) (*pt2.Archive, error) {
	var buf bytes.Buffer
	if err := pt2.Write(&buf, a, "low"); err != nil {
		t.Fatal(err)
	}
	return pt2.ReadBytes(buf.Bytes(), "low.pt2")
}

// TestSpecializationsRoundTrip: specializations are written as programs
// of their own with data/specializations.json, and read back as
// specializations, not as modules.
func TestSpecializationsRoundTrip(t *testing.T) {
	a := specializedArchive(t)
	if got := a.ModelNames(); !cmp.Equal(got, []string{"model", "specialization_0", "specialization_1"}) {
		t.Errorf("programs %v", got)
	}
	b, err := writeRead(t, a)
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(a.Specializations, b.Specializations) {
		t.Errorf("record %+v read back as %+v", a.Specializations, b.Specializations)
	}
	l, err := b.Lowered()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Modules) != 0 || len(l.Specializations) != 2 || l.Specializations[1].Bind["s77"] != 7 {
		t.Fatalf("read back: %d modules, specializations %+v", len(l.Modules), l.Specializations)
	}
	if diff := cmp.Diff(a.Programs["specialization_1"], l.Specializations[1].Main, programOpts); diff != "" {
		t.Errorf("specialization_1 differs:\n%s", diff)
	}
	// A module that has the name a specialization would take keeps it.
	p := fixtures.Load(t, fixtures.Model("mlp"))
	c := pt2.FromLowered(&ir.Lowered{Main: p,
		Modules:         map[string]*ir.LoweredModule{"specialization_0": {Program: p.Clone(), Delegate: &ir.Delegate{Backend: "tensor-only"}}},
		Specializations: []*ir.Specialization{{Bind: map[string]int64{"s77": 4}, Main: p.Clone()}}}, nil)
	if c.Specializations[0].Program == "specialization_0" || c.Programs[c.Specializations[0].Program] == nil {
		t.Errorf("specialization written as %q", c.Specializations[0].Program)
	}
}

// TestSpecializationsRecordRefused: a record that names a program the
// archive lacks, the main program, one program twice or a lowered module,
// or that is malformed, is an error naming the record.
func TestSpecializationsRecordRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(a *pt2.Archive)
		want string
	}{
		{"missing program", func(a *pt2.Archive) { a.Specializations[0].Program = "nothing" }, "names program nothing, which the archive does not have"},
		{"main program", func(a *pt2.Archive) { a.Specializations[0].Program = "model" }, "names the main program"},
		{"twice", func(a *pt2.Archive) { a.Specializations[1].Program = "specialization_0" }, "which another specialization names too"},
		{"a module", func(a *pt2.Archive) {
			a.Delegates = map[string]*ir.Delegate{"specialization_1": {Backend: "tensor-only"}}
		}, "a lowered module, not a main program"},
		{"no binding", func(a *pt2.Archive) { a.Specializations[0].Bind = nil }, "binds no symbol"},
		{"no program name", func(a *pt2.Archive) { a.Specializations[0].Program = "" }, "names no program"},
		{"malformed", func(a *pt2.Archive) {
			a.Specializations = nil
			a.Other = map[string]ir.Blob{pt2.SpecializationsRecord: ir.Bytes(`{"specializations": 3}`)}
		}, "malformed specializations record"},
		{"no list", func(a *pt2.Archive) {
			a.Specializations = nil
			a.Other = map[string]ir.Blob{pt2.SpecializationsRecord: ir.Bytes(`{}`)}
		}, `no "specializations" list`},
	} {
		a := specializedArchive(t)
		c.edit(a)
		b, err := writeRead(t, a)
		if err == nil {
			_, err = b.Lowered()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), pt2.SpecializationsRecord) {
			t.Errorf("%s: %v, want %q naming %s", c.name, err, c.want, pt2.SpecializationsRecord)
		}
	}
}

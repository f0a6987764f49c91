package pt2_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/pt2"
)

// fixtureRecords returns a fixture's records, names relative to its root.
func fixtureRecords(t testing.TB, model string) []hostile.Record {
	t.Helper()
	recs, err := hostile.FixtureRecords(model)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestReadErrors reads every hostile archive the reader alone must refuse
// (the command line's tests run them all, and the rest, through seam):
// each is a *pt2.Error naming the file and saying what is wrong.
func TestReadErrors(t *testing.T) {
	cases, err := hostile.Cases()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if c.Archive == nil || c.Accept || len(c.Env) > 0 || len(c.Args) != 2 || c.Args[0] != "inspect" {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			_, err := pt2.ReadBytes(c.Archive, "bad.pt2")
			if err == nil {
				t.Fatal("read succeeded")
			}
			var pe *pt2.Error
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *pt2.Error", err)
			}
			for _, w := range c.Want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "bad.pt2") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
	if n < 30 {
		t.Errorf("only %d archive cases", n)
	}
}

func TestReadAcceptsAnyRootAndMinor(t *testing.T) {
	base := fixtureRecords(t, "mlp")
	recs, err := hostile.EditJSON(base, "models/model.json", func(m map[string]any) {
		m["schema_version"] = map[string]any{"major": 8, "minor": 99}
		m["a_future_field"] = "ignored"
		g := m["graph_module"].(map[string]any)["graph"].(map[string]any)
		g["nodes"].([]any)[0].(map[string]any)["another_future_field"] = 1
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := pt2.ReadBytes(hostile.Zip("archive/", recs), "x.pt2")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := a.Program()
	if p.SchemaVersion.Minor != 99 {
		t.Errorf("minor %d", p.SchemaVersion.Minor)
	}
}

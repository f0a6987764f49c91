package report

import (
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/pt2"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var programs sync.Map // fixture name -> *ir.Program

func program(t testing.TB, name string) *ir.Program {
	t.Helper()
	if p, ok := programs.Load(name); ok {
		return p.(*ir.Program)
	}
	a, err := pt2.Open(fixtures.Model(name))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	p, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	programs.Store(name, p)
	return p
}

// build reports fixture model under a built-in backend. Model is the
// fixture name, so that outputs do not depend on the checkout's path.
func build(t testing.TB, model, backendName string) *Report {
	t.Helper()
	p := program(t, model)
	prof, err := backend.Resolve(backendName)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := partition.ProposeProgram(p, prof, partition.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var js []Judgement
	for _, j := range lower.Judge(p, plan, prof, lower.Auto) {
		js = append(js, Judgement(j))
	}
	return Build(p, plan, Options{Model: model, Backend: prof.Name, Judgements: js})
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got; go test ./report -update rewrites it):\n%s", path, diff)
	}
}

func findPartitionInput(r *Report, value string) []Partition {
	var out []Partition
	for _, p := range r.Partitions {
		for _, v := range p.Inputs {
			if v.Name == value {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func inputOf(t *testing.T, p Partition, value string) Value {
	t.Helper()
	for _, v := range p.Inputs {
		if v.Name == value {
			return v
		}
	}
	t.Fatalf("partition %d has no input %s", p.ID, value)
	return Value{}
}

func outputOf(t *testing.T, p Partition, value string) Value {
	t.Helper()
	for _, v := range p.Outputs {
		if v.Name == value {
			return v
		}
	}
	t.Fatalf("partition %d has no output %s", p.ID, value)
	return Value{}
}

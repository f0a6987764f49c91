package partition

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// torchCase is one entry of a fixture's partitions.json.
type torchCase struct {
	ProposeS   float64    `json:"propose_s"`
	Partitions [][]string `json:"partitions"`
}

// TestFixturesAgainstTorch proposes partitions for every fixture model and
// support rule and holds them against torch.fx's CapabilityBasedPartitioner:
// seam must delegate at least as many nodes in no more partitions. Where
// seam's stricter MinCompute (views and scalar ops do not count) makes
// torch's node count unreachable, the test demands a proof: an upper bound
// on what any valid partitioning delegates, or an exhaustive search, below
// torch's count. The per-case figures are kept in a golden file.
func TestFixturesAgainstTorch(t *testing.T) {
	var table strings.Builder
	fmt.Fprintf(&table, "# model rule single: seam partitions/nodes | torch partitions/nodes | torch partitions/nodes with >= MinCompute compute nodes | note\n")
	for _, name := range fixtures.Models() {
		m, err := loadModel(fixtures.Model(name))
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(fixtures.ModelDir(name), "partitions.json"))
		if err != nil {
			t.Fatal(err)
		}
		var cases map[string]torchCase
		if err := json.Unmarshal(data, &cases); err != nil {
			t.Fatal(err)
		}
		d := m.dag()
		for _, rule := range fixtureRules {
			for _, single := range []bool{false, true} {
				key := fmt.Sprintf("%s/single=%s", rule, map[bool]string{false: "False", true: "True"}[single])
				tc, ok := cases[key]
				if !ok {
					t.Fatalf("%s: no %s in partitions.json", name, key)
				}
				r := m.request(rule, single)
				res, err := Propose(d, r)
				if err != nil {
					t.Fatal(err)
				}
				if err := Check(d, r, res.Partitions); err != nil {
					t.Fatalf("%s %s: %v", name, key, err)
				}
				torch := m.torchPartitions(tc.Partitions)
				loose := *r
				loose.MinCompute = 0
				if err := Check(d, &loose, torch); err != nil {
					t.Fatalf("%s %s: torch's own partitions do not check (loader bug?): %v", name, key, err)
				}
				tn, kept, keptN := 0, 0, 0
				for _, p := range torch {
					tn += len(p)
					if computeIn(r, p) >= r.MinCompute {
						kept++
						keptN += len(p)
					}
				}
				sn, sp := res.Delegated(), len(res.Partitions)
				note := ""
				if sn < tn {
					note = unreachable(t, d, r, tn, sn)
					if note == "" {
						t.Errorf("%s %s: seam delegates %d nodes, torch %d", name, key, sn, tn)
					}
				}
				if sn < keptN {
					t.Errorf("%s %s: seam delegates %d nodes, torch %d in partitions that meet MinCompute", name, key, sn, keptN)
				}
				if sp > len(torch) {
					t.Errorf("%s %s: seam makes %d partitions, torch %d", name, key, sp, len(torch))
				}
				fmt.Fprintf(&table, "%-15s %-11s %-5v  %3d/%4d | %3d/%4d | %3d/%4d  %s\n",
					name, rule, single, sp, sn, len(torch), tn, kept, keptN, note)
			}
		}
	}
	golden(t, "torch_comparison.golden", table.String())
}

func computeIn(r *Request, p []int32) int {
	k := 0
	for _, v := range p {
		if r.Compute == nil || r.Compute[v] {
			k++
		}
	}
	return k
}

// unreachable proves that no valid partitioning under r delegates want
// nodes, or returns "". It also checks that seam's got is optimal when the
// exhaustive search runs.
func unreachable(t *testing.T, d *DAG, r *Request, want, got int) string {
	if b := delegableBound(d, r); b < want {
		return fmt.Sprintf("torch's count is unreachable: at most %d nodes can meet MinCompute %d", b, r.MinCompute)
	}
	supported := 0
	for _, ok := range r.Supported {
		if ok {
			supported++
		}
	}
	if supported > 10 {
		return ""
	}
	opt := exhaustive(d, r)
	if opt.nodes != got {
		t.Errorf("exhaustive search delegates %d nodes, seam %d", opt.nodes, got)
	}
	if opt.nodes >= want {
		return ""
	}
	return fmt.Sprintf("torch's count is unreachable: exhaustive search delegates at most %d nodes", opt.nodes)
}

// TestSyntheticAgainstTorch compares with torch.fx on the synthetic DAGs
// (stress_mod5 support, single-node partitions allowed, every node counts).
func TestSyntheticAgainstTorch(t *testing.T) {
	var table strings.Builder
	for _, n := range []int{1000, 4000, 16000} {
		s, err := loadSynthetic(fixtures.Synthetic(fmt.Sprintf("dag_%d.json", n)))
		if err != nil {
			t.Fatal(err)
		}
		r := s.request()
		res, err := Propose(s.DAG, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(s.DAG, r, res.Partitions); err != nil {
			t.Fatal(err)
		}
		for _, version := range []string{"torch113", "torch211"} {
			path := fixtures.Synthetic(fmt.Sprintf("dag_%d.partitions.%s.json", n, version))
			data, err := os.ReadFile(path)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			var torch [][]string
			if err := json.Unmarshal(data, &torch); err != nil {
				t.Fatal(err)
			}
			tn := 0
			for _, p := range torch {
				tn += len(p)
			}
			if res.Delegated() < tn || len(res.Partitions) > len(torch) {
				t.Errorf("dag_%d vs %s: seam %d partitions/%d nodes, torch %d/%d",
					n, version, len(res.Partitions), res.Delegated(), len(torch), tn)
			}
			fmt.Fprintf(&table, "dag_%-6d %s: seam %4d/%5d | torch %4d/%5d\n",
				n, version, len(res.Partitions), res.Delegated(), len(torch), tn)
		}
	}
	golden(t, "synthetic_comparison.golden", table.String())
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -update rewrites it):\n--- want\n%s--- got\n%s", path, want, got)
	}
}

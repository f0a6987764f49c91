package bench

import (
	"os"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/partition"
)

// FuzzParseDAG: no file makes the synthetic-DAG reader panic, and every
// graph it accepts is one the partitioner takes.
func FuzzParseDAG(f *testing.F) {
	data, err := os.ReadFile(fixtures.Synthetic("dag_1000.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[:2000])
	f.Add([]byte(`{"placeholders": ["x0"], "nodes": [["a", "aten.relu.default", ["x0"]], ["b", "aten.add.Tensor", ["a", "a"]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, r, err := ParseDAG(data)
		if err != nil {
			return
		}
		if _, err := partition.Propose(d, r); err != nil {
			t.Fatalf("a parsed DAG is refused: %v", err)
		}
	})
}

func TestParseDAGFixtures(t *testing.T) {
	d, r, err := LoadDAG(fixtures.Synthetic("dag_1000.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := partition.Propose(d, r)
	if err != nil {
		t.Fatal(err)
	}
	// torch 2.11 made 67 partitions of dag_1000 (single-node partitions on).
	if len(d.Preds) != 1000 || len(res.Partitions) > 67 {
		t.Errorf("%d nodes, %d partitions", len(d.Preds), len(res.Partitions))
	}
	if err := partition.Check(d, r, res.Partitions); err != nil {
		t.Error(err)
	}
}

package bench

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/partition"
	"github.com/seam-rt/seam/pt2"
)

// PartitionCase is a graph to partition, with torch.fx's recorded time for
// the same graph and rule (fixtures/README.md; 0: not recorded).
type PartitionCase struct {
	Name string
	// Torch is the recorded CapabilityBasedPartitioner time and where it
	// was taken.
	Torch      time.Duration
	TorchWhere string
	// Nodes is filled when the case is built.
	Nodes int
	run   func() (int, error) // proposes once; returns the partition count
	// file is the graph's file, for torch_partition.py ("" for generated).
	file string
}

// StressMod5 is the fixtures' stress rule: a node is refused when the sum
// of its name's code points is divisible by 5.
func StressMod5(name string) bool {
	s := 0
	for _, r := range name {
		s += int(r)
	}
	return s%5 == 0
}

// stressProfile expresses the stress_mod5 rule as a profile, as a backend
// author would write it: every op, these nodes excluded by name.
func stressProfile(g *ir.Graph) *backend.Profile {
	var excluded []string
	for _, n := range g.Nodes {
		if StressMod5(n.Name) {
			excluded = append(excluded, n.Name)
		}
	}
	data, _ := json.Marshal(map[string]any{
		"name": "stress_mod5", "ops": map[string]any{"include": []string{"*"}},
		"placeholders":  map[string]string{"sym_int": "int", "sym_bool": "int", "sym_float": "int"},
		"exclude_nodes": excluded, "single_node_partitions": true,
	})
	p, err := backend.Parse(data)
	if err != nil {
		panic(err)
	}
	return p
}

// ModelCase partitions a fixture program with the stress_mod5 profile.
func ModelCase(path string, torch time.Duration, where string) (*PartitionCase, error) {
	p, err := readProgram(path)
	if err != nil {
		return nil, err
	}
	prof := stressProfile(p.Graph)
	c := &PartitionCase{Name: filepath.Base(filepath.Dir(path)) + " stress_mod5", Torch: torch, TorchWhere: where, Nodes: len(p.Graph.Nodes), file: path}
	c.run = func() (int, error) {
		plan, err := partition.ProposeGraph(p.Graph, prof, partition.GraphOptions{})
		if err != nil {
			return 0, err
		}
		return len(plan.Partitions), nil
	}
	return c, nil
}

// LoadDAG reads a synthetic DAG file with the stress_mod5 rule.
func LoadDAG(path string) (*partition.DAG, *partition.Request, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	d, r, err := ParseDAG(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, r, nil
}

// ParseDAG reads the dag_N.json form: nodes as [name, target, [inputs]] in
// topological order.
func ParseDAG(data []byte) (*partition.DAG, *partition.Request, error) {
	var f struct {
		Placeholders []string          `json:"placeholders"`
		Nodes        []json.RawMessage `json:"nodes"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, nil, err
	}
	index := map[string]int32{}
	d := &partition.DAG{Preds: make([][]int32, len(f.Nodes))}
	r := &partition.Request{Supported: make([]bool, len(f.Nodes))}
	for i, raw := range f.Nodes {
		var node []json.RawMessage
		if err := json.Unmarshal(raw, &node); err != nil || len(node) != 3 {
			return nil, nil, fmt.Errorf("node %d: want [name, target, [inputs]]", i)
		}
		var name, target string
		var inputs []string
		if json.Unmarshal(node[0], &name) != nil || json.Unmarshal(node[1], &target) != nil || json.Unmarshal(node[2], &inputs) != nil {
			return nil, nil, fmt.Errorf("node %d: want [name, target, [inputs]]", i)
		}
		if _, dup := index[name]; dup {
			return nil, nil, fmt.Errorf("node %d: name %q used twice", i, name)
		}
		for _, in := range inputs {
			if p, ok := index[in]; ok {
				if len(d.Preds[i]) == 0 || d.Preds[i][len(d.Preds[i])-1] != p {
					d.Preds[i] = append(d.Preds[i], p)
				}
			}
		}
		sort.Slice(d.Preds[i], func(a, b int) bool { return d.Preds[i][a] < d.Preds[i][b] })
		d.Preds[i] = dedupe(d.Preds[i])
		index[name] = int32(i)
		r.Supported[i] = !StressMod5(name)
	}
	return d, r, nil
}

func dedupe(s []int32) []int32 {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// DAGCase partitions a synthetic DAG file.
func DAGCase(path string, torch time.Duration, where string) (*PartitionCase, error) {
	d, r, err := LoadDAG(path)
	if err != nil {
		return nil, err
	}
	c := coreCase(filepath.Base(path), d, r, torch, where)
	c.file = path
	return c, nil
}

// GeneratedCase partitions a generated DAG shaped like the synthetic ones:
// each node an add (two inputs) or a relu (one), inputs drawn from the 8
// values made just before, one node in five refused. Deterministic.
func GeneratedCase(n int) *PartitionCase {
	rng := rand.New(rand.NewPCG(uint64(n), 0x5eed))
	d := &partition.DAG{Preds: make([][]int32, n)}
	r := &partition.Request{Supported: make([]bool, n)}
	for v := 0; v < n; v++ {
		made := 2 + v // two graph inputs, then the nodes so far
		for k := 1 + rng.IntN(2); k > 0; k-- {
			q := int32(made - 1 - rng.IntN(min(8, made)) - 2)
			if q >= 0 && (len(d.Preds[v]) == 0 || d.Preds[v][0] != q) {
				d.Preds[v] = append(d.Preds[v], q)
			}
		}
		sort.Slice(d.Preds[v], func(a, b int) bool { return d.Preds[v][a] < d.Preds[v][b] })
		r.Supported[v] = rng.IntN(5) != 0
	}
	return coreCase(fmt.Sprintf("generated %d", n), d, r, 0, "")
}

func coreCase(name string, d *partition.DAG, r *partition.Request, torch time.Duration, where string) *PartitionCase {
	return &PartitionCase{Name: name, Torch: torch, TorchWhere: where, Nodes: len(d.Preds), run: func() (int, error) {
		res, err := partition.Propose(d, r)
		if err != nil {
			return 0, err
		}
		return len(res.Partitions), nil
	}}
}

// PartitionResult is one case's measurement.
type PartitionResult struct {
	*PartitionCase
	Median     time.Duration
	Runs       int
	Partitions int
	// TorchLive and TorchParts are torch.fx measured here, when asked.
	TorchLive  time.Duration
	TorchParts int
	Err        string
}

// TorchPartition times torch.fx's partitioner on the case's graph with
// shared/tools/torch_partition.py (stress_mod5, single-node partitions).
func TorchPartition(tools string, c *PartitionCase) (time.Duration, int, error) {
	if c.file == "" {
		return 0, 0, fmt.Errorf("no file for torch")
	}
	cmd := exec.Command("/usr/bin/python3", filepath.Join(tools, "torch_partition.py"), c.file, "stress_mod5", "1")
	out, err := cmd.Output()
	if err != nil {
		return 0, 0, fmt.Errorf("torch_partition.py: %w", err)
	}
	var r struct {
		ProposeS   float64 `json:"propose_s"`
		Partitions int     `json:"partitions"`
	}
	if err := json.Unmarshal(lastLine(out), &r); err != nil {
		return 0, 0, fmt.Errorf("torch_partition.py printed %q: %w", out, err)
	}
	return time.Duration(r.ProposeS * float64(time.Second)), r.Partitions, nil
}

// TimePartition proposes repeatedly until minRuns runs and minTime passed.
func TimePartition(c *PartitionCase, minRuns int, minTime time.Duration) PartitionResult {
	r := PartitionResult{PartitionCase: c}
	var times []time.Duration
	start := time.Now()
	for len(times) < minRuns || time.Since(start) < minTime {
		t0 := time.Now()
		n, err := c.run()
		if err != nil {
			r.Err = err.Error()
			return r
		}
		times = append(times, time.Since(t0))
		r.Partitions = n
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	r.Median, r.Runs = times[len(times)/2], len(times)
	return r
}

// GrowthExponent fits t ∝ n^k between two measurements.
func GrowthExponent(n1 int, t1 time.Duration, n2 int, t2 time.Duration) float64 {
	return math.Log(float64(t2)/float64(t1)) / math.Log(float64(n2)/float64(n1))
}

// ProfileCase partitions a program for a backend profile as seam
// partition does (the graphs nested in nodes left to the parent too);
// torch.fx has no recorded figure for it.
func ProfileCase(path string, prof *backend.Profile) (*PartitionCase, error) {
	p, err := readProgram(path)
	if err != nil {
		return nil, err
	}
	c := &PartitionCase{Name: path + " for " + prof.Name}
	_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
		c.Nodes += len(g.Nodes)
		return nil
	})
	c.run = func() (int, error) {
		plan, err := partition.ProposeProgram(p, prof, partition.GraphOptions{})
		if err != nil {
			return 0, err
		}
		n := 0
		var count func(pl *partition.Plan)
		count = func(pl *partition.Plan) {
			n += len(pl.Partitions)
			for _, nested := range pl.Nested {
				count(nested)
			}
		}
		count(plan)
		return n, nil
	}
	return c, nil
}

// readProgram reads an archive's main program (partitioning needs no
// weights).
func readProgram(path string) (*ir.Program, error) {
	a, err := pt2.Open(path)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	p, err := a.Program()
	if err != nil {
		return nil, &pt2.Error{File: path, Err: err}
	}
	return p, nil
}

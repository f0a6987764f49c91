package partition

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/pt2"
)

// ruleProfile writes a support rule of the fixtures' partitions.json as the
// profile file a backend author would write (shared/tools/graph.py's
// profile()), and reads it back.
func ruleProfile(t *testing.T, rule string, single bool, g *ir.Graph) *backend.Profile {
	t.Helper()
	ops := map[string]map[string][]string{
		"no_embedding": {"include": {"*"}, "exclude": {"*embedding*", "*index*"}},
		"no_sym_ops":   {"include": {"*"}, "exclude": {"*sym_size*", "*sym_numel*", "*sym_stride*", "_operator.*", "math.*"}},
		"matmul_only":  {"include": {"aten.mm.*", "aten.addmm.*", "aten.bmm.*", "aten.linear.*", "aten.matmul.*", "aten.convolution.*"}},
		"stress_mod5":  {"include": {"*"}},
	}[rule]
	file := map[string]any{
		"name": fmt.Sprintf("%s-single%v", rule, single), "ops": ops,
		"placeholders":   map[string]string{"sym_int": "int", "sym_bool": "int", "sym_float": "int"},
		"dynamic_shapes": true, "single_node_partitions": single, "full_graph": false,
	}
	if rule == "stress_mod5" {
		var excluded []string
		for _, n := range g.Nodes {
			if stressExcluded(n.Name) {
				excluded = append(excluded, n.Name)
			}
		}
		file["exclude_nodes"] = excluded
	}
	path := filepath.Join(t.TempDir(), "profile.json")
	data, _ := json.Marshal(file)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := backend.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProfilesAgainstTorch is the comparison with torch.fx through the path
// a user takes: each support rule as a profile file, each fixture read as a
// program, ProposeGraph. Every plan is valid; it makes no more partitions
// than torch did, and delegates at least as many nodes, unless no valid
// partitioning under the two-compute-node rule can (proved as in
// TestFixturesAgainstTorch).
func TestProfilesAgainstTorch(t *testing.T) {
	for _, name := range fixtures.Models() {
		a, err := pt2.Open(fixtures.Model(name))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := a.Program()
		g := p.Graph
		data, err := os.ReadFile(filepath.Join(fixtures.ModelDir(name), "partitions.json"))
		if err != nil {
			t.Fatal(err)
		}
		var cases map[string]torchCase
		if err := json.Unmarshal(data, &cases); err != nil {
			t.Fatal(err)
		}
		producer := map[string]string{}
		top := map[string]bool{}
		for _, n := range g.Nodes {
			top[n.Name] = true
			n.ForEachOutputRef(func(v string) { producer[v] = n.Name })
		}
		for _, rule := range fixtureRules {
			for _, single := range []bool{false, true} {
				key := fmt.Sprintf("%s/single=%s", rule, map[bool]string{false: "False", true: "True"}[single])
				prof := ruleProfile(t, rule, single, g)
				plan, err := ProposeGraph(g, prof, GraphOptions{})
				if err != nil {
					t.Fatalf("%s %s: %v", name, key, err)
				}
				d, r, _, _ := GraphRequest(g, prof, GraphOptions{})
				parts := make([][]int32, len(plan.Partitions))
				sn := 0
				for i, part := range plan.Partitions {
					for _, j := range part {
						parts[i] = append(parts[i], int32(j))
					}
					sn += len(part)
				}
				if err := Check(d, r, parts); err != nil {
					t.Fatalf("%s %s: %v", name, key, err)
				}
				// torch's partitions, getitems folded into their producers,
				// nested-graph nodes left out.
				tn, tp := 0, 0
				for _, tpart := range cases[key].Partitions {
					seen := map[string]bool{}
					for _, v := range tpart {
						n := v
						if !top[n] {
							n = producer[v]
						}
						if n != "" && !seen[n] {
							seen[n] = true
							tn++
						}
					}
					if len(seen) > 0 {
						tp++
					}
				}
				if len(plan.Partitions) > tp {
					t.Errorf("%s %s: %d partitions, torch %d", name, key, len(plan.Partitions), tp)
				}
				if sn < tn {
					if note := unreachable(t, d, r, tn, sn); !strings.Contains(note, "unreachable") {
						t.Errorf("%s %s: delegates %d nodes, torch %d", name, key, sn, tn)
					}
				}
			}
		}
		a.Close()
	}
}

// TestGraphRequestPerNode: the request marks compute nodes by their op's
// class, and supported nodes by the backend's verdict on each (both are
// worked out once per op), for every node of every fixture graph.
func TestGraphRequestPerNode(t *testing.T) {
	prof, _ := backend.Builtin("tensor-only")
	computes := 0
	for _, model := range fixtures.Models() {
		p := fixtures.Load(t, fixtures.Model(model))
		_ = p.Graph.Walk(func(path string, g *ir.Graph) error {
			_, req, verdicts, err := GraphRequest(g, prof, GraphOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range g.Nodes {
				c := ops.ClassOf(n.Target)
				if want := c == ops.Compute || c == ops.Control; req.Compute[i] != want {
					t.Errorf("%s %s (%s): compute %v, want %v", model, ir.PathName(path, n.Name), n.Target, req.Compute[i], want)
				}
				if req.Compute[i] {
					computes++
				}
				if want := prof.Supports(g, n); verdicts[i] != want || req.Supported[i] != want.OK() {
					t.Errorf("%s %s: verdict %v (supported %v), want %v", model, ir.PathName(path, n.Name), verdicts[i], req.Supported[i], want)
				}
			}
			return nil
		})
	}
	if computes == 0 {
		t.Error("no compute node in the fixtures")
	}
}

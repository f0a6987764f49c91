package partition

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
)

// plainBoundary is what crosses partition k's cut, worked out the plain
// way: every value a node of k reads that no node of k defines (but
// something does), in the order read; every value a node of k defines
// that a node outside k, or the graph's outputs, read.
func plainBoundary(p *Plan, k int) Boundary {
	g := p.Graph
	in := map[int]bool{}
	for _, i := range p.Partitions[k] {
		in[i] = true
	}
	def := map[string]int{}
	for _, name := range g.InputNames() {
		def[name] = -1
	}
	for i, n := range g.Nodes {
		for _, o := range n.OutputNames() {
			def[o] = i
		}
	}
	outputs := map[string]bool{}
	for i := range g.Outputs {
		for _, r := range g.Outputs[i].Refs() {
			outputs[r] = true
		}
	}
	var b Boundary
	seen := map[string]bool{}
	for _, i := range p.Partitions[k] {
		g.Nodes[i].ForEachInputRef(func(v string) {
			d, ok := def[v]
			if !ok || seen[v] || (d >= 0 && in[d]) {
				return
			}
			seen[v] = true
			b.Inputs = append(b.Inputs, BoundaryValue{Name: v, Type: g.TypeOf(v), Producer: d})
		})
		for _, o := range g.Nodes[i].OutputNames() {
			var users []int
			for j, n := range g.Nodes {
				uses := false
				n.ForEachInputRef(func(v string) { uses = uses || v == o })
				if uses && !in[j] {
					users = append(users, j)
				}
			}
			if len(users) > 0 || outputs[o] {
				b.Outputs = append(b.Outputs, BoundaryValue{Name: o, Type: g.TypeOf(o), Producer: i, Users: users, GraphOutput: outputs[o]})
			}
		}
	}
	return b
}

// TestBoundaries: the boundary values a plan carries are the plain
// computation's, for every fixture, every built-in profile and every
// graph the plan covers, and every partition input and output has its
// value's kind.
func TestBoundaries(t *testing.T) {
	dirs := map[string]string{}
	for _, name := range fixtures.Models() {
		dirs[name] = fixtures.ModelDir(name)
	}
	for _, name := range fixtures.Extras() {
		dirs["extra/"+name] = fixtures.ExtraDir(name)
	}
	checked := 0
	for name, dir := range dirs {
		p := fixtures.Load(t, filepath.Join(dir, "model.pt2"))
		for _, prof := range []string{"reference", "tensor-only", "matmul-only"} {
			b, _ := backend.Builtin(prof)
			plan, err := ProposeProgram(p, b, GraphOptions{})
			if err != nil {
				t.Fatalf("%s/%s: %v", name, prof, err)
			}
			plan.Walk(func(pl *Plan) {
				if len(pl.Boundaries) != len(pl.Partitions) {
					t.Fatalf("%s/%s %q: %d boundaries for %d partitions", name, prof, pl.Path, len(pl.Boundaries), len(pl.Partitions))
				}
				for k := range pl.Partitions {
					want := plainBoundary(pl, k)
					if diff := cmp.Diff(want, pl.Boundaries[k], cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("%s/%s %q partition %d:\n%s", name, prof, pl.Path, k, diff)
					}
					for _, v := range slices.Concat(pl.Boundaries[k].Inputs, pl.Boundaries[k].Outputs) {
						if v.Type == ir.ValueUnknown {
							t.Errorf("%s/%s: %s crosses without a kind", name, prof, v.Name)
						}
					}
					checked++
				}
			})
		}
	}
	if checked < 50 {
		t.Errorf("only %d partitions checked", checked)
	}
}

// TestProposeProgramExcludesNested: nodes of nested graphs are excluded by
// path and name, and only there.
func TestProposeProgramExcludesNested(t *testing.T) {
	p := fixtures.Load(t, fixtures.Model("cond"))
	prof, _ := backend.Builtin("tensor-only")
	plan, err := ProposeProgram(p, prof, GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var nested *Plan
	var node string
	plan.Walk(func(pl *Plan) {
		if pl.Path != "" && nested == nil && len(pl.Partitions) > 0 {
			nested, node = pl, pl.Graph.Nodes[pl.Partitions[0][0]].Name
		}
	})
	if nested == nil {
		t.Fatal("no nested graph with a partition: the test tests nothing")
	}
	again, err := ProposeProgram(p, prof, GraphOptions{Exclude: map[string]bool{ir.PathName(nested.Path, node): true}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	again.Walk(func(pl *Plan) {
		for i := range pl.Graph.Nodes {
			v := pl.Verdict(i)
			if v.Reason == "excluded by policy" {
				if pl.Path != nested.Path || v.Node != node {
					t.Errorf("%s excluded in %q", v.Node, pl.Path)
				}
				found = true
			}
		}
	})
	if !found {
		t.Errorf("%s was not excluded in %s", node, nested.Path)
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/fixtures"
)

// seamOut runs the command line in process with stdout and stderr apart.
func seamOut(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	root := newRoot()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		t.Fatalf("seam %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), errOut.String()
}

type etTags struct {
	Tags       map[string]string `json:"tags"`
	Partitions map[string]string `json:"partitions"`
}

// TestExecuTorchTagsMatchGraphTxt checks, for every fixture and built-in
// backend, the tags against the fixture's graph.txt read as text: every
// name is an FX node or placeholder there, every delegated node is tagged
// with its partition, a getitem or get_attr node has the tag of the node
// it belongs to, and a parameter, buffer or constant is tagged exactly
// when all its users (read off graph.txt) carry one tag.
func TestExecuTorchTagsMatchGraphTxt(t *testing.T) {
	checked := map[string]int{}
	for _, model := range fixtures.Models() {
		graphs, err := fixtures.ReadGraphTxt(model)
		if err != nil {
			t.Fatal(err)
		}
		var summary struct {
			Inputs []struct{ Name, Kind string } `json:"inputs"`
		}
		if err := json.Unmarshal([]byte(mustSeam(t, "inspect", "--json", fixtures.Model(model))), &summary); err != nil {
			t.Fatal(err)
		}
		kinds := map[string]string{}
		for _, in := range summary.Inputs {
			kinds[in.Name] = in.Kind
		}
		for _, b := range backend.BuiltinNames() {
			if prof, _ := backend.Builtin(b); prof.FullGraph {
				continue
			}
			t.Run(model+"/"+b, func(t *testing.T) {
				out, _ := seamOut(t, "partition", fixtures.Model(model), "--backend", b, "--executorch-tags")
				var got etTags
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("not one JSON document: %v\n%s", err, out)
				}
				var rep struct {
					Partitions []struct {
						ID    int      `json:"id"`
						Nodes []string `json:"nodes"`
					} `json:"partitions"`
				}
				if err := json.Unmarshal([]byte(mustSeam(t, "partition", fixtures.Model(model), "--backend", b, "--json")), &rep); err != nil {
					t.Fatal(err)
				}
				checkTags(t, got, graphs, kinds, b)
				// Each partition of the report is one tag with the same nodes.
				if len(got.Partitions) != len(rep.Partitions) {
					t.Errorf("%d tags for %d partitions", len(got.Partitions), len(rep.Partitions))
				}
				calls := map[string][]string{}
				for _, g := range graphs {
					for _, n := range g.Nodes {
						if tag, ok := got.Tags[qualify(g.Module, n.Name)]; ok && n.Op == "call_function" {
							calls[tag] = append(calls[tag], n.Name)
						}
					}
				}
				for _, p := range rep.Partitions {
					tag := fmt.Sprintf("tag%d", p.ID)
					if strings.Join(calls[tag], " ") != strings.Join(p.Nodes, " ") {
						t.Errorf("%s holds %v, partition %d %v", tag, calls[tag], p.ID, p.Nodes)
					}
				}
				checked["names"] += len(got.Tags)
			})
		}
	}
	if checked["names"] < 1000 {
		t.Errorf("only %d names checked", checked["names"])
	}
}

func qualify(module, name string) string {
	if module == "" {
		return name
	}
	return module + "." + name
}

func checkTags(t *testing.T, got etTags, graphs []*fixtures.FXGraph, kinds map[string]string, backendName string) {
	t.Helper()
	known := map[string]bool{}
	for _, g := range graphs {
		for _, name := range g.Placeholders {
			known[qualify(g.Module, name)] = true
		}
		for _, n := range g.Nodes {
			known[qualify(g.Module, n.Name)] = true
		}
	}
	for name, tag := range got.Tags {
		if !known[name] {
			t.Errorf("tag of %s: no such FX node or placeholder in graph.txt", name)
		}
		if got.Partitions[tag] != backendName {
			t.Errorf("%s has tag %s, which partitions maps to %q", name, tag, got.Partitions[tag])
		}
	}
	for _, g := range graphs {
		users := map[string][]string{} // placeholder -> the nodes that use it
		for _, n := range g.Nodes {
			key := qualify(g.Module, n.Name)
			switch n.Op {
			case "getitem", "get_attr":
				owner := n.Of // the node whose result a getitem takes
				if n.Op == "get_attr" {
					owner = userOf(g, n.Name)
				}
				if want, have := got.Tags[qualify(g.Module, owner)], got.Tags[key]; want != have {
					t.Errorf("%s %s has tag %q, %s has %q", n.Op, n.Name, have, owner, want)
				}
			}
			for _, u := range n.Uses {
				users[u] = append(users[u], key)
			}
		}
		if g.Module != "" {
			continue // a nested graph's placeholders are operands, never constants
		}
		for _, r := range g.Returns {
			users[r] = append(users[r], "(output)")
		}
		for _, p := range g.Placeholders {
			tag, tagged := got.Tags[p]
			switch kinds[p] {
			case "parameter", "buffer", "tensor_constant":
				userTags := map[string]bool{}
				for _, u := range users[p] {
					userTags[got.Tags[u]] = true
				}
				want := ""
				if len(userTags) == 1 {
					for t := range userTags {
						want = t
					}
				}
				if tag != want {
					t.Errorf("%s %s has tag %q, its users %v want %q", kinds[p], p, tag, users[p], want)
				}
			default:
				if tagged {
					t.Errorf("%s %s is tagged %s", kinds[p], p, tag)
				}
			}
		}
	}
}

// userOf names the one node that uses a get_attr's value.
func userOf(g *fixtures.FXGraph, name string) string {
	for _, n := range g.Nodes {
		for _, u := range n.Uses {
			if u == name {
				return n.Name
			}
		}
	}
	return ""
}

// TestExecuTorchTagsSharedWeight: GPT-2 ties the embedding and the lm
// head; under tensor-only the embedding stays with the parent, so the
// weight has two owners and is left untagged, with a warning naming it.
func TestExecuTorchTagsSharedWeight(t *testing.T) {
	out, stderr := seamOut(t, "partition", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "--executorch-tags")
	var got etTags
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got.Tags["p_m_lm_head_weight"]; ok {
		t.Errorf("the tied weight p_m_lm_head_weight is tagged")
	}
	if !strings.Contains(stderr, "p_m_lm_head_weight (parameter) is used by the parent program and tag") {
		t.Errorf("no warning about the tied weight:\n%s", stderr)
	}
	if got.Tags["p_m_transformer_h_0_attn_c_attn_weight"] == "" || got.Tags["getitem"] == "" {
		t.Errorf("a weight of one partition or a getitem is untagged: %v", got.Tags)
	}
	if _, _, err := seam(t, "partition", fixtures.Model("gpt2_tiny"), "--backend", "tensor-only", "--executorch-tags", "--json"); err == nil {
		t.Errorf("--json with --executorch-tags: no error")
	}
}

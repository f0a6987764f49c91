package report

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSeedLikeTensorOnly(t *testing.T) {
	r := build(t, "seed_like", "tensor-only")
	want := Summary{Graphs: 1, Nodes: 15, Delegated: 13, Partitions: 1, Unsupported: 2, SymbolicInputs: 1}
	if diff := cmp.Diff(want, r.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	p := r.Partitions[0]
	if p.Nodes[0] != "permute" || p.Nodes[len(p.Nodes)-1] != "add_31" {
		t.Errorf("nodes = %v, want graph order from permute to add_31", p.Nodes)
	}
	// Inputs in order of first use, each with where it comes from.
	var got []string
	for _, v := range p.Inputs {
		got = append(got, v.Name+" "+v.Type+" "+v.Annotation+" "+origin(v))
	}
	wantIn := []string{
		"embedding tensor f32[1, s53, 256] node embedding",
		"sym_size_int_5 sym_int Sym(s53) node sym_size_int_5",
		"attention_mask tensor i64[1, s53] user_input",
		"p_proj_weight tensor f32[16, 256] parameter",
		"p_proj_bias tensor f32[16] parameter",
	}
	if diff := cmp.Diff(wantIn, got); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if v := inputOf(t, p, "sym_size_int_5"); !v.Symbolic || v.Producer != "sym_size_int_5" {
		t.Errorf("sym_size_int_5 = %+v, want a symbolic input made by node sym_size_int_5", v)
	}
	out := outputOf(t, p, "add_31")
	if !slices.Equal(out.To, []string{"user_output"}) || len(p.Outputs) != 1 {
		t.Errorf("outputs = %+v, want add_31 to user_output only", p.Outputs)
	}
	wantU := []Unsupported{
		{Node: "sym_size_int_5", Target: "aten.sym_size.int", Reason: "op excluded", Detail: `aten.sym_size.int matches "aten.sym_*"`},
		{Node: "embedding", Target: "aten.embedding.default", Reason: "op excluded", Detail: `aten.embedding.default matches "aten.embedding*"`},
	}
	if diff := cmp.Diff(wantU, r.Unsupported); diff != "" {
		t.Errorf("unsupported (-want +got):\n%s", diff)
	}
}

func TestGPT2TinyTensorOnly(t *testing.T) {
	r := build(t, "gpt2_tiny", "tensor-only")
	if r.Summary.Nodes != 153 || r.Summary.Delegated != 149 || r.Summary.Partitions != 2 {
		t.Errorf("summary = %+v, want 149 of 153 nodes in 2 partitions", r.Summary)
	}
	// The boundary problem: every partition that uses the sequence length
	// receives it as a symbolic placeholder made by the parent.
	ps := findPartitionInput(r, "sym_size_int_24")
	if len(ps) != 2 {
		t.Fatalf("sym_size_int_24 enters %d partitions, want 2", len(ps))
	}
	for _, p := range ps {
		v := inputOf(t, p, "sym_size_int_24")
		refused := false
		want := Value{Name: "sym_size_int_24", Type: "sym_int", Annotation: "Sym(s53)", Symbolic: true, From: "node", Producer: "sym_size_int_24",
			Accepted: &refused, Policy: "rederive", PolicyDetail: "recomputed from the sizes of tensors the module receives"}
		if diff := cmp.Diff(want, v); diff != "" {
			t.Errorf("partition %d input (-want +got):\n%s", p.ID, diff)
		}
	}
	if r.Summary.SymbolicInputs != 2 {
		t.Errorf("symbolic inputs = %d, want 2", r.Summary.SymbolicInputs)
	}
	// Values between partitions name the partition they come from and go to.
	p1 := r.Partitions[1]
	if v := inputOf(t, p1, "bitwise_and"); v.From != "partition 0" || v.Producer != "bitwise_and" {
		t.Errorf("bitwise_and = %+v, want from partition 0", v)
	}
	if v := outputOf(t, r.Partitions[0], "bitwise_and"); !slices.Equal(v.To, []string{"partition 1"}) || !slices.Equal(v.Users, []string{"bitwise_and_1"}) {
		t.Errorf("bitwise_and output = %+v, want to partition 1 (bitwise_and_1)", v)
	}
	if v := outputOf(t, r.Partitions[0], "view"); !slices.Equal(v.To, []string{"node"}) || !slices.Equal(v.Users, []string{"embedding"}) {
		t.Errorf("view output = %+v, want to node embedding", v)
	}
	if v := inputOf(t, r.Partitions[0], "c_m_transformer_lifted_tensor_0"); v.From != "tensor_constant" {
		t.Errorf("lifted constant comes from %q, want tensor_constant", v.From)
	}
	if v := outputOf(t, p1, "view_40"); !slices.Equal(v.To, []string{"user_output"}) {
		t.Errorf("view_40 goes to %v, want user_output", v.To)
	}
	groups := r.ByReason()
	if len(groups) != 1 || groups[0].Reason != "op excluded" {
		t.Fatalf("reasons = %+v, want only op excluded", groups)
	}
	var names []string
	for _, u := range groups[0].Nodes {
		names = append(names, u.Node)
	}
	if diff := cmp.Diff([]string{"sym_size_int_24", "embedding", "embedding_1", "index"}, names); diff != "" {
		t.Errorf("op excluded nodes (-want +got):\n%s", diff)
	}
}

// Every delegated node is in exactly one partition, and partition ids are
// their indices, for every fixture and built-in backend.
func TestPartitionsCoverDelegatedNodes(t *testing.T) {
	for _, model := range []string{"seed_like", "gpt2_tiny", "cond", "symint_input", "sym_float", "buffer_mutation"} {
		for _, b := range []string{"reference", "tensor-only", "scalar-args", "static-shapes", "matmul-only"} {
			r := build(t, model, b)
			seen := map[string]bool{}
			for i, p := range r.Partitions {
				if p.ID != i {
					t.Errorf("%s/%s: partition %d has id %d", model, b, i, p.ID)
				}
				for _, n := range p.Nodes {
					key := p.Graph + "/" + n
					if seen[key] {
						t.Errorf("%s/%s: %s in two partitions", model, b, key)
					}
					seen[key] = true
				}
				for _, v := range p.Inputs {
					if v.From == "" || v.Type == "" {
						t.Errorf("%s/%s: partition %d input %+v lacks its origin or type", model, b, i, v)
					}
					if v.From == "partition "+strconv.Itoa(p.ID) {
						t.Errorf("%s/%s: partition %d receives %s from itself", model, b, i, v.Name)
					}
				}
				for _, v := range p.Outputs {
					if len(v.To) == 0 {
						t.Errorf("%s/%s: partition %d output %s goes nowhere", model, b, i, v.Name)
					}
				}
			}
			if got := len(seen) + len(r.Unsupported); got != r.Summary.Nodes {
				t.Errorf("%s/%s: %d delegated + %d unsupported != %d nodes", model, b, len(seen), len(r.Unsupported), r.Summary.Nodes)
			}
		}
	}
}

func TestNestedGraphs(t *testing.T) {
	r := build(t, "cond", "tensor-only")
	if r.Summary.Graphs != 3 || len(r.Partitions) != 2 {
		t.Fatalf("summary = %+v, want 2 partitions over 3 graphs", r.Summary)
	}
	for i, path := range []string{"cond.true_graph_0", "cond.false_graph_0"} {
		p := r.Partitions[i]
		if p.ID != i || p.Graph != path {
			t.Errorf("partition %d = id %d graph %q, want graph %s", i, p.ID, p.Graph, path)
		}
		if v := inputOf(t, p, "x"); v.From != "graph_input" || v.Annotation != "f32[s77, 8]" {
			t.Errorf("%s input x = %+v, want a graph_input f32[s77, 8]", path, v)
		}
	}
	reasons := map[string]string{}
	for _, u := range r.Unsupported {
		reasons[u.Node] = u.Reason
	}
	want := map[string]string{"sym_size_int_1": "op excluded", "gt": "op not included", "cond": "op not included"}
	if diff := cmp.Diff(want, reasons); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}

// A dynamic int user input is symbolic even though nothing is cut.
func TestSymbolicUserInput(t *testing.T) {
	r := build(t, "symint_input", "tensor-only")
	v := inputOf(t, r.Partitions[0], "n")
	if !v.Symbolic || v.Type != "sym_int" || v.From != "user_input" || !strings.HasPrefix(v.Annotation, "Sym(") {
		t.Errorf("n = %+v, want a symbolic user input", v)
	}
}

func TestTextGolden(t *testing.T) {
	for _, c := range []struct{ model, backend string }{
		{"seed_like", "tensor-only"}, {"gpt2_tiny", "tensor-only"}, {"cond", "tensor-only"},
	} {
		var buf bytes.Buffer
		if err := build(t, c.model, c.backend).WriteText(&buf); err != nil {
			t.Fatal(err)
		}
		golden(t, c.model+"-"+c.backend+".txt", buf.Bytes())
	}
}

func TestTextMarksSymbolicInputs(t *testing.T) {
	var buf bytes.Buffer
	if err := build(t, "gpt2_tiny", "tensor-only").WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	marked := 0
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "! sym_size_int_24") {
			marked++
			if !strings.Contains(line, "sym_int") || !strings.Contains(line, "Sym(s53)") {
				t.Errorf("marked line lacks type or annotation: %q", line)
			}
		}
	}
	if marked != 2 {
		t.Errorf("%d lines mark sym_size_int_24 as a symbolic input, want 2:\n%s", marked, text)
	}
	if !strings.Contains(text, "op excluded (4):") {
		t.Errorf("no group of 4 op excluded nodes:\n%s", text)
	}
}

// TestCrossingJudgement: each symbolic crossing is judged against the
// backend's own contract, in the value, the text and the HTML: n, a SymInt
// user input, is accepted and passed by scalar-args, refused and boxed by
// tensor-only.
func TestCrossingJudgement(t *testing.T) {
	for _, c := range []struct {
		backend  string
		accepted bool
		policy   string
		text     string
	}{
		{"scalar-args", true, "pass", "n Sym(s86) into partition 0, from user_input: accepted; lowering would pass it"},
		{"tensor-only", false, "box", "n Sym(s86) into partition 0, from user_input: refused; lowering would box it"},
	} {
		r := build(t, "symint_input", c.backend)
		v := inputOf(t, r.Partitions[0], "n")
		if v.Accepted == nil || *v.Accepted != c.accepted || v.Policy != c.policy || v.PolicyDetail == "" {
			t.Errorf("%s: n = %+v, want accepted %v, policy %s", c.backend, v, c.accepted, c.policy)
		}
		var text, page bytes.Buffer
		r.WriteText(&text)
		if !strings.Contains(text.String(), c.text) {
			t.Errorf("%s: text lacks %q:\n%s", c.backend, c.text, text.String())
		}
		r.WriteHTML(&page, HTMLOptions{})
		for _, want := range []string{"<th>contract</th><th>lowering</th>", "<td>" + acceptedText(c.accepted) + "</td><td><b>" + c.policy + "</b>"} {
			if !strings.Contains(page.String(), want) {
				t.Errorf("%s: html lacks %q", c.backend, want)
			}
		}
	}
}

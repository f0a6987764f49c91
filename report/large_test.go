package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/partition"
)

func TestHTMLCollapsesGPT2L12(t *testing.T) {
	r := build(t, "gpt2_l12", "tensor-only")
	if r.Summary.Nodes <= DefaultCollapseAbove {
		t.Fatalf("gpt2_l12 has %d nodes, not more than %d", r.Summary.Nodes, DefaultCollapseAbove)
	}
	page := writeHTML(t, r, HTMLOptions{})
	d := parseHTML(t, page)
	selfContained(t, d)
	// Partitions, the nodes left to the parent, two user inputs, the output.
	want := r.Summary.Partitions + r.Summary.Unsupported + 2 + 1
	if got := d.count("g", "box"); got != want {
		t.Errorf("%d boxes, want %d", got, want)
	}
	var parts []string
	for _, g := range d.find("g", "part") {
		parts = append(parts, g.attrs["class"])
	}
	if len(parts) != r.Summary.Partitions {
		t.Errorf("%d partition boxes, want %d", len(parts), r.Summary.Partitions)
	}
	// Links between boxes name the symbolic values crossing.
	labels := d.find("text", "elabel")
	found := false
	for _, l := range labels {
		if strings.Contains(l.text, "sym_size_int_104: Sym(s53)") {
			found = true
		}
	}
	if !found {
		var texts []string
		for _, l := range labels {
			texts = append(texts, l.text)
		}
		t.Errorf("no link labelled sym_size_int_104: Sym(s53); labels %q", texts)
	}
	if !strings.Contains(d.text, "collapsed") {
		t.Errorf("the caption does not say the picture is collapsed")
	}
	// The same graph drawn in full, for comparison: collapsing is what keeps
	// the page small.
	full := writeHTML(t, r, HTMLOptions{CollapseAbove: 100000})
	if len(full) < 2*len(page) {
		t.Errorf("full page %d bytes, collapsed %d: collapsing should save most of the picture", len(full), len(page))
	}
	parseHTML(t, full)
}

// syntheticPlan proposes partitions for fixtures/synthetic/dag_N.json under
// a backend that refuses the nodes its stress_mod5 rule names (about one in
// five, so there are many partitions and nodes left to the parent).
func syntheticPlan(t testing.TB, file string) (*ir.Graph, *partition.Plan) {
	t.Helper()
	data, err := os.ReadFile(fixtures.Synthetic(file))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Placeholders []string `json:"placeholders"`
		Nodes        [][]any  `json:"nodes"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	meta := func() *ir.TensorMeta {
		return &ir.TensorMeta{DType: ir.Float32, Sizes: []ir.SymInt{ir.IntSym(8)}, Strides: []ir.SymInt{ir.IntSym(1)}}
	}
	g := &ir.Graph{TensorValues: map[string]*ir.TensorMeta{}}
	for _, name := range doc.Placeholders {
		g.Inputs = append(g.Inputs, ir.Argument{Kind: ir.ArgTensor, Name: name})
		g.TensorValues[name] = meta()
	}
	var excluded []string
	for _, n := range doc.Nodes {
		name, target := n[0].(string), n[1].(string)
		node := &ir.Node{Name: name, Target: "torch.ops." + target, Outputs: []ir.Argument{{Kind: ir.ArgTensor, Name: name}}}
		for i, in := range n[2].([]any) {
			node.Inputs = append(node.Inputs, ir.NamedArgument{Name: fmt.Sprintf("arg%d", i), Arg: ir.Argument{Kind: ir.ArgTensor, Name: in.(string)}, Kind: ir.KindPositional})
		}
		g.Nodes = append(g.Nodes, node)
		g.TensorValues[name] = meta()
		sum := 0
		for _, r := range name {
			sum += int(r)
		}
		if sum%5 == 0 {
			excluded = append(excluded, name)
		}
	}
	last := g.Nodes[len(g.Nodes)-1].Name
	g.Outputs = []ir.Argument{{Kind: ir.ArgTensor, Name: last}}
	spec, _ := json.Marshal(map[string]any{"name": "stress_mod5", "ops": map[string]any{"include": []string{"aten.*"}}, "exclude_nodes": excluded})
	prof, err := backend.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := partition.ProposeGraph(g, prof, partition.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return g, plan
}

func TestHTMLSyntheticThousands(t *testing.T) {
	_, plan := syntheticPlan(t, "dag_4000.json")
	start := time.Now()
	r := Build(nil, plan, Options{Model: "dag_4000", Backend: "stress_mod5"})
	page := writeHTML(t, r, HTMLOptions{})
	elapsed := time.Since(start)
	if r.Summary.Nodes != 4000 || r.Summary.Partitions < 10 || r.Summary.Unsupported < 100 {
		t.Fatalf("summary = %+v, want a plan with many partitions and parent nodes", r.Summary)
	}
	t.Logf("%d nodes, %d partitions, %d left to the parent: page %d KiB in %v",
		r.Summary.Nodes, r.Summary.Partitions, r.Summary.Unsupported, len(page)/1024, elapsed)
	// Generous bounds: they catch a quadratic layout or a page that embeds
	// every node in the picture, not a slow machine.
	if elapsed > 10*time.Second {
		t.Errorf("building and rendering took %v", elapsed)
	}
	if len(page) > 8<<20 {
		t.Errorf("page is %d MiB", len(page)>>20)
	}
	d := parseHTML(t, page)
	selfContained(t, d)
	want := r.Summary.Partitions + r.Summary.Unsupported + 2 + 1 // and two inputs, the output
	if got := d.count("g", "box"); got > want {
		t.Errorf("%d boxes, want at most %d (partitions collapsed)", got, want)
	}
	if !strings.Contains(d.text, "collapsed") {
		t.Errorf("the caption does not say the picture is collapsed")
	}
	if len(d.find("tr", "")) < r.Summary.Unsupported {
		t.Errorf("the tables do not list every node left to the parent")
	}
	for _, u := range r.Unsupported {
		if u.Reason != "excluded by name" && u.Reason != "partition too small" {
			t.Errorf("%s: reason %q", u.Node, u.Reason)
			break
		}
	}
	var buf bytes.Buffer
	if err := r.WriteDOT(&buf); err != nil {
		t.Fatal(err)
	}
	parseDOT(t, buf.String())
}

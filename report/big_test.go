package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/fixtures/synth"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/partition"
)

var deep struct {
	once sync.Once
	p    *ir.Program
	err  error
}

// deepReport reports gpt2_l12 grown to 24 blocks (1,341 nodes, the size of
// an exported 24-layer GPT-2) under a built-in backend.
func deepReport(t testing.TB, backendName string) *Report {
	t.Helper()
	deep.once.Do(func() { deep.p, deep.err = synth.DeepGPT2(program(t, "gpt2_l12"), 24) })
	if deep.err != nil {
		t.Fatal(deep.err)
	}
	prof, err := backend.Resolve(backendName)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := partition.ProposeProgram(deep.p, prof, partition.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Build(deep.p, plan, Options{Model: "gpt2_l24", Backend: prof.Name})
}

// TestHTMLBigGraph: the page for 1,341 nodes stays small, with the search
// box, zoom buttons and panel in place, and data that says for every
// drawn node where it went and why. matmul-only leaves 1,196 nodes to the
// parent, so every node has a box of its own or its partition's.
func TestHTMLBigGraph(t *testing.T) {
	for _, b := range []string{"matmul-only", "tensor-only"} {
		t.Run(b, func(t *testing.T) {
			r := deepReport(t, b)
			page := writeHTML(t, r, HTMLOptions{})
			t.Logf("%d nodes, %d partitions, %d left to the parent: %d KiB", r.Summary.Nodes, r.Summary.Partitions, r.Summary.Unsupported, len(page)>>10)
			if len(page) > 2<<20 {
				t.Errorf("the page is %.1f MiB, want under 2", float64(len(page))/(1<<20))
			}
			d := parseHTML(t, page)
			selfContained(t, d)
			checkViewer(t, d, page, r)
		})
	}
}

// checkViewer checks what the script works with: the toolbar, the panel,
// and a data entry for every drawn item that matches the report.
func checkViewer(t *testing.T, d *htmlDoc, page []byte, r *Report) {
	t.Helper()
	figures := d.count("figure", "graph")
	if figures != len(r.graphs) {
		t.Fatalf("%d figures for %d graphs", figures, len(r.graphs))
	}
	inputs := d.find("input", "find")
	if len(inputs) != figures || d.count("datalist", "") != figures || d.count("aside", "why") != figures {
		t.Errorf("%d search boxes, %d datalists, %d panels for %d pictures", len(inputs), d.count("datalist", ""), d.count("aside", "why"), figures)
	}
	for gi, in := range inputs {
		if in.attrs["list"] != fmt.Sprintf("names-%d", gi) {
			t.Errorf("search box %d uses list %q", gi, in.attrs["list"])
		}
	}
	zoom := map[string]int{}
	for _, b := range d.find("button", "") {
		zoom[b.attrs["data-zoom"]]++
	}
	for _, z := range []string{"in", "out", "fit", "one"} {
		if zoom[z] != figures {
			t.Errorf("%d %q zoom buttons for %d pictures", zoom[z], z, figures)
		}
	}
	for _, e := range d.elems {
		if e.name == "script" && e.attrs["type"] == "" && !strings.Contains(e.text, `addEventListener("wheel"`) {
			t.Errorf("the script does not handle the wheel")
		}
	}
	m := regexp.MustCompile(`<script type="application/json" id="seam-data">(.*?)</script>`).FindSubmatch(page)
	if m == nil {
		t.Fatal("no page data")
	}
	var data pageData
	if err := json.Unmarshal(m[1], &data); err != nil {
		t.Fatal(err)
	}
	if data.Backend != r.Backend || len(data.Graphs) != figures || len(data.Partitions) != len(r.Partitions) {
		t.Fatalf("data for backend %q, %d graphs, %d partitions", data.Backend, len(data.Graphs), len(data.Partitions))
	}
	partOf := map[string]int{}
	for _, p := range r.Partitions {
		for _, n := range p.Nodes {
			partOf[p.Graph+"/"+n] = p.ID
		}
	}
	why := map[string]Unsupported{}
	for _, u := range r.Unsupported {
		why[u.Graph+"/"+u.Node] = u
	}
	for gi, g := range data.Graphs {
		boxes := boxesOf(d, gi)
		seen := 0
		for _, raw := range g.Items {
			name, kind := raw[0].(string), raw[1].(string)
			part, reason, box := int(raw[3].(float64)), int(raw[4].(float64)), int(raw[6].(float64))
			if box < 0 || box >= len(boxes) {
				t.Fatalf("%s: box %d of %d", name, box, len(boxes))
			}
			inPart := g.Collapsed && part >= 0
			if !inPart && boxes[box] != name && kind != "o" {
				t.Errorf("%s: its box %d shows %q", name, box, boxes[box])
			}
			if inPart && boxes[box] != partLabel(part) {
				t.Errorf("%s: in partition %d, its box %d shows %q", name, part, box, boxes[box])
			}
			if kind != "n" {
				continue
			}
			seen++
			key := r.graphs[gi].path + "/" + name
			if id, ok := partOf[key]; ok != (part >= 0) || ok && id != part {
				t.Errorf("%s: data says partition %d, the report %d (%v)", name, part, id, ok)
			}
			if u, ok := why[key]; ok {
				if reason < 0 || data.Reasons[reason] != u.Reason || raw[5].(string) != u.Detail {
					t.Errorf("%s: data says %v, the report %q: %q", name, raw, u.Reason, u.Detail)
				}
				if data.Why[u.Reason] == "" {
					t.Errorf("no explanation of %q", u.Reason)
				}
			}
		}
		if seen != r.graphs[gi].nodes {
			t.Errorf("graph %d: data for %d nodes of %d", gi, seen, r.graphs[gi].nodes)
		}
	}
}

// boxesOf lists the bold first line (the name) of every box in picture gi,
// in document order, as the script counts boxes.
func boxesOf(d *htmlDoc, gi int) []string {
	var names []string
	at := -1
	for _, e := range d.elems {
		switch {
		case e.name == "svg" && hasClass(e, "graph"):
			at++
		case at == gi && e.name == "text" && hasClass(e, "name"):
			names = append(names, e.text)
		}
	}
	return names
}

// TestDOTCollapsesBigGraphs: a graph above the threshold is drawn with
// partitions as nodes, no weights, and no edge longer than dotMaxSpan
// layers; when even that gives too many nodes, the parent's nodes are
// grouped, and every one of them is still counted.
func TestDOTCollapsesBigGraphs(t *testing.T) {
	for _, c := range []struct {
		name    string
		r       *Report
		grouped bool
	}{
		{"gpt2_l12/tensor-only", build(t, "gpt2_l12", "tensor-only"), false},
		{"gpt2_l24/tensor-only", deepReport(t, "tensor-only"), false},
		{"gpt2_l24/matmul-only", deepReport(t, "matmul-only"), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := c.r.WriteDOT(&buf); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			stmts := parseDOT(t, text)
			declared := map[string]string{}
			var edges [][2]string
			for _, s := range stmts {
				switch {
				case strings.Contains(s.text, "->"):
					ends := strings.Split(s.text, " -> ")
					edges = append(edges, [2]string{ends[0], ends[1]})
				case strings.HasPrefix(s.text, `"`) && s.attrs != "":
					declared[s.text] = s.attrs
				}
			}
			for _, p := range c.r.Partitions {
				if _, ok := declared[dotQuote(partLabel(p.ID))]; !ok {
					t.Errorf("no node for partition %d", p.ID)
				}
			}
			if strings.Contains(text, "subgraph cluster_0 ") || strings.Contains(text, "p_m_transformer_h_0_ln_1_weight") {
				t.Errorf("partitions or weights drawn in detail")
			}
			for _, e := range edges {
				for _, end := range e {
					if _, ok := declared[end]; !ok {
						t.Fatalf("edge %v names undeclared %s", e, end)
					}
				}
			}
			// Layers as dot ranks them: no edge may span more than dotMaxSpan.
			layer := map[string]int{}
			for changed := true; changed; {
				changed = false
				for _, e := range edges {
					if l := layer[e[0]] + 1; l > layer[e[1]] {
						layer[e[1]], changed = l, true
					}
				}
			}
			for _, e := range edges {
				if strings.Contains(e[0], "ref #") {
					continue // a reference sits where dot puts a source: above its user
				}
				if span := layer[e[1]] - layer[e[0]]; span > dotMaxSpan {
					t.Errorf("edge %v spans %d layers", e, span)
				}
			}
			// Every node left to the parent is drawn, alone or in a group.
			parents, groups := 0, 0
			count := regexp.MustCompile(`label="(\d+) nodes left to the parent`)
			for id, attrs := range declared {
				if strings.Contains(attrs, "fillcolor=\""+colorParent+"\"") {
					if m := count.FindStringSubmatch(attrs); m != nil {
						n, _ := strconv.Atoi(m[1])
						parents += n
						groups++
					} else if !strings.Contains(id, "ref #") {
						parents++
					}
				}
			}
			if parents != c.r.Summary.Unsupported {
				t.Errorf("%d nodes left to the parent drawn, the report has %d", parents, c.r.Summary.Unsupported)
			}
			if c.grouped && !strings.Contains(text, `label="from 41 nodes left to the parent:\nsym_size_int_104"`) {
				t.Errorf("the sequence length every layer reads is not drawn as references")
			}
			if (groups > 0) != c.grouped {
				t.Errorf("%d groups of parent nodes, want grouped %v", groups, c.grouped)
			}
			t.Logf("%d nodes, %d edges, %d groups", len(declared), len(edges), groups)
		})
	}
	// Above the default, a higher threshold draws every node again.
	var buf bytes.Buffer
	r := build(t, "gpt2_l12", "tensor-only")
	if err := r.WriteDOTWith(&buf, DOTOptions{CollapseAbove: 100000}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "subgraph cluster_0 {") || !strings.Contains(buf.String(), "p_m_transformer_h_0_ln_1_weight") {
		t.Errorf("CollapseAbove 100000 still collapses gpt2_l12")
	}
}

// TestDOTRendersInGraphviz runs Graphviz, where it is installed, on the
// big graphs: the detailed drawing of gpt2_l12 never finished in minutes.
// The limit only stops a run that hangs; seconds are measured by
// scripts/check-report-browser.sh.
func TestDOTRendersInGraphviz(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Graphviz")
	}
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("no Graphviz dot on PATH")
	}
	for _, c := range []struct {
		name string
		r    *Report
	}{
		{"gpt2_l12-tensor-only", build(t, "gpt2_l12", "tensor-only")},
		{"gpt2_l24-matmul-only", deepReport(t, "matmul-only")},
	} {
		var buf bytes.Buffer
		if err := c.r.WriteDOT(&buf); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), c.name+".dot")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		start := time.Now()
		out, err := exec.CommandContext(ctx, dot, "-Tsvg", "-o", path+".svg", path).CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("%s: dot: %v\n%s", c.name, err, out)
			continue
		}
		t.Logf("%s: %d nodes, dot -Tsvg in %v", c.name, c.r.Summary.Nodes, time.Since(start).Round(time.Millisecond))
	}
}

func BenchmarkWriteHTMLDeepGPT2(b *testing.B) {
	r := deepReport(b, "matmul-only")
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		if err := r.WriteHTML(&buf, HTMLOptions{}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(buf.Len()), "bytes/page")
	}
}

func BenchmarkWriteDOTDeepGPT2(b *testing.B) {
	r := deepReport(b, "matmul-only")
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		if err := r.WriteDOT(&buf); err != nil {
			b.Fatal(err)
		}
	}
}

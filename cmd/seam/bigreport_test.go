package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures/synth"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// TestPartitionPicturesOfABigGraph: seam partition on a 1,341-node GPT-2
// (gpt2_l12 grown to 24 blocks) writes a page under 2 MB with search, zoom
// and the panel, and a DOT with partitions collapsed; --collapse-above
// draws every node again.
func TestPartitionPicturesOfABigGraph(t *testing.T) {
	deep, err := synth.GPT2(24)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "gpt2_l24.pt2")
	if err := pt2.WriteFile(model, pt2.NewArchive(map[string]*ir.Program{pt2.MainModel: deep})); err != nil {
		t.Fatal(err)
	}
	html, dot := filepath.Join(dir, "l24.html"), filepath.Join(dir, "l24.dot")
	out := mustSeam(t, "partition", model, "--backend", "matmul-only", "--html", html, "--dot", dot)
	if !strings.Contains(out, "1341 nodes: 145 delegated in 145 partitions, 1196 left to the parent") {
		t.Errorf("report:\n%.500s", out)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	if len(page) > 2<<20 {
		t.Errorf("the page is %d bytes, want under 2 MiB", len(page))
	}
	for _, want := range []string{`<input type="search" class="find"`, `data-zoom="fit"`, `<aside class="why"`, `id="seam-data"`, "partitions collapsed into boxes"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	text, err := os.ReadFile(dot)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), `"partition 0" [label="partition 0\n1 node\n3 in · 1 out"`) || strings.Contains(string(text), "subgraph cluster_0 {") {
		t.Errorf("the DOT does not collapse partitions:\n%.1000s", text)
	}
	mustSeam(t, "partition", model, "--backend", "matmul-only", "--dot", dot, "--collapse-above", "5000")
	if text, _ := os.ReadFile(dot); !strings.Contains(string(text), "subgraph cluster_0 {") {
		t.Errorf("--collapse-above 5000 still collapses")
	}
	if _, _, err := seam(t, "partition", model, "--backend", "matmul-only", "--dot", dot, "--collapse-above", "-3"); err == nil {
		t.Errorf("--collapse-above -3: no error")
	}
}

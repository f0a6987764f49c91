package irtext_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/irtext"
	"github.com/seam-rt/seam/pt2"
)

// normalize drops what graph.txt has that a program cannot reproduce:
// comment lines (stack traces), blank lines and the `;  x = None` tails
// with which FX frees values.
func normalize(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if i := strings.Index(line, ";  "); i >= 0 && strings.HasSuffix(line, " = None") {
			line = line[:i]
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

func TestPrintMatchesGraphTxt(t *testing.T) {
	pr := &irtext.Printer{}
	for _, name := range fixtures.Models() {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(fixtures.ModelDir(name), "graph.txt"))
			if err != nil {
				t.Fatal(err)
			}
			a, err := pt2.Open(fixtures.Model(name))
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			p, _ := a.Program()
			got := normalize(pr.Sprint(p))
			w := normalize(string(want))
			bad := 0
			for i := 0; i < max(len(got), len(w)); i++ {
				var g, x string
				if i < len(got) {
					g = got[i]
				}
				if i < len(w) {
					x = w[i]
				}
				if g != x {
					bad++
					if bad < 10 {
						t.Errorf("line %d:\n got %s\nwant %s", i+1, g, x)
					}
				}
			}
		})
	}
}

// freeTails drops only the `;  x = None` tails of code lines: with Source,
// the printer reproduces everything else of graph.txt, comments and blank
// lines included.
func freeTails(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") && strings.HasSuffix(line, " = None") {
			if i := strings.Index(line, ";  "); i >= 0 {
				line = line[:i]
			}
		}
		out = append(out, line)
	}
	return out
}

func TestPrintSourceMatchesGraphTxt(t *testing.T) {
	pr := &irtext.Printer{Source: true}
	comments := 0
	for _, name := range fixtures.Models() {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(fixtures.ModelDir(name), "graph.txt"))
			if err != nil {
				t.Fatal(err)
			}
			a, err := pt2.Open(fixtures.Model(name))
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			p, err := a.Program()
			if err != nil {
				t.Fatal(err)
			}
			got, w := freeTails(pr.Sprint(p)), freeTails(string(want))
			bad := 0
			for i := 0; i < max(len(got), len(w)); i++ {
				var g, x string
				if i < len(got) {
					g = got[i]
				}
				if i < len(w) {
					x = w[i]
				}
				if strings.Contains(x, "# ") {
					comments++
				}
				if g != x {
					if bad++; bad < 10 {
						t.Errorf("line %d:\n got %q\nwant %q", i+1, g, x)
					}
				}
			}
		})
	}
	if comments < 100 {
		t.Errorf("only %d comment lines in the fixtures' graph.txt: the comparison checks little", comments)
	}
}

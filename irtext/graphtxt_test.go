package irtext_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
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
	printMatchesGraphTxt(t, &irtext.Printer{}, normalize)
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
	if comments := printMatchesGraphTxt(t, &irtext.Printer{Source: true}, freeTails); comments < 100 {
		t.Errorf("only %d comment lines in the fixtures' graph.txt: the comparison checks little", comments)
	}
}

// printMatchesGraphTxt compares every fixture's printed program with its
// graph.txt, line by line after norm, and counts graph.txt's comment lines
// that took part.
func printMatchesGraphTxt(t *testing.T, pr *irtext.Printer, norm func(string) []string) (comments int) {
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
			got, w := norm(pr.Sprint(p)), norm(string(want))
			bad := 0
			for i := 0; i < max(len(got), len(w)); i++ {
				var g, x string
				if i < len(got) {
					g = got[i]
				}
				if i < len(w) {
					x = w[i]
				}
				if strings.HasPrefix(strings.TrimSpace(x), "# ") {
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
	return comments
}

// TestNamesPrintEscaped: a name holding what a terminal acts on (ESC
// sequences, BEL, CR, a bidirectional override) prints escaped.
func TestNamesPrintEscaped(t *testing.T) {
	g := &ir.Graph{
		Inputs:       []ir.Argument{ir.TensorArg("x\x1b]0;pwned\a")},
		TensorValues: map[string]*ir.TensorMeta{},
		Nodes: []*ir.Node{{Target: "torch.ops.aten.relu.default", Name: "relu\r\u202e",
			Inputs:  []ir.NamedArgument{{Name: "self", Arg: ir.TensorArg("x\x1b]0;pwned\a")}},
			Outputs: []ir.Argument{ir.TensorArg("relu\r\u202e")}}},
		Outputs: []ir.Argument{ir.TensorArg("relu\r\u202e")},
	}
	p := &ir.Program{Graph: g, Signature: ir.Signature{
		Inputs:  []ir.InputSpec{{Kind: ir.InputUser, Arg: ir.TensorArg("x\x1b]0;pwned\a")}},
		Outputs: []ir.OutputSpec{{Kind: ir.OutputUser, Arg: ir.TensorArg("relu\r\u202e")}},
	}}
	out := (&irtext.Printer{}).Sprint(p)
	if strings.ContainsAny(out, "\x1b\a\r\u202e") {
		t.Errorf("raw control characters printed:\n%q", out)
	}
	if !strings.Contains(out, `x\x1b]0;pwned\x07`) || !strings.Contains(out, `relu\r\u202e = `) {
		t.Errorf("names not shown escaped:\n%s", out)
	}
}

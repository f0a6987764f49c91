package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// dotStmt is one statement of a DOT file as the checker below sees it.
type dotStmt struct {
	text  string // the statement without attributes
	attrs string
	depth int // brace depth
	// cluster is the innermost enclosing subgraph's name.
	cluster string
}

// parseDOT splits DOT text into statements, honouring quoted strings, and
// fails on unbalanced braces or brackets or an unterminated string.
func parseDOT(t *testing.T, text string) []dotStmt {
	t.Helper()
	var (
		stmts    []dotStmt
		cur      strings.Builder
		stack    []string
		inQuote  bool
		brackets int
		attrsAt  = -1
	)
	flush := func() {
		s := strings.TrimSpace(cur.String())
		cur.Reset()
		if s == "" {
			attrsAt = -1
			return
		}
		st := dotStmt{text: s, depth: len(stack)}
		if i := strings.IndexByte(s, '['); i >= 0 && attrsAt >= 0 {
			st.text, st.attrs = strings.TrimSpace(s[:i]), s[i:]
		}
		if len(stack) > 0 {
			st.cluster = stack[len(stack)-1]
		}
		stmts = append(stmts, st)
		attrsAt = -1
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if inQuote {
			cur.WriteByte(c)
			if c == '\\' && i+1 < len(text) {
				i++
				cur.WriteByte(text[i])
			} else if c == '"' {
				inQuote = false
			}
			continue
		}
		switch c {
		case '"':
			inQuote = true
			cur.WriteByte(c)
		case '[':
			brackets++
			attrsAt = cur.Len()
			cur.WriteByte(c)
		case ']':
			brackets--
			if brackets < 0 {
				t.Fatalf("unbalanced ] at byte %d", i)
			}
			cur.WriteByte(c)
		case '{':
			head := strings.TrimSpace(cur.String())
			cur.Reset()
			stack = append(stack, head)
		case '}':
			flush()
			if len(stack) == 0 {
				t.Fatalf("unbalanced } at byte %d", i)
			}
			stack = stack[:len(stack)-1]
		case ';', '\n':
			if brackets == 0 {
				flush()
			} else {
				cur.WriteByte(c)
			}
		default:
			cur.WriteByte(c)
		}
	}
	if inQuote || brackets != 0 || len(stack) != 0 {
		t.Fatalf("DOT ends inside a string, [attributes] or {block}: quote %v, brackets %d, open blocks %q", inQuote, brackets, stack)
	}
	return stmts
}

func TestDOTStructure(t *testing.T) {
	for _, c := range []struct{ model, backend string }{
		{"gpt2_tiny", "tensor-only"}, {"cond", "tensor-only"}, {"seed_like", "matmul-only"},
	} {
		t.Run(c.model+"/"+c.backend, func(t *testing.T) {
			r := build(t, c.model, c.backend)
			var buf bytes.Buffer
			if err := r.WriteDOT(&buf); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			if !strings.HasPrefix(text, "digraph ") {
				t.Fatalf("does not start with digraph: %.40q", text)
			}
			stmts := parseDOT(t, text)
			declared := map[string]string{} // node id -> cluster
			clusters := map[string]bool{}
			var labelled, symbolic, edges int
			for _, s := range stmts {
				switch {
				case strings.HasPrefix(s.text, "subgraph"):
					t.Fatalf("subgraph statement outside a block: %q", s.text)
				case strings.Contains(s.text, "->"):
					edges++
					ends := strings.Split(s.text, "->")
					for _, e := range ends {
						if _, ok := declared[strings.TrimSpace(e)]; !ok {
							t.Errorf("edge %q names undeclared node %s", s.text, e)
						}
					}
					if strings.Contains(s.attrs, "label=") {
						labelled++
						if strings.Contains(s.attrs, `label="sym_`) {
							symbolic++
							if !strings.Contains(s.attrs, colorSymbolic) {
								t.Errorf("symbolic boundary edge not highlighted: %s %s", s.text, s.attrs)
							}
						}
					}
				case strings.HasPrefix(s.text, `"`) && s.attrs != "":
					declared[s.text] = s.cluster
				}
				if strings.HasPrefix(s.cluster, "subgraph cluster_") {
					clusters[strings.TrimPrefix(s.cluster, "subgraph ")] = true
				}
			}
			for _, p := range r.Partitions {
				name := fmt.Sprintf("cluster_%d", p.ID)
				if !clusters[name] {
					t.Errorf("no subgraph %s", name)
				}
				for _, n := range p.Nodes {
					id := n
					if p.Graph != "" {
						id = p.Graph + "/" + n
					}
					if got := declared[dotQuote(id)]; got != "subgraph "+name {
						t.Errorf("node %s declared in %q, want in %s", id, got, name)
					}
				}
			}
			// Every boundary edge is labelled, no other is.
			wantLabelled, wantSym, wantEdges := 0, 0, 0
			for _, m := range r.graphs {
				wantEdges += len(m.edges)
				for _, e := range m.edges {
					if m.boundary(e) {
						wantLabelled++
						if isSymbolic(e.typ) {
							wantSym++
						}
					}
				}
			}
			if edges != wantEdges || labelled != wantLabelled || symbolic != wantSym {
				t.Errorf("edges %d, labelled %d, symbolic %d; want %d, %d, %d", edges, labelled, symbolic, wantEdges, wantLabelled, wantSym)
			}
			if c.model == "gpt2_tiny" && wantSym == 0 {
				t.Errorf("gpt2_tiny has no symbolic boundary edge")
			}
		})
	}
}

func TestDOTQuote(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:        `"plain"`,
		`say "hi"`:     `"say \"hi\""`,
		`back\slash`:   `"back\\slash"`,
		"two\nlines":   `"two\nlines"`,
		`Sym(s77 > 4)`: `"Sym(s77 > 4)"`,
	} {
		if got := dotQuote(in); got != want {
			t.Errorf("dotQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

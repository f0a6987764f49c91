package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// htmlDoc is the page parsed as XML: the report writes markup that is
// well-formed both ways, so a strict XML parse checks every tag is closed,
// nested properly and every attribute quoted and escaped.
type htmlDoc struct {
	elems []htmlElem
	text  string // all character data, space separated
}

type htmlElem struct {
	name  string
	attrs map[string]string
	path  []string // enclosing element names, outermost first
	text  string   // the character data inside the element
}

func parseHTML(t *testing.T, page []byte) *htmlDoc {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict = true
	doc := &htmlDoc{}
	var stack []int
	var names []string
	var text strings.Builder
	var texts []*strings.Builder // per element, all text inside it
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page is not well-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := htmlElem{name: tok.Name.Local, attrs: map[string]string{}, path: append([]string(nil), names...)}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			stack = append(stack, len(doc.elems))
			names = append(names, e.name)
			doc.elems = append(doc.elems, e)
			texts = append(texts, &strings.Builder{})
		case xml.EndElement:
			stack, names = stack[:len(stack)-1], names[:len(names)-1]
		case xml.CharData:
			for _, i := range stack {
				texts[i].Write(tok)
			}
			text.Write(tok)
			text.WriteByte(' ')
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed elements: %v", names)
	}
	for i := range doc.elems {
		doc.elems[i].text = texts[i].String()
	}
	doc.text = text.String()
	return doc
}

func (d *htmlDoc) count(name, class string) int {
	n := 0
	for _, e := range d.elems {
		if e.name == name && hasClass(e, class) {
			n++
		}
	}
	return n
}

func (d *htmlDoc) find(name, class string) []htmlElem {
	var out []htmlElem
	for _, e := range d.elems {
		if e.name == name && hasClass(e, class) {
			out = append(out, e)
		}
	}
	return out
}

func hasClass(e htmlElem, class string) bool {
	if class == "" {
		return true
	}
	for _, c := range strings.Fields(e.attrs["class"]) {
		if c == class {
			return true
		}
	}
	return false
}

func writeHTML(t testing.TB, r *Report, opt HTMLOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := r.WriteHTML(&buf, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// selfContained fails on anything the page would fetch, and on scripts
// other than its own two: the inline viewer and its JSON data.
func selfContained(t *testing.T, d *htmlDoc) {
	t.Helper()
	scripts := 0
	for _, e := range d.elems {
		switch e.name {
		case "link", "img", "iframe", "object", "embed":
			t.Errorf("the page has a <%s> element", e.name)
		case "script":
			if e.attrs["type"] == "application/json" {
				break
			}
			if scripts++; scripts > 1 {
				t.Errorf("the page has %d scripts", scripts)
			}
			for _, api := range []string{"fetch(", "XMLHttpRequest", "import(", "WebSocket", ".src", "eval(", "innerHTML"} {
				if strings.Contains(e.text, api) {
					t.Errorf("the page's script uses %s", api)
				}
			}
		}
		for k, v := range e.attrs {
			switch {
			case k == "src":
				t.Errorf("<%s src=%q>", e.name, v)
			case k == "href" && !strings.HasPrefix(v, "#"):
				t.Errorf("<%s href=%q> leaves the page", e.name, v)
			case strings.HasPrefix(k, "on"):
				t.Errorf("<%s %s=...> is a script", e.name, k)
			}
		}
		if e.name == "style" && (strings.Contains(e.text, "@import") || strings.Contains(strings.ReplaceAll(e.text, "url(#", ""), "url(")) {
			t.Errorf("the style sheet loads something")
		}
	}
}

func TestHTMLGPT2Tiny(t *testing.T) {
	r := build(t, "gpt2_tiny", "tensor-only")
	page := writeHTML(t, r, HTMLOptions{})
	d := parseHTML(t, page)
	selfContained(t, d)
	if d.elems[0].name != "html" {
		t.Fatalf("root element is %s", d.elems[0].name)
	}
	if n := d.count("svg", "graph"); n != 1 {
		t.Fatalf("%d pictures, want 1", n)
	}
	// The detailed picture: a box for every node, both user inputs and the
	// output; weights are not drawn.
	if got, want := d.count("g", "box"), 153+2+1; got != want {
		t.Errorf("%d boxes, want %d", got, want)
	}
	if got := d.count("g", "parent"); got != 4 {
		t.Errorf("%d boxes of nodes left to the parent, want 4", got)
	}
	wantSym := 0
	for _, e := range r.graphs[0].edges {
		if r.graphs[0].boundary(e) && isSymbolic(e.typ) {
			wantSym++
		}
	}
	if got := d.count("path", "symbolic"); got != wantSym || got == 0 {
		t.Errorf("%d symbolic links drawn, want %d", got, wantSym)
	}
	// The headline table lists the symbolic input of both partitions.
	var alert []htmlElem
	for _, e := range d.find("tr", "sym") {
		if len(e.path) > 0 && strings.Contains(strings.Join(e.path, "/"), "section") {
			alert = append(alert, e)
		}
	}
	if len(alert) < 2 {
		t.Errorf("%d highlighted rows, want the symbolic input of both partitions", len(alert))
	}
	ids := map[string]bool{}
	for _, e := range d.elems {
		if id := e.attrs["id"]; id != "" {
			if ids[id] {
				t.Errorf("duplicate id %q", id)
			}
			ids[id] = true
		}
	}
	for _, id := range []string{"symbolic", "picture", "partitions", "unsupported", "p0", "p1"} {
		if !ids[id] {
			t.Errorf("no element with id %q", id)
		}
	}
	for _, e := range d.elems {
		if href := e.attrs["href"]; href != "" && !ids[strings.TrimPrefix(href, "#")] {
			t.Errorf("link to missing %s", href)
		}
	}
	for _, want := range []string{"sym_size_int_24", "Sym(s53)", "op excluded", "embedding_1", "p_m_transformer_ln_f_weight"} {
		if !strings.Contains(d.text, want) {
			t.Errorf("the page does not mention %q", want)
		}
	}
	if d.count("table", "") < 5 {
		t.Errorf("%d tables, want the headline, overview, boundaries and unsupported ones", d.count("table", ""))
	}
}

func TestHTMLNestedGraphsHaveAPictureEach(t *testing.T) {
	d := parseHTML(t, writeHTML(t, build(t, "cond", "tensor-only"), HTMLOptions{}))
	selfContained(t, d)
	if n := d.count("svg", "graph"); n != 3 {
		t.Errorf("%d pictures, want one per graph (3)", n)
	}
	if !strings.Contains(d.text, "cond.true_graph_0") || !strings.Contains(d.text, "No symbolic value crosses") {
		t.Errorf("page lacks the nested graph or the calm headline")
	}
}

func TestHTMLEscapes(t *testing.T) {
	r := build(t, "seed_like", "tensor-only")
	r.Model = `<script>alert("x")</script> & co`
	d := parseHTML(t, writeHTML(t, r, HTMLOptions{}))
	selfContained(t, d)
	if !strings.Contains(d.text, `<script>alert("x")</script> & co`) {
		t.Errorf("the model name did not survive escaping")
	}
}

// Same plan, same bytes: reports are diffed and committed.
func TestHTMLDeterministic(t *testing.T) {
	a := writeHTML(t, build(t, "gpt2_tiny", "tensor-only"), HTMLOptions{})
	b := writeHTML(t, build(t, "gpt2_tiny", "tensor-only"), HTMLOptions{})
	if !bytes.Equal(a, b) {
		t.Errorf("two renderings of one plan differ")
	}
}

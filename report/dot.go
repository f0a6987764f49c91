package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// DOTOptions tune the Graphviz text.
type DOTOptions struct {
	// CollapseAbove is the node count above which a graph is drawn with
	// partitions collapsed into one node each, as the HTML page draws it;
	// 0 means DefaultCollapseAbove.
	CollapseAbove int
}

// WriteDOT prints the plan as Graphviz text with the default options.
func (r *Report) WriteDOT(w io.Writer) error { return r.WriteDOTWith(w, DOTOptions{}) }

// WriteDOTWith prints the plan as Graphviz text: every placeholder and
// node, partitions as `subgraph cluster_N`, nested graphs as clusters
// around their partitions, and every edge that crosses a partition
// boundary labelled with its value type. Symbolic boundary edges are red
// and bold. A graph of more than CollapseAbove nodes is drawn as the HTML
// page draws it: each partition one node, the parent's nodes and the
// inputs around them, weights left out, one edge per pair of nodes that
// names the symbolic values it carries. Graphviz lays a detailed drawing
// of a thousand nodes out in minutes, if at all; the collapsed one in
// seconds.
func (r *Report) WriteDOTWith(w io.Writer, opt DOTOptions) error {
	if opt.CollapseAbove <= 0 {
		opt.CollapseAbove = DefaultCollapseAbove
	}
	bw := bufio.NewWriter(w)
	title := "backend " + r.Backend
	if r.Model != "" {
		title = r.Model + ", " + title
	}
	fmt.Fprintf(bw, "digraph partitions {\n")
	fmt.Fprintf(bw, "  graph [rankdir=TB, fontname=\"Helvetica\", labelloc=t, label=%s];\n", dotQuote(title))
	fmt.Fprintf(bw, "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n")
	fmt.Fprintf(bw, "  edge [color=%q, fontname=\"Helvetica\", fontsize=9];\n", colorEdge)
	for gi, m := range r.models() {
		if m.nodes > opt.CollapseAbove {
			r.writeDOTCollapsed(bw, gi, m)
		} else {
			r.writeDOTGraph(bw, gi, m)
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func (r *Report) writeDOTGraph(w *bufio.Writer, gi int, m *graphModel) {
	ind := "  "
	if m.path != "" {
		fmt.Fprintf(w, "  subgraph cluster_graph_%d {\n", gi)
		fmt.Fprintf(w, "    label=%s; style=dashed; color=%q;\n", dotQuote("graph "+m.path), colorParentLine)
		ind = "    "
	}
	members := map[int][]int{}
	for i, it := range m.items {
		if it.part >= 0 {
			members[it.part] = append(members[it.part], i)
		}
	}
	for _, id := range m.parts {
		fmt.Fprintf(w, "%ssubgraph cluster_%d {\n", ind, id)
		fmt.Fprintf(w, "%s  label=%s; style=\"rounded,filled\"; fillcolor=%q; color=%q;\n",
			ind, dotQuote(fmt.Sprintf("partition %d (%s)", id, plural(len(members[id]), "node"))), partFill(id), partLine(id))
		for _, i := range members[id] {
			writeDOTItem(w, ind+"  ", m, i)
		}
		fmt.Fprintf(w, "%s}\n", ind)
	}
	for i, it := range m.items {
		if it.part < 0 {
			writeDOTItem(w, ind, m, i)
		}
	}
	for _, e := range m.edges {
		from, to := dotQuote(dotID(m, e.from)), dotQuote(dotID(m, e.to))
		if !m.boundary(e) {
			fmt.Fprintf(w, "%s%s -> %s;\n", ind, from, to)
			continue
		}
		color, width := colorBoundary, "1.2"
		if isSymbolic(e.typ) {
			color, width = colorSymbolic, "2.5"
		}
		fmt.Fprintf(w, "%s%s -> %s [label=%s, color=%q, fontcolor=%q, penwidth=%s, tooltip=%s];\n",
			ind, from, to, dotQuote(e.typ), color, color, width, dotQuote(e.value))
	}
	if m.path != "" {
		w.WriteString("  }\n")
	}
}

func writeDOTItem(w *bufio.Writer, ind string, m *graphModel, i int) {
	it := m.items[i]
	id := dotQuote(dotID(m, i))
	switch it.kind {
	case itemInput, itemWeight:
		lines := it.name + "\n" + it.op
		if it.annotation != "" {
			lines += "\n" + it.annotation
		}
		style := ""
		if it.kind == itemWeight {
			style = ", fontsize=8, color=\"" + colorParentLine + "\""
		}
		fmt.Fprintf(w, "%s%s [shape=ellipse, style=solid, label=%s%s];\n", ind, id, dotQuote(lines), style)
	case itemOutput:
		fmt.Fprintf(w, "%s%s [shape=doubleoctagon, style=solid, label=\"output\"];\n", ind, id)
	default:
		if it.part >= 0 {
			fmt.Fprintf(w, "%s%s [label=%s];\n", ind, id, dotQuote(it.name+"\n"+it.op))
		} else {
			fmt.Fprintf(w, "%s%s [label=%s, fillcolor=%q, color=%q, tooltip=%s];\n", ind, id,
				dotQuote(it.name+"\n"+it.op+"\n("+it.reason+")"), colorParent, colorParentLine, dotQuote(it.reason))
		}
	}
}

// dotID names an item uniquely across graphs: nested graphs reuse names.
func dotID(m *graphModel, i int) string {
	it := m.items[i]
	name := it.name
	if it.kind == itemOutput {
		name = "(output)" // no node or placeholder can be named with parentheses
	}
	if m.path != "" {
		return m.path + "/" + name
	}
	return name
}

// dotQuote makes a DOT double-quoted string; newlines become \n line breaks.
func dotQuote(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case '\n':
			sb.WriteString(`\n`)
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// dotMaxBoxes is the most boxes a collapsed graph gives Graphviz before the
// parent's nodes are grouped too: dot lays out a few hundred nodes in a
// second, a thousand nodes with long edges (a sequence length used by every
// layer) in minutes.
const dotMaxBoxes = 400

// dotMaxSpan is the most layers an edge of a collapsed graph spans; a
// longer one becomes a reference beside its target.
const dotMaxSpan = 8

// boxLayers gives each box its longest-path layer, as dot ranks it.
func boxLayers(s *scene) []int {
	layer := make([]int, len(s.boxes))
	preds := make([][]int, len(s.boxes))
	for _, l := range s.links {
		preds[l.to] = append(preds[l.to], l.from)
	}
	for _, b := range topoOrder(len(s.boxes), linkPairs(s.links)) {
		for _, p := range preds[b] {
			layer[b] = max(layer[b], layer[p]+1)
		}
	}
	return layer
}

// writeDOTCollapsed draws a large graph from the HTML page's collapsed
// scene, so that both pictures show the same thing.
func (r *Report) writeDOTCollapsed(w *bufio.Writer, gi int, m *graphModel) {
	s := collapsedScene(m, r)
	label := fmt.Sprintf("partitions collapsed (%s)", plural(m.nodes, "node"))
	if len(s.boxes) > dotMaxBoxes {
		s = groupedScene(m, r)
		label = fmt.Sprintf("partitions collapsed, and the parent's nodes grouped by the partitions before them (%s)", plural(m.nodes, "node"))
	}
	ind := "  "
	if m.path != "" {
		label = "graph " + m.path + ", " + label
	}
	fmt.Fprintf(w, "  subgraph cluster_graph_%d {\n", gi)
	fmt.Fprintf(w, "    label=%s; style=dashed; color=%q;\n", dotQuote(label), colorParentLine)
	ind = "    "
	ids := make([]string, len(s.boxes))
	for i, b := range s.boxes {
		switch {
		case b.item >= 0:
			ids[i] = dotQuote(dotID(m, b.item))
		case b.class == boxPartition:
			ids[i] = dotQuote(graphPrefix(m) + partLabel(b.part))
		default: // a group of the parent's nodes; no name has a space and a #
			ids[i] = dotQuote(fmt.Sprintf("%sparent #%d", graphPrefix(m), i))
		}
		lines := dotQuote(strings.Join(b.lines, "\n"))
		switch {
		case b.class == boxPartition:
			fmt.Fprintf(w, "%s%s [label=%s, fillcolor=%q, color=%q, penwidth=2, tooltip=%s];\n", ind, ids[i], lines, partFill(b.part), partLine(b.part), dotQuote(b.title))
		case b.class == boxInput:
			fmt.Fprintf(w, "%s%s [shape=ellipse, style=solid, label=%s];\n", ind, ids[i], lines)
		case b.class == boxOutput:
			fmt.Fprintf(w, "%s%s [shape=doubleoctagon, style=solid, label=\"output\"];\n", ind, ids[i])
		case b.item < 0:
			fmt.Fprintf(w, "%s%s [shape=box3d, label=%s, fillcolor=%q, color=%q, tooltip=%s];\n", ind, ids[i], lines, colorParent, colorParentLine, dotQuote(b.title))
		default:
			it := m.items[b.item]
			fmt.Fprintf(w, "%s%s [label=%s, fillcolor=%q, color=%q, tooltip=%s];\n", ind, ids[i],
				dotQuote(it.name+"\n"+it.op+"\n("+it.reason+")"), colorParent, colorParentLine, dotQuote(b.title))
		}
	}
	layer := boxLayers(s)
	for li, l := range s.links {
		from, to := ids[l.from], ids[l.to]
		if layer[l.to]-layer[l.from] > dotMaxSpan {
			// A value used far below where it is made (a sequence length
			// every layer reads) is named beside its user, not drawn as an
			// edge down the whole picture: such edges are what make dot slow.
			from = dotQuote(fmt.Sprintf("%sref #%d", graphPrefix(m), li))
			color := colorParentLine
			if l.class == linkSymbolic {
				color = colorSymbolic
			}
			fmt.Fprintf(w, "%s%s [shape=plain, style=solid, fontsize=9, fontcolor=%q, label=%s, tooltip=%s];\n", ind, from, color,
				dotQuote("from "+s.boxes[l.from].lines[0]+":\n"+strings.Join(capLines(l.values, 2), ", ")), dotQuote(l.title))
		}
		switch l.class {
		case linkSymbolic:
			fmt.Fprintf(w, "%s%s -> %s [label=%s, color=%q, fontcolor=%q, penwidth=2.5, tooltip=%s];\n",
				ind, from, to, dotQuote(strings.Join(l.label, "\n")), colorSymbolic, colorSymbolic, dotQuote(l.title))
		case linkBoundary:
			fmt.Fprintf(w, "%s%s -> %s [color=%q, penwidth=1.2, tooltip=%s];\n", ind, from, to, colorBoundary, dotQuote(l.title))
		default:
			fmt.Fprintf(w, "%s%s -> %s;\n", ind, from, to)
		}
	}
	w.WriteString("  }\n")
}

// graphPrefix makes ids unique across graphs, as dotID does.
func graphPrefix(m *graphModel) string {
	if m.path != "" {
		return m.path + "/"
	}
	return ""
}

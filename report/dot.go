package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteDOT prints the plan as Graphviz text: every placeholder and node,
// partitions as `subgraph cluster_N`, nested graphs as clusters around
// their partitions, and every edge that crosses a partition boundary
// labelled with its value type. Symbolic boundary edges are red and bold.
func (r *Report) WriteDOT(w io.Writer) error {
	bw := bufio.NewWriter(w)
	title := "backend " + r.Backend
	if r.Model != "" {
		title = r.Model + ", " + title
	}
	fmt.Fprintf(bw, "digraph partitions {\n")
	fmt.Fprintf(bw, "  graph [rankdir=TB, fontname=\"Helvetica\", labelloc=t, label=%s];\n", dotQuote(title))
	fmt.Fprintf(bw, "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n")
	fmt.Fprintf(bw, "  edge [color=%q, fontname=\"Helvetica\", fontsize=9];\n", colorEdge)
	for gi, m := range r.graphs {
		r.writeDOTGraph(bw, gi, m)
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

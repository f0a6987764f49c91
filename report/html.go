package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// HTMLOptions tune the page.
type HTMLOptions struct {
	// CollapseAbove is the node count above which a graph is drawn with
	// partitions collapsed into boxes; 0 means DefaultCollapseAbove.
	CollapseAbove int
	// Intro is preformatted text shown under the header (seam demo puts
	// its story there).
	Intro string
	// Footer replaces the default footer line.
	Footer string
}

// DefaultCollapseAbove keeps a detailed picture readable: beyond a few
// hundred nodes a node-level drawing is a texture, not a picture.
const DefaultCollapseAbove = 300

// WriteHTML writes one self-contained page (inline CSS, SVG and one inline
// script, no external resources): the summary, the symbolic values
// crossing boundaries, a picture of each graph, each partition's boundary,
// and the nodes left to the parent grouped by reason. The script makes the
// pictures searchable by node name, zoomable and pannable, and shows why a
// clicked node is or is not delegated; without it the page still reads.
// The page is well-formed XML as well as HTML, which the tests rely on.
func (r *Report) WriteHTML(w io.Writer, opt HTMLOptions) error {
	if opt.CollapseAbove <= 0 {
		opt.CollapseAbove = DefaultCollapseAbove
	}
	bw := bufio.NewWriter(w)
	title := "Partitions for " + r.Backend
	if r.Model != "" {
		title = r.Model + " · " + title
	}
	bw.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
	bw.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
	fmt.Fprintf(bw, "<title>%s</title>\n<style>%s%s%s</style>\n</head>\n<body>\n", esc(title), pageCSS, svgCSS, interactCSS)
	r.htmlHeader(bw)
	if opt.Intro != "" {
		fmt.Fprintf(bw, "<section><pre class=\"intro\">%s</pre></section>\n", esc(opt.Intro))
	}
	r.htmlSymbolic(bw)
	scenes := r.htmlPictures(bw, opt)
	r.htmlPartitions(bw)
	r.htmlUnsupported(bw)
	if opt.Footer != "" {
		fmt.Fprintf(bw, "<footer>%s</footer>\n", esc(opt.Footer))
	} else {
		bw.WriteString("<footer>Made by <code>seam partition</code>. The partitioner only proposes; lowering applies the boundary policies.</footer>\n")
	}
	if err := writePageData(bw, r.pageData(scenes)); err != nil {
		return err
	}
	writeScript(bw)
	bw.WriteString("</body>\n</html>\n")
	return bw.Flush()
}

func (r *Report) htmlHeader(w *bufio.Writer) {
	w.WriteString("<header>\n")
	model := r.Model
	if model == "" {
		model = "program"
	}
	fmt.Fprintf(w, "<h1><span class=\"model\">%s</span> <span class=\"arrow\">→</span> backend <span class=\"backend\">%s</span></h1>\n", esc(model), esc(r.Backend))
	s := r.Summary
	pct := 0
	if s.Nodes > 0 {
		pct = 100 * s.Delegated / s.Nodes
	}
	w.WriteString("<div class=\"cards\">\n")
	card := func(class string, n int, what string) {
		fmt.Fprintf(w, "<div class=\"card %s\"><b>%d</b><span>%s</span></div>\n", class, n, esc(what))
	}
	card("", s.Nodes, pluralWord(s.Nodes, "node")+graphsNote(s.Graphs))
	card("ok", s.Delegated, fmt.Sprintf("delegated (%d%%)", pct))
	card("", s.Partitions, pluralWord(s.Partitions, "partition"))
	card("muted", s.Unsupported, "left to the parent")
	symClass := "ok"
	if s.SymbolicInputs > 0 {
		symClass = "alert"
	}
	card(symClass, s.SymbolicInputs, "symbolic partition "+pluralWord(s.SymbolicInputs, "input"))
	w.WriteString("</div>\n</header>\n")
}

func graphsNote(n int) string {
	if n > 1 {
		return fmt.Sprintf(" in %d graphs", n)
	}
	return ""
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func (r *Report) htmlSymbolic(w *bufio.Writer) {
	syms := r.SymbolicInputs()
	if len(syms) == 0 {
		w.WriteString("<section class=\"calm\"><h2>No symbolic value crosses a partition boundary</h2>" +
			"<p>Every partition receives tensors only.</p></section>\n")
		return
	}
	w.WriteString("<section class=\"alert-box\" id=\"symbolic\">\n<h2>Symbolic values crossing a partition boundary</h2>\n")
	if r.judged {
		fmt.Fprintf(w, "<p>Each would be a placeholder of the lowered module. The last columns say whether %s's contract "+
			"accepts it as one (a plain scalar, or a rank-0 tensor) and what lowering would do with it: rederive it from a "+
			"tensor's size, hoist the scalar ops that make it, pass it, box it, or exclude the nodes that use it.</p>\n", esc(r.Backend))
	} else {
		w.WriteString("<p>Each would be a placeholder of the lowered module. A backend that takes only tensors " +
			"(Core ML, XNNPACK) cannot receive it: lowering must rederive it from a tensor's size, hoist the " +
			"scalar ops that make it, box it into a rank-0 tensor, or exclude the nodes that use it.</p>\n")
	}
	w.WriteString("<table>\n<thead><tr><th>value</th><th>type</th><th>annotation</th><th>from</th><th>into</th>")
	if r.judged {
		w.WriteString("<th>contract</th><th>lowering</th>")
	}
	w.WriteString("</tr></thead>\n<tbody>\n")
	for _, s := range syms {
		into := partLabel(s.Partition)
		if s.Graph != "" {
			into += " (graph " + s.Graph + ")"
		}
		fmt.Fprintf(w, "<tr class=\"sym\"><td><code>%s</code></td><td>%s</td><td><code class=\"ann\">%s</code></td><td>%s</td><td><a href=\"#p%d\">%s</a></td>",
			esc(s.Value.Name), esc(s.Value.Type), esc(s.Value.Annotation), esc(origin(s.Value)), s.Partition, esc(into))
		if s.Value.Accepted != nil {
			fmt.Fprintf(w, "<td>%s</td><td><b>%s</b>: %s</td>", acceptedText(*s.Value.Accepted), esc(s.Value.Policy), esc(s.Value.PolicyDetail))
		} else if r.judged {
			w.WriteString("<td></td><td></td>")
		}
		w.WriteString("</tr>\n")
	}
	w.WriteString("</tbody>\n</table>\n</section>\n")
}

// htmlPictures draws each graph, collapsed when it is large, and returns
// the scenes drawn (the page data describes their boxes).
func (r *Report) htmlPictures(w *bufio.Writer, opt HTMLOptions) []*scene {
	w.WriteString("<section id=\"picture\">\n<h2>Picture</h2>\n")
	r.htmlLegend(w)
	svgDefs(w)
	var scenes []*scene
	for gi, m := range r.models() {
		name := "top-level graph"
		if m.path != "" {
			name = "graph " + m.path
		}
		var s *scene
		view := "every node"
		if m.nodes > opt.CollapseAbove {
			s = collapsedScene(m, r)
			view = fmt.Sprintf("partitions collapsed into boxes (more than %d nodes)", opt.CollapseAbove)
		} else {
			s = detailScene(m)
		}
		fmt.Fprintf(w, "<figure class=\"graph\">\n<figcaption><b>%s</b> · %s · %s · %s</figcaption>\n",
			esc(name), plural(m.nodes, "node"), plural(len(m.parts), "partition"), esc(view))
		writeTools(w, gi)
		w.WriteString("<div class=\"viewer\">\n<div class=\"scroll\">\n")
		writeSVG(w, s)
		w.WriteString("</div>\n")
		writePanel(w)
		w.WriteString("</div>\n</figure>\n")
		scenes = append(scenes, s)
	}
	w.WriteString("</section>\n")
	return scenes
}

func (r *Report) htmlLegend(w *bufio.Writer) {
	w.WriteString("<div class=\"legend\">\n")
	shown := min(len(r.Partitions), len(palette))
	for id := range shown {
		fmt.Fprintf(w, "<span><i class=\"sw\" style=\"background:%s;border-color:%s\"></i>%s</span>\n", partFill(id), partLine(id), partLabel(id))
	}
	if len(r.Partitions) > shown {
		fmt.Fprintf(w, "<span>(colours repeat every %d partitions)</span>\n", len(palette))
	}
	fmt.Fprintf(w, "<span><i class=\"sw\" style=\"background:%s;border-color:%s\"></i>left to the parent</span>\n", colorParent, colorParentLine)
	w.WriteString("<span><i class=\"sw pill\"></i>input</span>\n")
	fmt.Fprintf(w, "<span><i class=\"ln\" style=\"border-color:%s\"></i>tensor crossing a boundary</span>\n", colorBoundary)
	fmt.Fprintf(w, "<span class=\"symtext\"><i class=\"ln thick\" style=\"border-color:%s\"></i>symbolic value crossing a boundary</span>\n", colorSymbolic)
	w.WriteString("<span class=\"note\">Parameters, buffers and constants are not drawn; the tables list them. " +
		"Hover a box or a line for details.</span>\n")
	w.WriteString("</div>\n")
}

func (r *Report) htmlPartitions(w *bufio.Writer) {
	fmt.Fprintf(w, "<section id=\"partitions\">\n<h2>Partitions (%d)</h2>\n", len(r.Partitions))
	if len(r.Partitions) == 0 {
		w.WriteString("<p>No partition: the backend takes none of the nodes.</p>\n</section>\n")
		return
	}
	w.WriteString("<table class=\"overview\">\n<thead><tr><th>partition</th><th>graph</th><th>nodes</th><th>inputs</th><th>symbolic inputs</th><th>outputs</th></tr></thead>\n<tbody>\n")
	for _, p := range r.Partitions {
		nsym := 0
		for _, v := range p.Inputs {
			if v.Symbolic {
				nsym++
			}
		}
		cls := ""
		if nsym > 0 {
			cls = " class=\"sym\""
		}
		fmt.Fprintf(w, "<tr%s><td><a href=\"#p%d\">%s</a></td><td>%s</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td></tr>\n",
			cls, p.ID, partLabel(p.ID), esc(graphName(p.Graph)), len(p.Nodes), len(p.Inputs), nsym, len(p.Outputs))
	}
	w.WriteString("</tbody>\n</table>\n")
	for _, p := range r.Partitions {
		fmt.Fprintf(w, "<article class=\"partition\" id=\"p%d\" style=\"border-left-color:%s\">\n", p.ID, partLine(p.ID))
		fmt.Fprintf(w, "<h3>%s <small>%s · %s</small></h3>\n", partLabel(p.ID), esc(graphName(p.Graph)), plural(len(p.Nodes), "node"))
		fmt.Fprintf(w, "<details><summary>nodes (%d)</summary><p class=\"nodes\">%s</p></details>\n", len(p.Nodes), esc(strings.Join(p.Nodes, ", ")))
		htmlValues(w, "inputs", "from", p.Inputs, origin)
		htmlValues(w, "outputs", "to", p.Outputs, destination)
		w.WriteString("</article>\n")
	}
	w.WriteString("</section>\n")
}

func graphName(path string) string {
	if path == "" {
		return "top level"
	}
	return path
}

func htmlValues(w *bufio.Writer, title, where string, vs []Value, describe func(Value) string) {
	if len(vs) == 0 {
		fmt.Fprintf(w, "<p class=\"none\">no %s</p>\n", title)
		return
	}
	fmt.Fprintf(w, "<table class=\"values\">\n<caption>%s (%d)</caption>\n<thead><tr><th>value</th><th>type</th><th>annotation</th><th>%s</th></tr></thead>\n<tbody>\n", title, len(vs), where)
	for _, v := range vs {
		cls, badge := "", ""
		if v.Symbolic {
			cls, badge = " class=\"sym\"", " <span class=\"badge\">symbolic</span>"
		}
		fmt.Fprintf(w, "<tr%s><td><code>%s</code>%s</td><td>%s</td><td><code class=\"ann\">%s</code></td><td>%s</td></tr>\n",
			cls, esc(v.Name), badge, esc(v.Type), esc(v.Annotation), esc(describe(v)))
	}
	w.WriteString("</tbody>\n</table>\n")
}

func (r *Report) htmlUnsupported(w *bufio.Writer) {
	fmt.Fprintf(w, "<section id=\"unsupported\">\n<h2>Left to the parent (%d)</h2>\n", len(r.Unsupported))
	if len(r.Unsupported) == 0 {
		w.WriteString("<p>Every node is delegated.</p>\n")
	}
	for _, g := range r.ByReason() {
		fmt.Fprintf(w, "<h3>%s <small>%s</small></h3>\n", esc(g.Reason), plural(len(g.Nodes), "node"))
		w.WriteString("<table class=\"unsupported\">\n<thead><tr><th>node</th><th>target</th><th>detail</th><th>graph</th></tr></thead>\n<tbody>\n")
		for _, u := range g.Nodes {
			fmt.Fprintf(w, "<tr><td><code>%s</code></td><td><code>%s</code></td><td>%s</td><td>%s</td></tr>\n",
				esc(u.Node), esc(u.Target), esc(u.Detail), esc(graphName(u.Graph)))
		}
		w.WriteString("</tbody>\n</table>\n")
	}
	w.WriteString("</section>\n")
}

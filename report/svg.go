package report

import (
	"bufio"
	"fmt"
	"html"
	"strings"
)

// Text metrics of the picture's monospace font: boxes are sized from them,
// so the picture needs no font measurement.
const (
	fontSize   = 11.0
	charWidth  = 6.7 // per character of the 11px monospace font, with slack
	lineHeight = 14.0
	boxPadX    = 8.0
	boxPadY    = 6.0
)

func boxSize(b box) size {
	return size{w: textWidth(b.lines) + 2*boxPadX, h: float64(len(b.lines))*lineHeight + 2*boxPadY}
}

// writeSVG lays a scene out and draws it.
func writeSVG(w *bufio.Writer, s *scene) {
	spec := layoutSpec{sizes: make([]size, len(s.boxes)), layerGap: 34}
	if s.collapsed {
		spec.layerGap = 56
	}
	for i, b := range s.boxes {
		spec.sizes[i] = boxSize(b)
	}
	for _, l := range s.links {
		spec.edges = append(spec.edges, [2]int{l.from, l.to})
	}
	lay := layout(spec)
	// Labels may reach past the boxes: widen the picture to hold them.
	for i, l := range s.links {
		if len(l.label) > 0 {
			x, _ := labelAt(l, lay.routes[i], s.collapsed)
			lay.width = max(lay.width, x+textWidth(l.label)+layoutMargin)
		}
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img">`+"\n",
		lay.width, lay.height, lay.width, lay.height)
	w.WriteString(`<defs>`)
	for _, c := range []struct{ id, color string }{{"arrow", colorEdge}, {"arrow-b", colorBoundary}, {"arrow-s", colorSymbolic}} {
		fmt.Fprintf(w, `<marker id="%s" viewBox="0 0 8 8" refX="7" refY="4" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="%s"/></marker>`, c.id, c.color)
	}
	w.WriteString("</defs>\n")
	// Internal links first, so that boundary links are drawn over them.
	for _, class := range []linkClass{linkInternal, linkBoundary, linkSymbolic} {
		for i, l := range s.links {
			if l.class == class {
				writeLink(w, l, lay.routes[i])
			}
		}
	}
	for i, b := range s.boxes {
		writeBox(w, b, lay.pos[i], spec.sizes[i])
	}
	for i, l := range s.links {
		if len(l.label) > 0 {
			writeLinkLabel(w, l, lay.routes[i], s.collapsed)
		}
	}
	w.WriteString("</svg>\n")
}

func writeBox(w *bufio.Writer, b box, c point, sz size) {
	x, y := c.x-sz.w/2, c.y-sz.h/2
	fill, stroke := "#ffffff", colorParentLine
	switch b.class {
	case boxPartition:
		fill, stroke = partFill(b.part), partLine(b.part)
	case boxParent:
		fill = colorParent
	case boxOutput:
		fill, stroke = "#27272a", "#27272a"
	}
	fmt.Fprintf(w, `<g class="box %s"><title>%s</title>`, b.class, esc(b.title))
	rx := 4
	if b.class == boxInput || b.class == boxOutput {
		rx = int(sz.h / 2)
	}
	fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="%d" fill="%s" stroke="%s"/>`, x, y, sz.w, sz.h, rx, fill, stroke)
	for i, line := range b.lines {
		ty := y + boxPadY + lineHeight*float64(i) + fontSize
		class := "t"
		if i == 0 {
			class = "t name"
		}
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" class="%s">%s</text>`, c.x, ty, class, esc(line))
	}
	w.WriteString("</g>\n")
}

func writeLink(w *bufio.Writer, l link, pts []point) {
	if len(pts) < 2 {
		return
	}
	marker := "arrow"
	switch l.class {
	case linkBoundary:
		marker = "arrow-b"
	case linkSymbolic:
		marker = "arrow-s"
	}
	fmt.Fprintf(w, `<path class="link %s" d="%s" marker-end="url(#%s)"><title>%s</title></path>`+"\n", l.class, pathData(pts), marker, esc(l.title))
}

// pathData joins a route: straight where it runs vertically through a
// layer, a vertical-tangent curve between layers.
func pathData(pts []point) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "M%.1f,%.1f", pts[0].x, pts[0].y)
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if a.x == b.x {
			fmt.Fprintf(&sb, " L%.1f,%.1f", b.x, b.y)
			continue
		}
		dy := (b.y - a.y) / 2
		fmt.Fprintf(&sb, " C%.1f,%.1f %.1f,%.1f %.1f,%.1f", a.x, a.y+dy, b.x, b.y-dy, b.x, b.y)
	}
	return sb.String()
}

// writeLinkLabel puts a link's label beside the end of its route, where
// it enters the target, or mid-way between layers when collapsed.
func writeLinkLabel(w *bufio.Writer, l link, pts []point, collapsed bool) {
	x, y := labelAt(l, pts, collapsed)
	fmt.Fprintf(w, `<text class="elabel %s" x="%.1f" y="%.1f">`, l.class, x, y)
	for i, line := range l.label {
		dy := 0.0
		if i > 0 {
			dy = lineHeight
		}
		fmt.Fprintf(w, `<tspan x="%.1f" dy="%.0f">%s</tspan>`, x, dy, esc(line))
	}
	w.WriteString("</text>\n")
}

// labelAt is where a link's label starts (its first baseline).
func labelAt(l link, pts []point, collapsed bool) (x, y float64) {
	end := pts[len(pts)-1]
	if collapsed {
		a := pts[len(pts)-2]
		return (a.x+end.x)/2 + 6, (a.y+end.y)/2 - lineHeight*float64(len(l.label)-1)/2 + 4
	}
	return end.x + 7, end.y - 9 - lineHeight*float64(len(l.label)-1)
}

func textWidth(lines []string) float64 {
	n := 0
	for _, l := range lines {
		n = max(n, len([]rune(l)))
	}
	return float64(n) * charWidth
}

func esc(s string) string { return html.EscapeString(s) }

package report

import (
	"bufio"
	"fmt"
	"html"
	"math"
	"strconv"
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
	return size{w: math.Ceil(textWidth(b.lines) + 2*boxPadX), h: float64(len(b.lines))*lineHeight + 2*boxPadY}
}

// The pictures are drawn compactly, because a large graph draws thousands
// of boxes and links and the page must stay small: coordinates are whole
// pixels, boxes take their colours from the style sheet (svgCSS) by class,
// and the links that leave one box share one route, as the layout routes
// them along one chain of points: the shared trunk is drawn once, with a
// short branch into each user.

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
	width, height := math.Ceil(lay.width), math.Ceil(lay.height)
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img">`+"\n",
		width, height, width, height)
	// Internal links first, so that boundary links are drawn over them.
	for _, class := range []linkClass{linkInternal, linkBoundary, linkSymbolic} {
		writeRoutes(w, s, lay, class)
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

// svgDefs are the arrowheads every picture uses, defined once per page.
func svgDefs(w *bufio.Writer) {
	w.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="defs" width="0" height="0" aria-hidden="true"><defs>`)
	for _, c := range []struct{ id, color string }{{"arrow", colorEdge}, {"arrow-b", colorBoundary}, {"arrow-s", colorSymbolic}} {
		fmt.Fprintf(w, `<marker id="%s" viewBox="0 0 8 8" refX="7" refY="4" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="%s"/></marker>`, c.id, c.color)
	}
	w.WriteString("</defs></svg>\n")
}

// writeRoutes draws the links of one class, grouped by the box they leave:
// a group's routes follow one chain of points, so the longest is drawn as
// the trunk and each link adds only its last segment.
func writeRoutes(w *bufio.Writer, s *scene, lay layoutResult, class linkClass) {
	var order []int
	groups := map[int][]int{}
	for i, l := range s.links {
		if l.class != class {
			continue
		}
		if _, ok := groups[l.from]; !ok {
			order = append(order, l.from)
		}
		groups[l.from] = append(groups[l.from], i)
	}
	for _, from := range order {
		links := groups[from]
		shared := true
		for _, i := range links {
			shared = shared && s.links[i].title == s.links[links[0]].title
		}
		w.WriteString(`<g class="route ` + string(class) + `">`)
		if shared {
			w.WriteString("<title>" + esc(s.links[links[0]].title) + "</title>")
		}
		// A route is the source's bottom, two points per layer it passes
		// through, and the target's top: the longest holds every other's
		// prefix.
		trunk := lay.routes[links[0]]
		for _, i := range links[1:] {
			if len(lay.routes[i]) > len(trunk) {
				trunk = lay.routes[i]
			}
		}
		if len(trunk) > 2 {
			w.WriteString(`<path class="trunk" d="` + pathData(trunk[:len(trunk)-1]) + `"/>`)
		}
		for _, i := range links {
			rt := lay.routes[i]
			if len(rt) < 2 {
				continue
			}
			w.WriteString(`<path class="link ` + string(class) + `" d="` + pathData(rt[len(rt)-2:]) + `"`)
			if shared {
				w.WriteString("/>")
			} else {
				w.WriteString("><title>" + esc(s.links[i].title) + "</title></path>")
			}
		}
		w.WriteString("</g>\n")
	}
}

func writeBox(w *bufio.Writer, b box, c point, sz size) {
	x, y := math.Round(c.x-sz.w/2), math.Round(c.y-sz.h/2)
	class := "box " + string(b.class)
	if b.class == boxPartition {
		class += " p" + strconv.Itoa(b.part%len(palette))
	}
	fmt.Fprintf(w, `<g class="%s" transform="translate(%.0f,%.0f)"><title>%s</title>`, class, x, y, esc(b.title))
	rx := 4
	if b.class == boxInput || b.class == boxOutput {
		rx = int(sz.h / 2)
	}
	fmt.Fprintf(w, `<rect width="%.0f" height="%.0f" rx="%d"/>`, sz.w, sz.h, rx)
	for i, line := range b.lines {
		ty := boxPadY + lineHeight*float64(i) + fontSize
		if i == 0 {
			fmt.Fprintf(w, `<text x="%.0f" y="%.0f" class="name">%s</text>`, sz.w/2, ty, esc(line))
		} else {
			fmt.Fprintf(w, `<text x="%.0f" y="%.0f">%s</text>`, sz.w/2, ty, esc(line))
		}
	}
	w.WriteString("</g>\n")
}

// pathData joins a route in whole pixels: a vertical line where it runs
// straight down, a vertical-tangent curve where it moves sideways.
func pathData(pts []point) string {
	var sb strings.Builder
	x, y := math.Round(pts[0].x), math.Round(pts[0].y)
	fmt.Fprintf(&sb, "M%.0f,%.0f", x, y)
	for _, p := range pts[1:] {
		nx, ny := math.Round(p.x), math.Round(p.y)
		dx, dy := nx-x, ny-y
		if dx == 0 {
			fmt.Fprintf(&sb, "v%.0f", dy)
		} else {
			h := math.Round(dy / 2)
			fmt.Fprintf(&sb, "c0,%.0f %.0f,%.0f %.0f,%.0f", h, dx, dy-h, dx, dy)
		}
		x, y = nx, ny
	}
	return sb.String()
}

// writeLinkLabel puts a link's label beside the end of its route, where
// it enters the target, or mid-way between layers when collapsed.
func writeLinkLabel(w *bufio.Writer, l link, pts []point, collapsed bool) {
	x, y := labelAt(l, pts, collapsed)
	fmt.Fprintf(w, `<text class="elabel %s" x="%.0f" y="%.0f">`, l.class, x, y)
	for i, line := range l.label {
		dy := 0.0
		if i > 0 {
			dy = lineHeight
		}
		fmt.Fprintf(w, `<tspan x="%.0f" dy="%.0f">%s</tspan>`, x, dy, esc(line))
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

// svgCSS styles the pictures: box colours by class (one rule per palette
// entry for partitions), links by class, arrowheads from svgDefs.
var svgCSS = func() string {
	var sb strings.Builder
	sb.WriteString(`
svg.defs { position: absolute; }
svg.graph { display: block; }
svg.graph text { font: 11px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; text-anchor: middle; fill: #27272a; }
svg.graph text.name { font-weight: 700; }
svg.graph .box rect { fill: #fff; stroke: ` + colorParentLine + `; }
svg.graph .box.parent rect { fill: ` + colorParent + `; }
svg.graph .box.output rect { fill: #27272a; stroke: #27272a; }
svg.graph .box.output text { fill: #fff; }
svg.graph .route path { fill: none; stroke: ` + colorEdge + `; stroke-width: 1; }
svg.graph .route .link { marker-end: url(#arrow); }
svg.graph .route.boundary path { stroke: ` + colorBoundary + `; stroke-width: 1.6; }
svg.graph .route.boundary .link { marker-end: url(#arrow-b); }
svg.graph .route.symbolic path { stroke: ` + colorSymbolic + `; stroke-width: 2.4; stroke-dasharray: 6 3; }
svg.graph .route.symbolic .link { marker-end: url(#arrow-s); }
svg.graph text.elabel { font: 600 11px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; fill: ` + colorSymbolic + `;
  text-anchor: start; paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
`)
	for i, c := range palette {
		fmt.Fprintf(&sb, "svg.graph .box.p%d rect { fill: %s; stroke: %s; }\n", i, c.fill, c.line)
	}
	return sb.String()
}()

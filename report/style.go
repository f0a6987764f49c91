package report

import "fmt"

// Colours shared by the DOT and SVG pictures. Partitions cycle through a
// palette of light fills with darker strokes; the parent program is gray;
// a symbolic value crossing a boundary is red wherever it is drawn.
const (
	colorParent     = "#e4e4e7"
	colorParentLine = "#71717a"
	colorEdge       = "#a1a1aa"
	colorBoundary   = "#2563eb"
	colorSymbolic   = "#dc2626"
)

var palette = []struct{ fill, line string }{
	{"#dbeafe", "#2563eb"}, {"#dcfce7", "#16a34a"}, {"#fef3c7", "#d97706"},
	{"#ede9fe", "#7c3aed"}, {"#cffafe", "#0891b2"}, {"#fce7f3", "#db2777"},
	{"#e0e7ff", "#4f46e5"}, {"#ecfccb", "#65a30d"}, {"#ffedd5", "#ea580c"},
	{"#f5f5f4", "#57534e"},
}

func partFill(id int) string { return palette[id%len(palette)].fill }
func partLine(id int) string { return palette[id%len(palette)].line }

func partLabel(id int) string { return fmt.Sprintf("partition %d", id) }

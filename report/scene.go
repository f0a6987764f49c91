package report

import (
	"fmt"
	"strings"
)

// A scene is what one SVG picture shows: boxes and the links between them.
// The detailed scene has a box per node; the collapsed one, for large
// graphs, a box per partition, with parent nodes, inputs and the output
// around them.

type boxClass string

const (
	boxPartition boxClass = "part"   // a delegated node, or a whole partition
	boxParent    boxClass = "parent" // a node left to the parent program
	boxInput     boxClass = "input"
	boxOutput    boxClass = "output"
)

type box struct {
	lines []string // the first is the name, drawn bold
	class boxClass
	part  int // partition id for boxPartition, else -1
	title string
}

type linkClass string

const (
	linkInternal linkClass = "internal" // inside a partition or inside the parent
	linkBoundary linkClass = "boundary" // tensors crossing a partition boundary
	linkSymbolic linkClass = "symbolic" // a symbolic value crossing one
)

type link struct {
	from, to int
	class    linkClass
	label    []string
	title    string
}

type scene struct {
	boxes     []box
	links     []link
	collapsed bool
}

// shortOp drops the namespace and the default overload: "aten.view.default"
// reads "view", "aten.add.Tensor" reads "add.Tensor".
func shortOp(op string) string {
	op = strings.TrimPrefix(op, "aten.")
	return strings.TrimSuffix(op, ".default")
}

// detailScene draws every node; weights are left out (the tables list them).
func detailScene(m *graphModel) *scene {
	s := &scene{}
	boxOf := make([]int, len(m.items))
	for i, it := range m.items {
		boxOf[i] = -1
		var b box
		switch it.kind {
		case itemWeight:
			continue
		case itemInput:
			b = box{lines: []string{it.name, it.annotation}, class: boxInput, part: -1,
				title: fmt.Sprintf("%s: %s %s", it.name, it.op, it.annotation)}
		case itemOutput:
			b = box{lines: []string{"output"}, class: boxOutput, part: -1, title: "the graph's outputs"}
		default:
			if it.part >= 0 {
				b = box{lines: []string{it.name, fmt.Sprintf("P%d · %s", it.part, shortOp(it.op))}, class: boxPartition, part: it.part,
					title: fmt.Sprintf("%s = %s, in partition %d", it.name, it.op, it.part)}
			} else {
				b = box{lines: []string{it.name, shortOp(it.op)}, class: boxParent, part: -1,
					title: fmt.Sprintf("%s = %s, left to the parent: %s", it.name, it.op, it.reason)}
			}
		}
		boxOf[i] = len(s.boxes)
		s.boxes = append(s.boxes, b)
	}
	for _, e := range m.edges {
		a, b := boxOf[e.from], boxOf[e.to]
		if a < 0 || b < 0 {
			continue
		}
		l := link{from: a, to: b, class: linkInternal, title: fmt.Sprintf("%s (%s)", e.value, e.typ)}
		if m.boundary(e) {
			l.class = linkBoundary
			if isSymbolic(e.typ) {
				l.class = linkSymbolic
				l.label = []string{e.typ}
			}
		}
		s.links = append(s.links, l)
	}
	return s
}

// collapsedScene draws each partition as one box with its node count;
// links between boxes carry every value that crosses, and name the
// symbolic ones.
func collapsedScene(m *graphModel, r *Report) *scene {
	s := &scene{collapsed: true}
	boxOf := make([]int, len(m.items))
	partBox := map[int]int{}
	counts := map[int]int{}
	for _, it := range m.items {
		if it.part >= 0 {
			counts[it.part]++
		}
	}
	for i, it := range m.items {
		boxOf[i] = -1
		switch {
		case it.kind == itemWeight:
			continue
		case it.part >= 0:
			if b, ok := partBox[it.part]; ok {
				boxOf[i] = b
				continue
			}
			partBox[it.part] = len(s.boxes)
			p := r.partition(it.part)
			s.boxes = append(s.boxes, box{
				lines: []string{partLabel(it.part), plural(counts[it.part], "node"),
					fmt.Sprintf("%d in · %d out", len(p.Inputs), len(p.Outputs))},
				class: boxPartition, part: it.part,
				title: fmt.Sprintf("partition %d: %s, %d inputs, %d outputs", it.part, plural(counts[it.part], "node"), len(p.Inputs), len(p.Outputs)),
			})
		case it.kind == itemInput:
			s.boxes = append(s.boxes, box{lines: []string{it.name, it.annotation}, class: boxInput, part: -1,
				title: fmt.Sprintf("%s: %s %s", it.name, it.op, it.annotation)})
		case it.kind == itemOutput:
			s.boxes = append(s.boxes, box{lines: []string{"output"}, class: boxOutput, part: -1, title: "the graph's outputs"})
		default:
			s.boxes = append(s.boxes, box{lines: []string{it.name, shortOp(it.op)}, class: boxParent, part: -1,
				title: fmt.Sprintf("%s = %s, left to the parent: %s", it.name, it.op, it.reason)})
		}
		if boxOf[i] < 0 {
			boxOf[i] = len(s.boxes) - 1
		}
	}
	type crossing struct {
		values   []string
		symbolic []string
		seen     map[string]bool
	}
	byPair := map[[2]int]*crossing{}
	var pairs [][2]int
	for _, e := range m.edges {
		a, b := boxOf[e.from], boxOf[e.to]
		if a < 0 || b < 0 || a == b {
			continue
		}
		k := [2]int{a, b}
		c, ok := byPair[k]
		if !ok {
			c = &crossing{seen: map[string]bool{}}
			byPair[k] = c
			pairs = append(pairs, k)
		}
		if c.seen[e.value] {
			continue
		}
		c.seen[e.value] = true
		c.values = append(c.values, e.value)
		if isSymbolic(e.typ) && m.boundary(e) {
			c.symbolic = append(c.symbolic, e.value+": "+m.symbolic[e.value])
		}
	}
	for _, k := range pairs {
		c := byPair[k]
		boundary := s.boxes[k[0]].class == boxPartition || s.boxes[k[1]].class == boxPartition
		l := link{from: k[0], to: k[1], class: linkInternal, title: listTitle(c.values)}
		switch {
		case len(c.symbolic) > 0:
			l.class = linkSymbolic
			l.label = capLines(c.symbolic, 3)
		case boundary:
			l.class = linkBoundary
		}
		s.links = append(s.links, l)
	}
	return s
}

func listTitle(values []string) string {
	return plural(len(values), "value") + ": " + strings.Join(capLines(values, 12), ", ")
}

// capLines keeps the first n strings and says how many it dropped.
func capLines(list []string, n int) []string {
	if len(list) <= n {
		return list
	}
	out := append([]string(nil), list[:n]...)
	return append(out, fmt.Sprintf("+%d more", len(list)-n))
}

// partition returns the partition with that id (ids are indices).
func (r *Report) partition(id int) *Partition { return &r.Partitions[id] }

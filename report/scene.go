package report

import (
	"cmp"
	"fmt"
	"slices"
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
	// item is the graph item the box draws, -1 for a collapsed partition
	// or a group of the parent's nodes.
	item  int
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
	// values are the values the link carries.
	values []string
}

type scene struct {
	boxes []box
	links []link
	// itemBox is the box that shows each item of the graph, -1 for the
	// weights, which are not drawn.
	itemBox   []int
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
	s := &scene{itemBox: make([]int, len(m.items))}
	boxOf := s.itemBox
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
		b.item = i
		boxOf[i] = len(s.boxes)
		s.boxes = append(s.boxes, b)
	}
	for _, e := range m.edges {
		a, b := boxOf[e.from], boxOf[e.to]
		if a < 0 || b < 0 {
			continue
		}
		l := link{from: a, to: b, class: linkInternal, title: fmt.Sprintf("%s (%s)", e.value, e.typ), values: []string{e.value}}
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
	s := &scene{collapsed: true, itemBox: make([]int, len(m.items))}
	boxOf := s.itemBox
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
				class: boxPartition, part: it.part, item: -1,
				title: fmt.Sprintf("partition %d: %s, %d inputs, %d outputs", it.part, plural(counts[it.part], "node"), len(p.Inputs), len(p.Outputs)),
			})
		case it.kind == itemInput:
			s.boxes = append(s.boxes, box{lines: []string{it.name, it.annotation}, class: boxInput, part: -1, item: i,
				title: fmt.Sprintf("%s: %s %s", it.name, it.op, it.annotation)})
		case it.kind == itemOutput:
			s.boxes = append(s.boxes, box{lines: []string{"output"}, class: boxOutput, part: -1, item: i, title: "the graph's outputs"})
		default:
			s.boxes = append(s.boxes, box{lines: []string{it.name, shortOp(it.op)}, class: boxParent, part: -1, item: i,
				title: fmt.Sprintf("%s = %s, left to the parent: %s", it.name, it.op, it.reason)})
		}
		if boxOf[i] < 0 {
			boxOf[i] = len(s.boxes) - 1
		}
	}
	s.links = contractedLinks(m, s.boxes, boxOf)
	return s
}

// contractedLinks joins the edges between the items that boxOf puts in
// different boxes into one link per pair of boxes; a link carries every
// value that crosses and names the symbolic ones.
func contractedLinks(m *graphModel, boxes []box, boxOf []int) []link {
	type crossing struct {
		values   []string
		symbolic []string
		seen     map[string]bool
	}
	var links []link
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
		boundary := boxes[k[0]].class == boxPartition || boxes[k[1]].class == boxPartition
		l := link{from: k[0], to: k[1], class: linkInternal, title: listTitle(c.values), values: c.values}
		switch {
		case len(c.symbolic) > 0:
			l.class = linkSymbolic
			l.label = capLines(c.symbolic, 3)
		case boundary:
			l.class = linkBoundary
		}
		links = append(links, l)
	}
	return links
}

// groupedScene coarsens a collapsed scene further, for Graphviz: the
// parent's nodes are grouped by stage, the number of partitions on the
// longest path to them. Along every link the stage never decreases and it
// grows past a partition, so the groups cannot close a cycle.
func groupedScene(m *graphModel, r *Report) *scene {
	c := collapsedScene(m, r)
	stage := make([]int, len(c.boxes))
	preds := make([][]int, len(c.boxes))
	for _, l := range c.links {
		preds[l.to] = append(preds[l.to], l.from)
	}
	for _, b := range topoOrder(len(c.boxes), linkPairs(c.links)) {
		for _, p := range preds[b] {
			step := 0
			if c.boxes[p].class == boxPartition {
				step = 1
			}
			stage[b] = max(stage[b], stage[p]+step)
		}
	}
	s := &scene{collapsed: true, itemBox: make([]int, len(m.items))}
	newBox := make([]int, len(c.boxes))
	groups := map[int]int{} // stage -> box
	members := map[int][]int{}
	for b, bx := range c.boxes {
		if bx.class != boxParent {
			newBox[b] = len(s.boxes)
			s.boxes = append(s.boxes, bx)
			continue
		}
		g, ok := groups[stage[b]]
		if !ok {
			g = len(s.boxes)
			groups[stage[b]] = g
			s.boxes = append(s.boxes, box{class: boxParent, part: -1, item: -1})
		}
		newBox[b] = g
		members[g] = append(members[g], bx.item)
	}
	for g, items := range members {
		if len(items) == 1 {
			s.boxes[g] = c.boxes[c.itemBox[items[0]]]
			continue
		}
		var names []string
		reasons := map[string]int{}
		for _, i := range items {
			names = append(names, m.items[i].name)
			reasons[m.items[i].reason]++
		}
		var why []string
		for _, reason := range sortedByCount(reasons) {
			why = append(why, fmt.Sprintf("%s ×%d", reason, reasons[reason]))
		}
		s.boxes[g].lines = append([]string{plural(len(items), "node") + " left to the parent"}, capLines(why, 2)...)
		s.boxes[g].lines = append(s.boxes[g].lines, strings.Join(capLines(names, 2), ", "))
		s.boxes[g].title = strings.Join(capLines(names, 40), ", ")
	}
	for i, b := range c.itemBox {
		s.itemBox[i] = -1
		if b >= 0 {
			s.itemBox[i] = newBox[b]
		}
	}
	s.links = contractedLinks(m, s.boxes, s.itemBox)
	return s
}

func linkPairs(links []link) [][2]int {
	pairs := make([][2]int, len(links))
	for i, l := range links {
		pairs[i] = [2]int{l.from, l.to}
	}
	return pairs
}

// sortedByCount orders keys by descending count, then by name.
func sortedByCount(counts map[string]int) []string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return keys
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

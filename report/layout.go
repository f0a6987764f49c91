package report

import (
	"slices"
)

// A layered (Sugiyama-style) layout, top to bottom: longest-path layers,
// one chain of virtual points per source so that long edges from one value
// share a route, barycentre ordering sweeps, then x positions pulled
// towards neighbours under a minimum separation. It is linear-ish in the
// size of the layered graph, which is what lets the HTML report draw
// graphs of thousands of nodes without Graphviz.

type size struct{ w, h float64 }

type point struct{ x, y float64 }

type layoutSpec struct {
	sizes []size
	// edges are (from, to) pairs of indices into sizes.
	edges [][2]int
	// layerGap is the vertical space between layers (for edge labels).
	layerGap float64
}

type layoutResult struct {
	// pos is the centre of each box.
	pos []point
	// routes is one polyline per edge, from the bottom of its source to
	// the top of its target.
	routes        [][]point
	width, height float64
}

const (
	layoutMargin = 16
	gapReal      = 16 // between two boxes in a layer
	gapVirtual   = 5  // next to a virtual point
	widthVirtual = 4
	axisPull     = 0.08
)

type vertex struct {
	w, h    float64
	real    bool
	layer   int
	up      []int // neighbours in the layer above
	down    []int // neighbours in the layer below
	x       float64
	ordinal int // position in its layer
}

func layout(spec layoutSpec) layoutResult {
	n := len(spec.sizes)
	order := topoOrder(n, spec.edges)
	rank := make([]int, n)
	for i, v := range order {
		rank[v] = i
	}
	preds := make([][]int, n)
	succs := make([][]int, n)
	for _, e := range spec.edges {
		if rank[e[0]] < rank[e[1]] { // edges against the order (cycles) get no layering
			preds[e[1]] = append(preds[e[1]], e[0])
			succs[e[0]] = append(succs[e[0]], e[1])
		}
	}
	layer := make([]int, n)
	for _, v := range order {
		for _, u := range preds[v] {
			layer[v] = max(layer[v], layer[u]+1)
		}
	}
	// Sources sit just above their first consumer, not at the top.
	for _, v := range order {
		if len(preds[v]) == 0 && len(succs[v]) > 0 {
			lo := -1
			for _, s := range succs[v] {
				if lo < 0 || layer[s] < lo {
					lo = layer[s]
				}
			}
			layer[v] = max(lo-1, 0)
		}
	}

	vs := make([]vertex, n)
	for i, s := range spec.sizes {
		vs[i] = vertex{w: s.w, h: s.h, real: true, layer: layer[i]}
	}
	// One chain of virtual vertices per source, down to its deepest target.
	chain := make([]map[int]int, n) // source -> layer -> vertex
	link := map[[2]int]bool{}
	connect := func(a, b int) {
		if !link[[2]int{a, b}] {
			link[[2]int{a, b}] = true
			vs[a].down = append(vs[a].down, b)
			vs[b].up = append(vs[b].up, a)
		}
	}
	via := func(u, l int) int {
		if chain[u] == nil {
			chain[u] = map[int]int{}
		}
		if v, ok := chain[u][l]; ok {
			return v
		}
		v := len(vs)
		vs = append(vs, vertex{w: widthVirtual, layer: l})
		chain[u][l] = v
		return v
	}
	paths := make([][]int, len(spec.edges))
	for ei, e := range spec.edges {
		u, v := e[0], e[1]
		if rank[u] >= rank[v] {
			paths[ei] = []int{u, v}
			continue
		}
		path := []int{u}
		prev := u
		for l := layer[u] + 1; l < layer[v]; l++ {
			d := via(u, l)
			connect(prev, d)
			path = append(path, d)
			prev = d
		}
		connect(prev, v)
		paths[ei] = append(path, v)
	}

	layers := buildLayers(vs, order, chain)
	orderLayers(vs, layers)
	placeX(vs, layers)
	ys, height := placeY(vs, layers, spec.layerGap)

	res := layoutResult{pos: make([]point, n), routes: make([][]point, len(spec.edges)), height: height}
	for i := range n {
		res.pos[i] = point{vs[i].x, ys[vs[i].layer]}
		res.width = max(res.width, vs[i].x+vs[i].w/2+layoutMargin)
	}
	for ei, path := range paths {
		var pts []point
		for j, v := range path {
			y := ys[vs[v].layer]
			switch {
			case j == 0:
				pts = append(pts, point{vs[v].x, y + vs[v].h/2})
			case j == len(path)-1:
				pts = append(pts, point{vs[v].x, y - vs[v].h/2})
			default: // a virtual vertex passes straight through its layer's band
				half := layerHalf(vs, layers[vs[v].layer])
				pts = append(pts, point{vs[v].x, y - half}, point{vs[v].x, y + half})
			}
		}
		res.routes[ei] = pts
	}
	return res
}

// topoOrder is Kahn's order, smallest index first among the ready; nodes on
// a cycle follow in index order.
func topoOrder(n int, edges [][2]int) []int {
	indeg := make([]int, n)
	out := make([][]int, n)
	for _, e := range edges {
		if e[0] != e[1] {
			indeg[e[1]]++
			out[e[0]] = append(out[e[0]], e[1])
		}
	}
	var ready intHeap
	for v := range n {
		if indeg[v] == 0 {
			ready.push(v)
		}
	}
	order := make([]int, 0, n)
	done := make([]bool, n)
	for len(ready) > 0 {
		v := ready.pop()
		order = append(order, v)
		done[v] = true
		for _, s := range out[v] {
			if indeg[s]--; indeg[s] == 0 {
				ready.push(s)
			}
		}
	}
	for v := range n {
		if !done[v] {
			order = append(order, v)
		}
	}
	return order
}

// buildLayers gives the initial order: real vertices in topological order,
// each source's virtual vertices where the source is.
func buildLayers(vs []vertex, order []int, chain []map[int]int) [][]int {
	depth := 0
	for _, v := range vs {
		depth = max(depth, v.layer+1)
	}
	layers := make([][]int, depth)
	for _, v := range order {
		layers[vs[v].layer] = append(layers[vs[v].layer], v)
	}
	for _, u := range order {
		// A chain covers the layers below its source without a gap.
		for l := vs[u].layer + 1; ; l++ {
			d, ok := chain[u][l]
			if !ok {
				break
			}
			layers[l] = append(layers[l], d)
		}
	}
	for _, l := range layers {
		for i, v := range l {
			vs[v].ordinal = i
		}
	}
	return layers
}

// orderLayers reduces crossings with barycentre sweeps down and up.
func orderLayers(vs []vertex, layers [][]int) {
	key := make([]float64, len(vs))
	sweep := func(l []int, nbrs func(v int) []int) {
		for _, v := range l {
			ns := nbrs(v)
			if len(ns) == 0 {
				key[v] = float64(vs[v].ordinal)
				continue
			}
			sum := 0.0
			for _, u := range ns {
				sum += float64(vs[u].ordinal)
			}
			key[v] = sum / float64(len(ns))
		}
		slices.SortStableFunc(l, func(a, b int) int {
			switch {
			case key[a] < key[b]:
				return -1
			case key[a] > key[b]:
				return 1
			}
			return 0
		})
		for i, v := range l {
			vs[v].ordinal = i
		}
	}
	for range 4 {
		for i := 1; i < len(layers); i++ {
			sweep(layers[i], func(v int) []int { return vs[v].up })
		}
		for i := len(layers) - 2; i >= 0; i-- {
			sweep(layers[i], func(v int) []int { return vs[v].down })
		}
	}
}

func separation(a, b *vertex) float64 {
	gap := float64(gapReal)
	if !a.real || !b.real {
		gap = gapVirtual
	}
	return (a.w+b.w)/2 + gap
}

// placeX packs each layer, then pulls vertices towards the mean of their
// neighbours, alternating down and up, never breaking the order or the
// separation: the mean of the leftmost and rightmost feasible placements
// is feasible too.
func placeX(vs []vertex, layers [][]int) {
	for _, l := range layers {
		x := 0.0
		for i, v := range l {
			if i > 0 {
				x += separation(&vs[l[i-1]], &vs[v])
			}
			vs[v].x = x
		}
		for _, v := range l { // centred on 0, the axis the pull below uses
			vs[v].x -= x / 2
		}
	}
	var want, lo, hi []float64
	place := func(l []int, nbrs func(v int) []int) {
		want, lo, hi = want[:0], lo[:0], hi[:0]
		for _, v := range l {
			ns := nbrs(v)
			d := vs[v].x
			if len(ns) > 0 {
				sum := 0.0
				for _, u := range ns {
					sum += vs[u].x
				}
				d = sum / float64(len(ns))
			}
			// A weak pull towards the axis: following neighbours alone lets
			// a long graph drift sideways a little at every layer.
			want = append(want, d*(1-axisPull))
		}
		lo = append(lo, want...)
		hi = append(hi, want...)
		for i := 1; i < len(l); i++ {
			lo[i] = max(lo[i], lo[i-1]+separation(&vs[l[i-1]], &vs[l[i]]))
		}
		for i := len(l) - 2; i >= 0; i-- {
			hi[i] = min(hi[i], hi[i+1]-separation(&vs[l[i]], &vs[l[i+1]]))
		}
		for i, v := range l {
			vs[v].x = (lo[i] + hi[i]) / 2
		}
	}
	for range 6 {
		for i := 1; i < len(layers); i++ {
			place(layers[i], func(v int) []int { return vs[v].up })
		}
		for i := len(layers) - 2; i >= 0; i-- {
			place(layers[i], func(v int) []int { return vs[v].down })
		}
	}
	left := 0.0
	first := true
	for i := range vs {
		if l := vs[i].x - vs[i].w/2; first || l < left {
			left, first = l, false
		}
	}
	for i := range vs {
		vs[i].x += layoutMargin - left
	}
}

// placeY gives each layer the height of its tallest box.
func placeY(vs []vertex, layers [][]int, gap float64) ([]float64, float64) {
	ys := make([]float64, len(layers))
	y := float64(layoutMargin)
	for i, l := range layers {
		half := layerHalf(vs, l)
		ys[i] = y + half
		y += 2*half + gap
	}
	return ys, y - gap + layoutMargin
}

func layerHalf(vs []vertex, l []int) float64 {
	h := 0.0
	for _, v := range l {
		h = max(h, vs[v].h)
	}
	return h / 2
}

// intHeap is a min-heap of vertex indices.
type intHeap []int

func (h *intHeap) push(v int) {
	*h = append(*h, v)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p] <= s[i] {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *intHeap) pop() int {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s[l] < s[m] {
			m = l
		}
		if r < len(s) && s[r] < s[m] {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

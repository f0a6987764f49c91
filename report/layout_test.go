package report

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestLayoutProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "n")
		spec := layoutSpec{layerGap: 30}
		for i := range n {
			w := rapid.Float64Range(10, 200).Draw(t, "w")
			h := rapid.Float64Range(10, 60).Draw(t, "h")
			_ = i
			spec.sizes = append(spec.sizes, size{w, h})
		}
		for v := 1; v < n; v++ {
			k := rapid.IntRange(0, 3).Draw(t, "preds")
			for range k {
				u := rapid.IntRange(0, v-1).Draw(t, "u")
				spec.edges = append(spec.edges, [2]int{u, v})
			}
		}
		lay := layout(spec)
		const eps = 1e-6
		for i, p := range lay.pos {
			s := spec.sizes[i]
			if p.x-s.w/2 < -eps || p.x+s.w/2 > lay.width+eps || p.y-s.h/2 < -eps || p.y+s.h/2 > lay.height+eps {
				t.Fatalf("box %d at %v size %v outside %vx%v", i, p, s, lay.width, lay.height)
			}
			for j := range i {
				q, r := lay.pos[j], spec.sizes[j]
				if math.Abs(p.x-q.x) < (s.w+r.w)/2-eps && math.Abs(p.y-q.y) < (s.h+r.h)/2-eps {
					t.Fatalf("boxes %d and %d overlap", i, j)
				}
			}
		}
		for ei, e := range spec.edges {
			rt := lay.routes[ei]
			u, v := lay.pos[e[0]], lay.pos[e[1]]
			start, end := rt[0], rt[len(rt)-1]
			if start.x != u.x || math.Abs(start.y-(u.y+spec.sizes[e[0]].h/2)) > eps {
				t.Fatalf("edge %v starts at %v, not under its source %v", e, start, u)
			}
			if end.x != v.x || math.Abs(end.y-(v.y-spec.sizes[e[1]].h/2)) > eps {
				t.Fatalf("edge %v ends at %v, not over its target %v", e, end, v)
			}
			for k := 1; k < len(rt); k++ {
				if rt[k].y < rt[k-1].y-eps {
					t.Fatalf("edge %v climbs: %v", e, rt)
				}
			}
		}
	})
}

// A cycle cannot come from a valid plan, but the layout must not loop or
// panic on one.
func TestLayoutCycle(t *testing.T) {
	spec := layoutSpec{sizes: []size{{40, 20}, {40, 20}, {40, 20}}, edges: [][2]int{{0, 1}, {1, 2}, {2, 0}, {1, 1}}}
	lay := layout(spec)
	if len(lay.routes) != 4 || lay.width <= 0 || lay.height <= 0 {
		t.Fatalf("layout = %+v", lay)
	}
}

func TestLayoutLongEdgesShareARoute(t *testing.T) {
	// 0 feeds 1..5 along a chain 1 -> 2 -> ... -> 5: one virtual chain from
	// 0 serves every long edge.
	spec := layoutSpec{sizes: make([]size, 6), layerGap: 30}
	for i := range spec.sizes {
		spec.sizes[i] = size{40, 20}
	}
	for v := 1; v < 6; v++ {
		spec.edges = append(spec.edges, [2]int{0, v})
		if v > 1 {
			spec.edges = append(spec.edges, [2]int{v - 1, v})
		}
	}
	lay := layout(spec)
	xAt := map[float64]float64{} // y -> x of the route there
	long := 0
	for ei, e := range spec.edges {
		if e[0] != 0 {
			continue
		}
		rt := lay.routes[ei]
		for _, p := range rt[1 : len(rt)-1] {
			long++
			if x, ok := xAt[p.y]; ok && x != p.x {
				t.Errorf("edges from 0 pass y=%v at x=%v and x=%v, want one shared route", p.y, x, p.x)
			}
			xAt[p.y] = p.x
		}
	}
	if long == 0 {
		t.Errorf("no long edge routed through virtual points")
	}
}

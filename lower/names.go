package lower

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
)

// namer hands out names that collide with nothing in the program: every
// value, node and module of the input is reserved, so names made for
// lowering (boxes, rederived sizes, delegate calls, modules) are unique
// in the parent and in every module alike.
type namer struct {
	used map[string]bool
	next map[string]int
	// reserved holds the graphs already walked: lowering reserves each
	// nested graph again, and walking its subtree each time was
	// quadratic in the nesting depth (1,000 nested conds: 9 s).
	reserved map[*ir.Graph]bool
	// later are graphs to reserve before the first name is handed out
	// (Judge may hand out none: reserving a large graph's every name
	// would be most of its work).
	later []*ir.Graph
}

// reserveLater reserves g's names when fresh is first called.
func (nm *namer) reserveLater(g *ir.Graph) { nm.later = append(nm.later, g) }

func newNamer() *namer {
	return &namer{used: map[string]bool{}, next: map[string]int{}, reserved: map[*ir.Graph]bool{}}
}

func (nm *namer) reserveGraph(g *ir.Graph) {
	if nm.reserved[g] {
		return
	}
	_ = g.Walk(func(_ string, g *ir.Graph) error {
		nm.reserved[g] = true
		for _, n := range g.InputNames() {
			nm.used[n] = true
		}
		for _, n := range g.Nodes {
			nm.used[n.Name] = true
			n.ForEachOutputRef(func(s string) { nm.used[s] = true })
			for _, sub := range n.SubGraphs() {
				nm.used[sub.Name] = true
			}
		}
		return nil
	})
}

// fresh returns base, or base_1, base_2, ... as FX numbers duplicates.
func (nm *namer) fresh(base string) string {
	for {
		k := nm.next[base]
		nm.next[base] = k + 1
		name := base
		if k > 0 {
			name = fmt.Sprintf("%s_%d", base, k)
		}
		if nm.take(name) {
			return name
		}
	}
}

// take reserves name if nothing has it, and reports whether it did.
func (nm *namer) take(name string) bool {
	for _, g := range nm.later {
		nm.reserveGraph(g)
	}
	nm.later = nil
	if nm.used[name] {
		return false
	}
	nm.used[name] = true
	return true
}

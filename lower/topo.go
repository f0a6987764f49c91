package lower

import (
	"container/heap"
	"fmt"

	"github.com/seam-rt/seam/ir"
)

// topoOrder sorts items so every value is defined before use, taking the
// ready item with the smallest key first (Kahn's algorithm), so the result
// stays as close to the original order as the dependencies allow.
func topoOrder(nodes []*ir.Node, key func(int) float64) ([]int, error) {
	n := len(nodes)
	uses := (&ir.Graph{Nodes: nodes}).DefUse()
	indeg := make([]int, n)
	succ := make([][]int, n)
	for i, nd := range nodes {
		seen := map[int]bool{}
		nd.ForEachInputRef(func(s string) {
			if j, ok := uses.Producer(s); ok && j >= 0 && j != i && !seen[j] {
				seen[j] = true
				succ[j] = append(succ[j], i)
				indeg[i]++
			}
		})
	}
	h := &readyHeap{key: key}
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			heap.Push(h, i)
		}
	}
	var order []int
	for h.Len() > 0 {
		i := heap.Pop(h).(int)
		order = append(order, i)
		for _, j := range succ[i] {
			if indeg[j]--; indeg[j] == 0 {
				heap.Push(h, j)
			}
		}
	}
	if len(order) != n {
		return nil, fmt.Errorf("cycle among %d nodes after contraction", n-len(order))
	}
	return order, nil
}

type readyHeap struct {
	items []int
	key   func(int) float64
}

func (h *readyHeap) Len() int { return len(h.items) }
func (h *readyHeap) Less(i, j int) bool {
	ki, kj := h.key(h.items[i]), h.key(h.items[j])
	if ki != kj {
		return ki < kj
	}
	return h.items[i] < h.items[j]
}
func (h *readyHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *readyHeap) Push(x any)    { h.items = append(h.items, x.(int)) }
func (h *readyHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

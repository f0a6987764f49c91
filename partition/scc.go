package partition

import "slices"

// condensation is the graph in which the nodes of each class (a group, or a
// partition) are contracted to one vertex, split into strongly connected
// components. Vertex v < n is node v outside every class; vertex n+c is
// class c. Buffers are reused across calls.
type condensation struct {
	n       int32
	classOf []int32
	mem     *csr

	index, low, comp []int32 // per vertex: Tarjan's numbers, then its component
	onStack          []bool
	stack, order     []int32 // order: vertices grouped by component
	start            []int32 // component k is order[start[k]:start[k+1]]
	frames           []sccFrame
}

// sccFrame is one vertex of the explicit DFS stack: the vertex, which of its
// members is being walked, and the position in that member's successors.
type sccFrame struct{ v, m, s int32 }

// badSCC is a strongly connected set of the contracted graph that must sit
// at one level but contains a barrier-to-delegable edge (which must climb a
// level): the classes in it cannot all be kept.
type badSCC struct {
	classes []int32 // class ids in the component, ascending
	via     int32   // the barrier on the offending edge
}

func (c *condensation) rep(v int32) int32 {
	if k := c.classOf[v]; k >= 0 {
		return c.n + k
	}
	return v
}

// member returns the i-th node of vertex x.
func (c *condensation) member(x, i int32) (int32, bool) {
	if x < c.n {
		return x, i == 0
	}
	ms := c.mem.row(x - c.n)
	if int(i) < len(ms) {
		return ms[i], true
	}
	return 0, false
}

// components lists the components in Tarjan's completion order: every
// edge between components goes from a later one to an earlier one.
func (c *condensation) components() int { return len(c.start) - 1 }

func (c *condensation) component(k int) []int32 { return c.order[c.start[k]:c.start[k+1]] }

// condense finds the components with Tarjan's algorithm, iteratively (a
// million-node chain would overflow a recursive one). O(N + E).
func (p *planner) condense(classOf []int32, mem *csr) *condensation {
	p.buildSuccs()
	c := &p.cond
	c.n, c.classOf, c.mem = int32(p.n), classOf, mem
	nv := p.n + len(mem.off) - 1
	c.index = grow(c.index, nv)
	c.low = grow(c.low, nv)
	c.comp = grow(c.comp, nv)
	if cap(c.onStack) < nv {
		c.onStack = make([]bool, nv)
	}
	c.onStack = c.onStack[:nv]
	for i := range c.index {
		c.index[i] = -1
	}
	c.stack, c.order, c.start, c.frames = c.stack[:0], c.order[:0], c.start[:0], c.frames[:0]

	var counter int32
	visit := func(x int32) {
		c.index[x], c.low[x] = counter, counter
		counter++
		c.stack = append(c.stack, x)
		c.onStack[x] = true
		c.frames = append(c.frames, sccFrame{v: x})
	}
	for v := range c.n {
		if root := c.rep(v); c.index[root] < 0 {
			visit(root)
		}
		for len(c.frames) > 0 {
			f := &c.frames[len(c.frames)-1]
			descended := false
			for !descended {
				u, ok := c.member(f.v, f.m)
				if !ok {
					break
				}
				ss := p.succs(u)
				if int(f.s) >= len(ss) {
					f.m, f.s = f.m+1, 0
					continue
				}
				w := c.rep(ss[f.s])
				f.s++
				switch {
				case w == f.v:
				case c.index[w] < 0:
					visit(w)
					descended = true
				case c.onStack[w]:
					c.low[f.v] = min(c.low[f.v], c.index[w])
				}
			}
			if descended {
				continue
			}
			x := f.v
			c.frames = c.frames[:len(c.frames)-1]
			if len(c.frames) > 0 {
				parent := c.frames[len(c.frames)-1].v
				c.low[parent] = min(c.low[parent], c.low[x])
			}
			if c.low[x] == c.index[x] {
				k := int32(len(c.start))
				c.start = append(c.start, int32(len(c.order)))
				for {
					y := c.stack[len(c.stack)-1]
					c.stack = c.stack[:len(c.stack)-1]
					c.onStack[y] = false
					c.comp[y] = k
					c.order = append(c.order, y)
					if y == x {
						break
					}
				}
			}
		}
	}
	c.start = append(c.start, int32(len(c.order)))
	return c
}

// contractedLevels levels the graph with each class contracted, so that a
// class sits at a single level: each component takes the longest-path level
// over its predecessors (doc.go). Components that cannot take one level are
// returned; the levels of their nodes are then meaningless.
func (p *planner) contractedLevels(classOf []int32, mem *csr) []badSCC {
	c := p.condense(classOf, mem)
	var bad []badSCC
	for k := c.components() - 1; k >= 0; k-- {
		scc := c.component(k)
		var lvl int32
		via := int32(-1)
		delegable := false
		for _, x := range scc {
			for i := int32(0); ; i++ {
				m, ok := c.member(x, i)
				if !ok {
					break
				}
				mb := p.barrier(m)
				delegable = delegable || !mb
				for _, q := range p.preds[m] {
					w := int32(0)
					if !mb && p.barrier(q) {
						w = 1
					}
					if c.comp[c.rep(q)] == int32(k) {
						if w == 1 && (via < 0 || q < via) {
							via = q
						}
						continue
					}
					lvl = max(lvl, p.level[q]+w)
				}
			}
		}
		if delegable {
			lvl = max(lvl, 1)
		}
		p.setLevel(c, scc, lvl)
		if via >= 0 {
			b := badSCC{via: via}
			for _, x := range scc {
				if x >= c.n {
					b.classes = append(b.classes, x-c.n)
				}
			}
			slices.Sort(b.classes)
			bad = append(bad, b)
		}
	}
	p.leveled = true
	return bad
}

// latestLevels moves every component as high as it can go below top, the
// mirror image of contractedLevels, on the components condense found last.
func (p *planner) latestLevels(c *condensation, top int32) {
	for k := range c.components() {
		scc := c.component(k)
		lvl := top
		for _, x := range scc {
			for i := int32(0); ; i++ {
				m, ok := c.member(x, i)
				if !ok {
					break
				}
				mb := p.barrier(m)
				for _, s := range p.succs(m) {
					if c.comp[c.rep(s)] == int32(k) {
						continue
					}
					if mb && !p.barrier(s) {
						lvl = min(lvl, p.level[s]-1)
					} else {
						lvl = min(lvl, p.level[s])
					}
				}
			}
		}
		p.setLevel(c, scc, lvl)
	}
}

func (p *planner) setLevel(c *condensation, scc []int32, lvl int32) {
	for _, x := range scc {
		for i := int32(0); ; i++ {
			m, ok := c.member(x, i)
			if !ok {
				break
			}
			p.level[m] = lvl
		}
	}
}

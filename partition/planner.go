package partition

import "math"

// noLevel stands for "no bound" in level arithmetic.
const noLevel = math.MaxInt32 / 2

// planner holds the working state of one Propose call. A node is a barrier
// when it will not be delegated (reason != Delegated): paths through
// barriers are what makes a partitioning cyclic.
type planner struct {
	n          int
	preds      [][]int32 // the caller's, read only
	compute    []bool    // the caller's, read only; nil: every node counts
	minCompute int32

	reason []Reason
	level  []int32 // see doc.go: partitions are the classes of equal level
	aux    []int32 // scratch: barrier levels during sweeps

	succOff, succ []int32 // successors, built only when a pass walks backwards

	groups   *groupSets // nil without groups
	leveled  bool       // level already holds a valid assignment
	cond     condensation
	orderBuf []int32 // scratch: nodes sorted by level in canonicalize
	startBuf []int32 // scratch: bucket starts in canonicalize
	usedBuf  []bool  // scratch: levels in use
	stats    levelStats
}

func newPlanner(d *DAG, r *Request) *planner {
	n := len(d.Preds)
	p := &planner{
		n:          n,
		preds:      d.Preds,
		compute:    r.Compute,
		minCompute: int32(min(r.MinCompute, math.MaxInt32/4)),
		reason:     make([]Reason, n),
		level:      make([]int32, n),
	}
	for v, ok := range r.Supported {
		if !ok {
			p.reason[v] = Unsupported
		}
	}
	return p
}

func (p *planner) barrier(v int32) bool { return p.reason[v] != Delegated }

func (p *planner) counts(v int32) bool { return p.compute == nil || p.compute[v] }

// buildSuccs lays out successor lists once (CSR), for the backward passes.
func (p *planner) buildSuccs() {
	if p.succOff != nil {
		return
	}
	off := make([]int32, p.n+1)
	for _, ps := range p.preds {
		for _, q := range ps {
			off[q+1]++
		}
	}
	for v := range p.n {
		off[v+1] += off[v]
	}
	succ := make([]int32, off[p.n])
	fill := make([]int32, p.n)
	copy(fill, off[:p.n])
	for v, ps := range p.preds {
		for _, q := range ps {
			succ[fill[q]] = int32(v)
			fill[q]++
		}
	}
	p.succOff, p.succ = off, succ
}

func (p *planner) succs(v int32) []int32 { return p.succ[p.succOff[v]:p.succOff[v+1]] }

// asap gives every node its earliest level in one topological sweep: a
// barrier sits at the highest level among its predecessors, a delegable node
// at least at 1 and strictly above any barrier predecessor. Partitions are
// then the level classes, and their number is the fewest possible (doc.go).
func (p *planner) asap() {
	for v, ps := range p.preds {
		var l int32
		if p.reason[v] != Delegated {
			for _, q := range ps {
				l = max(l, p.level[q])
			}
		} else {
			l = 1
			for _, q := range ps {
				if p.reason[q] != Delegated {
					l = max(l, p.level[q]+1)
				} else {
					l = max(l, p.level[q])
				}
			}
		}
		p.level[v] = l
	}
	p.leveled = true
}

// maxLevel is the highest level of a delegable node (0 when none).
func (p *planner) maxLevel() int32 {
	var k int32
	for v, l := range p.level {
		if p.reason[v] == Delegated {
			k = max(k, l)
		}
	}
	return k
}

// csr is a list of lists in two flat slices.
type csr struct {
	off, item []int32
}

func (c *csr) row(i int32) []int32 { return c.item[c.off[i]:c.off[i+1]] }

// groupBy fills c with the nodes of each class, ascending, for classOf
// values in [0, k); nodes with class -1 are left out. Buffers are reused.
func (c *csr) groupBy(classOf []int32, k int) {
	c.off = grow(c.off, k+1)
	clear(c.off)
	for _, g := range classOf {
		if g >= 0 {
			c.off[g+1]++
		}
	}
	for i := range k {
		c.off[i+1] += c.off[i]
	}
	c.item = grow(c.item, int(c.off[k]))
	next := c.off[:k] // advanced while filling, restored below
	for v, g := range classOf {
		if g >= 0 {
			c.item[next[g]] = int32(v)
			next[g]++
		}
	}
	copy(c.off[1:], c.off[:k])
	c.off[0] = 0
}

// grow returns s resized to n, reusing its array when large enough.
func grow(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n)
}

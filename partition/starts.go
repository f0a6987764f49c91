package partition

import (
	"math/rand/v2"
	"slices"
)

// The local search runs from several starting levels. Random starts pay off
// on small graphs (bert_tiny with stress_mod5 keeps 105 nodes instead of 96)
// and hardly on large ones (30 more of 80,000 nodes), so their number
// shrinks with the graph: random starts × nodes stays within the budget.
const (
	maxRandomStarts = 8
	startNodeBudget = 100_000
	startSeed       = 0x5eed // fixed, so that results are deterministic
)

// enforceMinCompute turns the level classes into partitions that each hold
// at least MinCompute compute nodes, losing as few nodes as it can (doc.go,
// "MinCompute"). The local search (compact) depends on where it starts, so
// it runs from the earliest levels, the latest, the middle and a few seeded
// random levels in between, and keeps the best outcome. Starts in between
// would split groups, so with groups only the extremes are tried.
func (p *planner) enforceMinCompute() {
	if !p.hasSmallLevel() {
		return
	}
	p.buildSuccs()
	p.aux = grow(p.aux, p.n)
	earliest, reasons := slices.Clone(p.level), slices.Clone(p.reason)
	p.latest()
	latest := slices.Clone(p.level)

	best := outcome{level: make([]int32, p.n), reason: make([]Reason, p.n)}
	try := func(start func()) {
		copy(p.reason, reasons)
		start()
		p.compact()
		best.keep(p)
	}
	try(func() { copy(p.level, earliest) })
	try(func() { copy(p.level, latest) })
	if !p.keepsGroups() {
		try(func() { p.between(latest, func(lo, hi int32) int32 { return lo + (hi-lo)/2 }) })
		rng := rand.New(rand.NewPCG(startSeed, startSeed))
		for range min(maxRandomStarts, startNodeBudget/max(p.n, 1)) {
			try(func() { p.between(latest, func(lo, hi int32) int32 { return lo + rng.Int32N(hi-lo+1) }) })
		}
	}
	p.level, p.reason = best.level, best.reason
}

// outcome is the best result of the local search so far.
type outcome struct {
	score  score
	tried  bool
	level  []int32
	reason []Reason
}

// keep takes p's state if it beats the best so far, by swapping buffers.
func (o *outcome) keep(p *planner) {
	s := p.score()
	if o.tried && !o.score.worse(s) {
		return
	}
	o.score, o.tried = s, true
	o.level, p.level = p.level, o.level
	o.reason, p.reason = p.reason, o.reason
}

// score ranks outcomes: more delegated nodes first, then fewer partitions.
type score struct{ nodes, parts int }

func (s score) worse(o score) bool {
	return s.nodes < o.nodes || (s.nodes == o.nodes && s.parts > o.parts)
}

func (p *planner) score() score {
	used := p.levelsInUse()
	var s score
	for v, l := range p.level {
		if p.reason[v] == Delegated {
			s.nodes++
			if !used[l] {
				used[l] = true
				s.parts++
			}
		}
	}
	return s
}

// latest moves every node to the highest level it can take with the same
// number of levels: the mirror image of asap (or, with groups, of
// contractedLevels).
func (p *planner) latest() {
	top := p.maxLevel()
	if p.keepsGroups() {
		p.latestLevels(p.condense(p.groups.live, &p.groups.mem), top)
		return
	}
	for v := int32(p.n) - 1; v >= 0; v-- {
		l := top
		vb := p.barrier(v)
		for _, s := range p.succs(v) {
			if vb && !p.barrier(s) {
				l = min(l, p.level[s]-1)
			} else {
				l = min(l, p.level[s])
			}
		}
		p.level[v] = l
	}
}

// between sets levels in one forward sweep, each delegable node at a level
// chosen between the lowest its predecessors allow and its latest level.
// Any choice is valid: a node's latest level leaves room for its successors.
func (p *planner) between(latest []int32, choose func(lo, hi int32) int32) {
	for v := range int32(p.n) {
		if p.barrier(v) {
			var b int32
			for _, q := range p.preds[v] {
				b = max(b, p.level[q])
			}
			p.level[v] = b
			continue
		}
		lo := int32(1)
		for _, q := range p.preds[v] {
			if p.barrier(q) {
				lo = max(lo, p.level[q]+1)
			} else {
				lo = max(lo, p.level[q])
			}
		}
		p.level[v] = choose(lo, latest[v])
	}
}

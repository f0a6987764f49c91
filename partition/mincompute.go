package partition

// Rounds bound the improvement loops so that Propose stays linear. Each
// round makes progress that is never undone (more nodes in big levels, or
// more nodes delegated), and on real and random graphs they settle in two
// or three.
const (
	maxSweepRounds  = 16
	maxAbsorbRounds = 16
)

// hasSmallLevel reports whether some level holds fewer compute nodes than
// MinCompute, which is when enforceMinCompute has work to do.
func (p *planner) hasSmallLevel() bool {
	cnt := make([]int32, p.maxLevel()+1)
	used := make([]bool, len(cnt))
	for v, l := range p.level {
		if p.reason[v] == Delegated {
			used[l] = true
			if p.counts(int32(v)) {
				cnt[l]++
			}
		}
	}
	for l, u := range used {
		if u && cnt[l] < p.minCompute {
			return true
		}
	}
	return false
}

// compact is the local search: sweeps move nodes out of small levels, small
// levels are dropped, the rest is re-levelled (merging what became
// mergeable), and dropped nodes that now fit a partition are taken back.
func (p *planner) compact() {
	st := p.levelStats()
	for range maxSweepRounds {
		if p.sweepBackward(st)+p.sweepForward(st) == 0 {
			break
		}
	}
	dropped := 0
	for v, l := range p.level {
		if p.reason[v] == Delegated && !st.big.has(l) {
			p.reason[v] = TooSmall
			dropped++
		}
	}
	// Without drops every delegable node is still delegated in no more
	// levels than the minimum, so no two partitions can merge. Drops are what
	// call for canonicalize.
	if dropped == 0 {
		return
	}
	for round := 0; ; round++ {
		top := p.canonicalize()
		if round == maxAbsorbRounds || p.absorb(top) == 0 {
			return
		}
	}
}

// levelsInUse returns a cleared flag per level, reusing a buffer.
func (p *planner) levelsInUse() []bool {
	n := int(p.maxLevel()) + 1
	if cap(p.usedBuf) < n {
		p.usedBuf = make([]bool, n)
	}
	p.usedBuf = p.usedBuf[:n]
	clear(p.usedBuf)
	return p.usedBuf
}

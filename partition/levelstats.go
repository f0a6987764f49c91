package partition

// levelStats tracks, per level, how many nodes and compute nodes it holds,
// and which levels are big (at least MinCompute compute nodes) or nearly big
// (one compute node short, and not empty).
type levelStats struct {
	mc          int32
	size, cnt   []int32
	big, nearly *levelSet
	top         int32 // highest level in use
}

// levelStats counts the current levels, reusing the planner's buffers
// (the local search runs several times per Propose).
func (p *planner) levelStats() *levelStats {
	top := p.maxLevel()
	st := &p.stats
	st.mc, st.top = p.minCompute, top
	st.size, st.cnt = grow(st.size, int(top)+1), grow(st.cnt, int(top)+1)
	clear(st.size)
	clear(st.cnt)
	for v, l := range p.level {
		if p.reason[v] == Delegated {
			st.size[l]++
			if p.counts(int32(v)) {
				st.cnt[l]++
			}
		}
	}
	if st.big == nil {
		// No level exceeds the number of nodes.
		st.big, st.nearly = newLevelSet(p.n+1), newLevelSet(p.n+1)
	} else {
		st.big.clear()
		st.nearly.clear()
	}
	for l := int32(1); l <= top; l++ {
		st.refresh(l)
	}
	return st
}

func (st *levelStats) refresh(l int32) {
	switch {
	case st.cnt[l] >= st.mc:
		st.big.add(l)
		st.nearly.remove(l)
	case st.cnt[l] == st.mc-1 && st.size[l] > 0:
		st.big.remove(l)
		st.nearly.add(l)
	default:
		st.big.remove(l)
		st.nearly.remove(l)
	}
}

func (st *levelStats) move(from, to int32, counts bool) {
	st.size[from]--
	st.size[to]++
	if counts {
		st.cnt[from]--
		st.cnt[to]++
	}
	st.refresh(from)
	st.refresh(to)
}

// target picks where a node at level j may go within [lo, hi] (j outside
// it): from a small level into a big one; failing that, a compute node from
// a small level or from a big level with compute to spare tops up a level
// one short. Each such move delegates at least one more node in the end.
// high picks the highest candidate (backward sweep), else the lowest.
func (st *levelStats) target(j, lo, hi int32, counts, high bool) int32 {
	pick := func(s *levelSet) int32 {
		var t int32
		if high {
			t = s.prev(hi)
		} else {
			t = s.next(lo)
		}
		if t < lo || t > hi {
			return -1
		}
		return t
	}
	small := !st.big.has(j)
	if small {
		if t := pick(st.big); t >= 0 {
			return t
		}
	}
	if counts && (small || st.cnt[j] > st.mc) {
		return pick(st.nearly)
	}
	return -1
}

// movable says whether a node at level j could be moved by target at all,
// to skip computing its range otherwise.
func (st *levelStats) movable(j int32, counts bool) bool {
	return !st.big.has(j) || (counts && st.cnt[j] > st.mc)
}

package partition

func (p *planner) pinned(v int32) bool { return p.groups != nil && p.groups.live[v] >= 0 }

// sweepBackward visits nodes last to first and lifts movable nodes to a
// higher level. aux[u] of a barrier u is the lowest level of a delegable
// node reachable from u through barriers only: a node feeding u must stay
// below it. Lifting a node never breaks its predecessors' constraints.
func (p *planner) sweepBackward(st *levelStats) int {
	moves := 0
	for v := int32(p.n) - 1; v >= 0; v-- {
		if p.barrier(v) {
			c := int32(noLevel)
			for _, s := range p.succs(v) {
				if p.barrier(s) {
					c = min(c, p.aux[s])
				} else {
					c = min(c, p.level[s])
				}
			}
			p.aux[v] = c
			continue
		}
		j, counts := p.level[v], p.counts(v)
		if !st.movable(j, counts) || p.pinned(v) {
			continue
		}
		hi := st.top
		for _, s := range p.succs(v) {
			if p.barrier(s) {
				hi = min(hi, p.aux[s]-1)
			} else {
				hi = min(hi, p.level[s])
			}
		}
		if hi <= j {
			continue
		}
		if t := st.target(j, j+1, hi, counts, true); t >= 0 {
			st.move(j, t, counts)
			p.level[v] = t
			moves++
		}
	}
	return moves
}

// sweepForward mirrors sweepBackward: aux[u] of a barrier u is the highest
// level of a delegable node reaching u through barriers only, and movable
// nodes drop to a lower level.
func (p *planner) sweepForward(st *levelStats) int {
	moves := 0
	for v := range int32(p.n) {
		if p.barrier(v) {
			var b int32
			for _, q := range p.preds[v] {
				if p.barrier(q) {
					b = max(b, p.aux[q])
				} else {
					b = max(b, p.level[q])
				}
			}
			p.aux[v] = b
			continue
		}
		j, counts := p.level[v], p.counts(v)
		if !st.movable(j, counts) || p.pinned(v) {
			continue
		}
		lo := p.lowest(v)
		if lo >= j {
			continue
		}
		if t := st.target(j, lo, j-1, counts, false); t >= 0 {
			st.move(j, t, counts)
			p.level[v] = t
			moves++
		}
	}
	return moves
}

// lowest is the lowest level node v may take given its predecessors, with
// aux holding forward barrier levels for them.
func (p *planner) lowest(v int32) int32 {
	lo := int32(1)
	for _, q := range p.preds[v] {
		if p.barrier(q) {
			lo = max(lo, p.aux[q]+1)
		} else {
			lo = max(lo, p.level[q])
		}
	}
	return lo
}

package partition

// canonicalize levels the graph afresh with every current partition (level
// class) contracted to one vertex, so that partitions that no longer need
// to be apart merge (doc.go, "Levels" and "MinCompute"). The contracted graph is acyclic
// and the current levels already order it: by level, a partition before the
// barriers at its level, barriers in node order. So one bucket sort and one
// pass give the longest-path levels, with no search for cycles. Returns the
// highest level: partitions now sit at levels 1..top.
func (p *planner) canonicalize() (top int32) {
	old := p.maxLevel()
	// A barrier's level is the highest level of a delegated node reaching
	// it through barriers only; a partition at level l precedes it at l.
	for v, ps := range p.preds {
		if p.reason[v] != Delegated {
			var b int32
			for _, q := range ps {
				b = max(b, p.level[q])
			}
			p.level[v] = b
		}
	}
	key := func(v int) int32 {
		if p.reason[v] == Delegated {
			return 2 * p.level[v]
		}
		return 2*p.level[v] + 1
	}
	p.startBuf = grow(p.startBuf, int(2*old+3))
	start := p.startBuf
	clear(start)
	for v := range p.n {
		start[key(v)+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	p.orderBuf = grow(p.orderBuf, p.n)
	order := p.orderBuf
	for v := range p.n {
		k := key(v)
		order[start[k]] = int32(v)
		start[k]++
	}
	// start[k] now ends bucket k; bucket k begins where k-1 ends.
	next := p.aux // the new levels
	begin := int32(0)
	for k := range 2*old + 2 {
		bucket := order[begin:start[k]]
		begin = start[k]
		if len(bucket) == 0 {
			continue
		}
		if k%2 == 1 {
			for _, u := range bucket {
				var b int32
				for _, q := range p.preds[u] {
					b = max(b, next[q])
				}
				next[u] = b
			}
			continue
		}
		lvl := int32(1)
		for _, m := range bucket {
			for _, q := range p.preds[m] {
				switch {
				case p.reason[q] != Delegated:
					lvl = max(lvl, next[q]+1)
				case p.level[q] != int32(k/2): // not in this partition
					lvl = max(lvl, next[q])
				}
			}
		}
		for _, m := range bucket {
			next[m] = lvl
		}
		top = max(top, lvl)
	}
	copy(p.level, next)
	return top
}

// absorb takes back dropped nodes that fit an existing partition, in one
// forward pass. After canonicalize the partitions sit at levels 1..top and
// no two can merge, which makes the level test exact: node x fits partition
// P iff P's level lies between the lowest and highest level x may take.
// aux holds, for barriers after the current node, the backward barrier
// levels, and for those before it the forward ones.
func (p *planner) absorb(top int32) int {
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
		}
	}
	taken := 0
	for v := range int32(p.n) {
		if !p.barrier(v) {
			continue
		}
		if p.reason[v] == TooSmall && !p.pinned(v) {
			lo, hi := p.lowest(v), top
			for _, s := range p.succs(v) {
				if p.barrier(s) {
					hi = min(hi, p.aux[s]-1)
				} else {
					hi = min(hi, p.level[s])
				}
			}
			if lo <= hi {
				p.reason[v] = Delegated
				p.level[v] = lo
				taken++
				continue
			}
		}
		var b int32
		for _, q := range p.preds[v] {
			if p.barrier(q) {
				b = max(b, p.aux[q])
			} else {
				b = max(b, p.level[q])
			}
		}
		p.aux[v] = b
	}
	return taken
}

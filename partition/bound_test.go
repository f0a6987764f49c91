package partition

// Reference computations for judging Propose, slow and simple on purpose.

// bitset is a set of node ids.
type bitset []uint64

func newBitset(n int) bitset      { return make(bitset, (n+63)/64) }
func (b bitset) has(i int32) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }
func (b bitset) set(i int32)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) or(o bitset) {
	for i := range b {
		b[i] |= o[i]
	}
}

// apart[v] holds the nodes u with a path u ~> v through an unsupported node
// strictly between them: u and v can never share a partition.
func apart(d *DAG, r *Request) []bitset {
	n := d.Len()
	anc := make([]bitset, n)   // strict ancestors
	split := make([]bitset, n) // ancestors through an unsupported node
	for v, ps := range d.Preds {
		anc[v], split[v] = newBitset(n), newBitset(n)
		for _, q := range ps {
			anc[v].or(anc[q])
			anc[v].set(q)
			split[v].or(split[q])
			if !r.Supported[q] {
				split[v].or(anc[q])
			}
		}
	}
	return split
}

// delegableBound is an upper bound on how many nodes any valid partitioning
// delegates (without groups): a node can only be delegated with MinCompute
// compute nodes (itself included) that can share a partition with it and,
// for MinCompute 2, with each other. Pairwise compatibility is necessary,
// not sufficient, so the bound can be loose but never too low.
func delegableBound(d *DAG, r *Request) int {
	split := apart(d, r)
	together := func(a, b int32) bool { return !split[a].has(b) && !split[b].has(a) }
	counts := func(v int32) bool { return r.Compute == nil || r.Compute[v] }
	n := int32(d.Len())
	bound := 0
	for v := range n {
		if !r.Supported[v] {
			continue
		}
		var cs []int32
		for c := range n {
			if r.Supported[c] && counts(c) && together(v, c) {
				cs = append(cs, c)
			}
		}
		ok := false
		switch {
		case r.MinCompute <= 0:
			ok = true
		case r.MinCompute == 1:
			ok = len(cs) > 0
		case r.MinCompute == 2:
			for i := 0; i < len(cs) && !ok; i++ {
				for j := i + 1; j < len(cs) && !ok; j++ {
					ok = together(cs[i], cs[j])
				}
			}
		default:
			ok = len(cs) >= r.MinCompute
		}
		if ok {
			bound++
		}
	}
	return bound
}

// best is the optimum found by exhaustive search: most delegated nodes,
// then fewest partitions.
type best struct{ nodes, parts int }

// exhaustive tries every way to split the supported nodes into partitions
// and leftovers (restricted growth strings, Bell(k+1) of them for k
// supported nodes) and keeps the best valid one. Only for tiny graphs.
func exhaustive(d *DAG, r *Request) best {
	var sup []int32
	for v, ok := range r.Supported {
		if ok {
			sup = append(sup, int32(v))
		}
	}
	label := make([]int, len(sup)) // 0: left out, k>0: partition k
	b := best{nodes: 0, parts: 0}
	var rec func(i, used int)
	rec = func(i, used int) {
		if i == len(sup) {
			parts := make([][]int32, used)
			nodes := 0
			for j, l := range label {
				if l > 0 {
					parts[l-1] = append(parts[l-1], sup[j])
					nodes++
				}
			}
			if nodes < b.nodes || (nodes == b.nodes && used >= b.parts && b.nodes > 0) {
				return
			}
			if Check(d, r, parts) == nil {
				b = best{nodes, used}
			}
			return
		}
		for l := 0; l <= used+1; l++ {
			label[i] = l
			rec(i+1, max(used, l))
		}
	}
	rec(0, 0)
	return b
}

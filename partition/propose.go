package partition

// Propose cuts the DAG into partitions a backend can run: supported nodes
// only, groups whole, at least MinCompute compute nodes each, and acyclic
// once each partition is contracted to one node. It delegates every
// supported node it can in the fewest partitions it can (doc.go explains the
// algorithm and what is optimal). The result is deterministic and Propose
// never modifies d or r.
func Propose(d *DAG, r *Request) (*Result, error) {
	if err := validate(d, r); err != nil {
		return nil, err
	}
	p := newPlanner(d, r)
	if len(r.Groups) > 0 {
		p.resolveGroups(r.Groups)
	}
	if !p.leveled {
		p.asap()
	}
	if p.minCompute > 0 {
		p.enforceMinCompute()
	}
	return p.result(r.Groups), nil
}

// result turns the level classes into partitions numbered by first node.
func (p *planner) result(groups [][]int32) *Result {
	res := &Result{PartitionOf: make([]int32, p.n), Reasons: p.reason}
	top := p.maxLevel()
	byLevel := make([]int32, top+1)
	for i := range byLevel {
		byLevel[i] = -1
	}
	var sizes []int32
	for v, l := range p.level {
		if p.reason[v] != Delegated {
			res.PartitionOf[v] = -1
			continue
		}
		if byLevel[l] < 0 {
			byLevel[l] = int32(len(sizes))
			sizes = append(sizes, 0)
		}
		k := byLevel[l]
		res.PartitionOf[v] = k
		sizes[k]++
	}
	// One backing array for all partitions keeps a million-node result to a
	// handful of allocations.
	flat := make([]int32, 0, p.n)
	res.Partitions = make([][]int32, len(sizes))
	for k, s := range sizes {
		res.Partitions[k] = flat[len(flat) : len(flat) : len(flat)+int(s)]
		flat = flat[:len(flat)+int(s)]
	}
	for v, k := range res.PartitionOf {
		if k >= 0 {
			res.Partitions[k] = append(res.Partitions[k], int32(v))
		}
	}
	res.Groups = p.groupOutcomes(groups, res.PartitionOf)
	return res
}

func (p *planner) groupOutcomes(groups [][]int32, partOf []int32) []GroupOutcome {
	if len(groups) == 0 {
		return nil
	}
	out := make([]GroupOutcome, len(groups))
	for g, members := range groups {
		out[g] = GroupOutcome{Status: GroupKept, Node: -1, Other: -1, Partition: -1}
		if p.groups == nil {
			continue
		}
		c := p.groups.classOfGroup(members)
		if c < 0 {
			continue
		}
		o := p.groups.outcome[c]
		if o.Status == GroupKept {
			first := p.groups.mem.row(c)[0]
			if k := partOf[first]; k >= 0 {
				o.Partition = int(k)
			} else {
				o.Status = GroupTooSmall
			}
		}
		out[g] = o
	}
	return out
}

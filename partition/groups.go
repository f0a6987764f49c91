package partition

// groupSets is the request's groups after merging overlapping ones into
// classes, numbered by smallest member so that nothing depends on the order
// the caller listed groups or members in.
type groupSets struct {
	of      []int32        // per node: class, or -1
	mem     csr            // members per class, ascending
	first   []int32        // per class: the lowest input group index in it
	outcome []GroupOutcome // per class
	live    []int32        // per node: class while the class is kept, else -1
}

// newGroupSets merges overlapping groups with a union-find over group
// indices. Returns nil when no group has a member.
func newGroupSets(n int, groups [][]int32) *groupSets {
	parent := make([]int32, len(groups))
	for g := range parent {
		parent[g] = int32(g)
	}
	find := func(g int32) int32 {
		for parent[g] != g {
			parent[g] = parent[parent[g]]
			g = parent[g]
		}
		return g
	}
	owner := make([]int32, n)
	for i := range owner {
		owner[i] = -1
	}
	nonEmpty := false
	for g, members := range groups {
		for _, m := range members {
			nonEmpty = true
			if o := owner[m]; o < 0 {
				owner[m] = int32(g)
			} else if a, b := find(o), find(int32(g)); a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	if !nonEmpty {
		return nil
	}
	s := &groupSets{of: owner} // owner is rewritten in place to class ids
	classOfRoot := make([]int32, len(groups))
	for i := range classOfRoot {
		classOfRoot[i] = -1
	}
	k := int32(0)
	for v, o := range owner {
		if o < 0 {
			continue
		}
		r := find(o)
		if classOfRoot[r] < 0 {
			classOfRoot[r] = k
			s.first = append(s.first, r) // the root is the lowest index: unions keep the minimum
			k++
		}
		s.of[v] = classOfRoot[r]
	}
	s.mem.groupBy(s.of, int(k))
	s.outcome = make([]GroupOutcome, k)
	for c := range s.outcome {
		s.outcome[c] = GroupOutcome{Status: GroupKept, Node: -1, Other: -1, Partition: -1}
	}
	s.live = make([]int32, n)
	copy(s.live, s.of)
	return s
}

// classOfGroup maps an input group index to its class, or -1 for an empty group.
func (s *groupSets) classOfGroup(members []int32) int32 {
	if len(members) == 0 {
		return -1
	}
	return s.of[members[0]]
}

// keepsGroups reports whether some group is still kept, and so constrains
// levels.
func (p *planner) keepsGroups() bool {
	if p.groups == nil {
		return false
	}
	for _, o := range p.groups.outcome {
		if o.Status == GroupKept {
			return true
		}
	}
	return false
}

// refuse takes class c out of delegation: its members become barriers.
func (p *planner) refuse(c int32, st GroupStatus, node int32, other int32) {
	s := p.groups
	o := &s.outcome[c]
	o.Status, o.Node = st, node
	if other >= 0 {
		o.Other = int(s.first[other])
	}
	for _, m := range s.mem.row(c) {
		s.live[m] = -1
		if p.reason[m] == Delegated {
			p.reason[m] = GroupRefused
		}
	}
}

// resolveGroups refuses the groups that cannot be kept whole and levels the
// rest (doc.go, "Groups"). Three causes, checked until none applies:
//   - a member is unsupported;
//   - alone, the group would contain a path that leaves through a barrier
//     (found by a sweep over the span between its first and last member);
//   - together with others it forms a cycle with a barrier on it (found by
//     contractedLevels); the group with the latest first member goes.
//
// Refusals make more barriers, so the first two checks are repeated.
func (p *planner) resolveGroups(groups [][]int32) {
	s := newGroupSets(p.n, groups)
	if s == nil {
		return
	}
	p.groups = s
	classes := int32(len(s.outcome))
	for c := range classes {
		for _, m := range s.mem.row(c) {
			if p.reason[m] == Unsupported {
				p.refuse(c, GroupUnsupported, m, -1)
				break
			}
		}
	}
	state := make([]uint8, p.n)
	via := make([]int32, p.n)
	type refusal struct{ c, node int32 }
	var found []refusal
	for {
		for {
			found = found[:0]
			for c := range classes {
				if s.outcome[c].Status == GroupKept {
					if x := p.crossing(c, state, via); x >= 0 {
						found = append(found, refusal{c, x})
					}
				}
			}
			// Refusals wait for the round's end so that its result does not
			// depend on the order classes are checked in.
			for _, f := range found {
				p.refuse(f.c, GroupCrossing, f.node, -1)
			}
			if len(found) == 0 {
				break
			}
		}
		live := false
		for c := range classes {
			live = live || s.outcome[c].Status == GroupKept
		}
		if !live {
			return
		}
		bad := p.contractedLevels(s.live, &s.mem)
		if len(bad) == 0 {
			return
		}
		for _, b := range bad {
			last := b.classes[len(b.classes)-1]
			p.refuse(last, GroupConflict, b.via, b.classes[0])
		}
		p.leveled = false
	}
}

// crossing returns a barrier on a path between two members of class c, or
// -1. Such a path lies between the first and the last member in topological
// order, so only that span is swept. state per node: 0 unreached, 1 reached
// from a member, 2 reached through a barrier (via[v] is the first barrier).
func (p *planner) crossing(c int32, state []uint8, via []int32) int32 {
	ms := p.groups.mem.row(c)
	lo, hi := ms[0], ms[len(ms)-1]
	found := int32(-1)
	for v := lo; v <= hi && found < 0; v++ {
		in, w := uint8(0), int32(-1)
		for _, q := range p.preds[v] {
			// Ties go to the smaller witness so that it does not depend on
			// the order predecessors are listed in.
			if q >= lo && (state[q] > in || state[q] == 2 && in == 2 && via[q] < w) {
				in, w = state[q], via[q]
			}
		}
		switch {
		case p.groups.of[v] == c:
			if in == 2 {
				found = w
			}
			state[v] = 1
		case in == 0:
		case p.barrier(v):
			state[v] = 2
			if in == 1 {
				w = v
			}
			via[v] = w
		default:
			state[v], via[v] = in, w
		}
	}
	clear(state[lo : hi+1])
	return found
}

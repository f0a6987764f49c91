package partition

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// randomInstance draws a DAG of up to maxN nodes whose predecessors are
// mostly recent nodes (as in real programs) and sometimes far ones, with
// random support, compute flags, groups and MinCompute. rapid draws a seed
// for the graph's shape and nodes (its own draws lean towards small values
// and would make nearly every node supported and every graph tiny), and
// draws MinCompute and the number of groups itself.
func randomInstance(t *rapid.T, maxN int) (*DAG, *Request) {
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
	pick := func(s ...int) int { return s[rng.IntN(len(s))] }
	percent := func(p int) bool { return rng.IntN(100) < p }
	n := rng.IntN(pick(min(8, maxN), min(40, maxN), min(120, maxN), maxN) + 1)
	supportRate := pick(30, 60, 80, 95, 100)
	computeRate := pick(40, 70, 100)
	farRate := pick(0, 5, 20)
	maxPreds := pick(1, 2, 3, 4)

	d := &DAG{Preds: make([][]int32, n)}
	r := &Request{Supported: make([]bool, n), Compute: make([]bool, n)}
	for v := range n {
		k := min(v, 1+rng.IntN(maxPreds))
		if percent(5) {
			k = 0 // a node that reads only graph inputs
		}
		for range k {
			q := v - 1 - rng.IntN(min(v, 8))
			if percent(farRate) {
				q = rng.IntN(v)
			}
			if !slices.Contains(d.Preds[v], int32(q)) {
				d.Preds[v] = append(d.Preds[v], int32(q))
			}
		}
		r.Supported[v] = percent(supportRate)
		r.Compute[v] = percent(computeRate)
	}
	if n > 0 {
		for range rapid.IntRange(0, 10).Draw(t, "groups") {
			// Mostly supported members close together, so that groups are
			// often kept and sometimes conflict.
			first := rng.IntN(n)
			span := []int{3, 12, 40, n}[rng.IntN(4)]
			var g []int32
			for range 2 + rng.IntN(3) {
				m := min(n-1, first+rng.IntN(span+1))
				for try := 0; try < 4 && !r.Supported[m]; try++ {
					m = min(n-1, first+rng.IntN(span+1))
				}
				g = append(g, int32(m))
			}
			r.Groups = append(r.Groups, g)
		}
	}
	r.MinCompute = rapid.IntRange(0, 3).Draw(t, "minCompute")
	return d, r
}

func inGroup(r *Request) []bool {
	in := make([]bool, len(r.Supported))
	for _, g := range r.Groups {
		for _, m := range g {
			in[m] = true
		}
	}
	return in
}

// mergedGroup is group g together with every group overlapping it,
// transitively: overlapping groups must share one partition.
func mergedGroup(r *Request, g int) []int32 {
	in := map[int32]bool{}
	for _, m := range r.Groups[g] {
		in[m] = true
	}
	for grew := true; grew; {
		grew = false
		for _, h := range r.Groups {
			if slices.ContainsFunc(h, func(m int32) bool { return in[m] }) {
				for _, m := range h {
					grew = grew || !in[m]
					in[m] = true
				}
			}
		}
	}
	var out []int32
	for m := range in {
		out = append(out, m)
	}
	return out
}

// reaches says whether a path leads from a to b (a != b).
func reaches(d *DAG, a, b int32) bool {
	seen := make([]bool, d.Len())
	seen[a] = true
	for v := a + 1; v <= b; v++ {
		for _, q := range d.Preds[v] {
			if seen[q] {
				seen[v] = true
				break
			}
		}
	}
	return a != b && seen[b]
}

func mustPropose(t *rapid.T, d *DAG, r *Request) *Result {
	res, err := Propose(d, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(d, r, res.Partitions); err != nil {
		t.Fatalf("invalid partitioning %v: %v", res.Partitions, err)
	}
	return res
}

// TestProposeIsValidAndExplained: Check passes, the output is in canonical
// order, and every node's reason and every group's outcome agree with it.
func TestProposeIsValidAndExplained(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, r := randomInstance(t, 300)
		res := mustPropose(t, d, r)
		grouped := inGroup(r)
		for k, p := range res.Partitions {
			if !slices.IsSorted(p) || (k > 0 && res.Partitions[k-1][0] > p[0]) {
				t.Fatalf("partitions not in canonical order: %v", res.Partitions)
			}
			for _, v := range p {
				if res.PartitionOf[v] != int32(k) || res.Reasons[v] != Delegated {
					t.Fatalf("node %d: PartitionOf %d, reason %s, but in partition %d", v, res.PartitionOf[v], res.Reasons[v], k)
				}
			}
		}
		for v, why := range res.Reasons {
			switch {
			case why == Delegated && res.PartitionOf[v] < 0:
				t.Fatalf("node %d delegated but in no partition", v)
			case (why == Unsupported) != !r.Supported[v]:
				t.Fatalf("node %d: reason %s, supported %v", v, why, r.Supported[v])
			case why == GroupRefused && !grouped[v]:
				t.Fatalf("node %d: refused with a group it is not in", v)
			case why == TooSmall && r.MinCompute == 0:
				t.Fatalf("node %d: too small with MinCompute 0", v)
			}
		}
		for g, o := range res.Groups {
			members := r.Groups[g]
			for _, m := range members {
				delegated := res.PartitionOf[m] >= 0
				if (o.Status == GroupKept) != delegated || (delegated && int(res.PartitionOf[m]) != o.Partition) {
					t.Fatalf("group %d %v: outcome %+v, member %d in partition %d", g, members, o, m, res.PartitionOf[m])
				}
			}
			switch o.Status {
			case GroupUnsupported:
				if !slices.Contains(mergedGroup(r, g), o.Node) || r.Supported[o.Node] {
					t.Fatalf("group %d %v: %+v names no unsupported member", g, members, o)
				}
			case GroupCrossing, GroupConflict:
				if res.PartitionOf[o.Node] >= 0 {
					t.Fatalf("group %d: %+v names a delegated node", g, o)
				}
			}
			if o.Status == GroupCrossing {
				merged := mergedGroup(r, g)
				from := slices.ContainsFunc(merged, func(m int32) bool { return reaches(d, m, o.Node) })
				to := slices.ContainsFunc(merged, func(m int32) bool { return reaches(d, o.Node, m) })
				if !from || !to {
					t.Fatalf("group %d %v: node %d is not between two members", g, merged, o.Node)
				}
			}
		}
	})
}

// TestProposeIsDeterministic: the same answer twice, and for the same input
// described differently (predecessors, groups and members reordered).
func TestProposeIsDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, r := randomInstance(t, 200)
		d0, r0 := cloneInput(d, r)
		first := mustPropose(t, d, r)
		if diff := cmp.Diff(first, mustPropose(t, d, r)); diff != "" {
			t.Fatalf("second run differs:\n%s", diff)
		}
		if diff := cmp.Diff(d0, d); diff != "" {
			t.Fatalf("DAG modified:\n%s", diff)
		}
		if diff := cmp.Diff(r0, r); diff != "" {
			t.Fatalf("request modified:\n%s", diff)
		}
		d2, r2 := cloneInput(d, r)
		for _, ps := range d2.Preds {
			shuffle(t, ps, "preds")
		}
		for _, g := range r2.Groups {
			shuffle(t, g, "members")
		}
		order := make([]int, len(r2.Groups))
		for i := range order {
			order[i] = i
		}
		shuffle(t, order, "groups")
		for i, j := range order {
			r2.Groups[i] = slices.Clone(r.Groups[j])
		}
		again := mustPropose(t, d2, r2)
		if diff := cmp.Diff(first.Partitions, again.Partitions); diff != "" {
			t.Fatalf("reordered input, other partitions:\n%s", diff)
		}
		if diff := cmp.Diff(first.Reasons, again.Reasons); diff != "" {
			t.Fatalf("reordered input, other reasons:\n%s", diff)
		}
		for i, j := range order {
			a, b := first.Groups[j], again.Groups[i]
			if a.Status != b.Status || a.Node != b.Node || a.Partition != b.Partition {
				t.Fatalf("group %d: outcome %+v, reordered %+v", j, a, b)
			}
		}
	})
}

func shuffle[T any](t *rapid.T, s []T, label string) {
	for i := len(s) - 1; i > 0; i-- {
		j := rapid.IntRange(0, i).Draw(t, label)
		s[i], s[j] = s[j], s[i]
	}
}

// TestProposeIsMaximal: nothing more can be had by a single step. With
// MinCompute 0, or 1 when every node computes, every supported node outside
// groups is delegated; no two
// partitions merge without a cycle (horizontal fusion is complete); and no
// node dropped with a too-small partition fits into any partition.
func TestProposeIsMaximal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, r := randomInstance(t, 120)
		res := mustPropose(t, d, r)
		grouped := inGroup(r)
		// Every partition has a compute node when every node is one.
		keepAll := r.MinCompute == 0 || (r.MinCompute == 1 && !slices.Contains(r.Compute, false))
		for v, why := range res.Reasons {
			if keepAll && r.Supported[v] && !grouped[v] && why != Delegated {
				t.Fatalf("supported node %d left out (%s) with MinCompute %d", v, why, r.MinCompute)
			}
		}
		parts := res.Partitions
		for i := range parts {
			for j := i + 1; j < len(parts); j++ {
				merged := slices.Concat(parts[i], parts[j])
				trial := slices.Concat(parts[:i], [][]int32{merged}, parts[i+1:j], parts[j+1:])
				var v *Violation
				if err := Check(d, r, trial); !errors.As(err, &v) || v.Kind != Cycle {
					t.Fatalf("partitions %d and %d could merge (%v): %v", i, j, err, parts)
				}
			}
		}
		for v, why := range res.Reasons {
			if why != TooSmall || grouped[v] {
				continue
			}
			for i := range parts {
				trial := slices.Clone(parts)
				trial[i] = append(slices.Clone(parts[i]), int32(v))
				var viol *Violation
				if err := Check(d, r, trial); !errors.As(err, &viol) || viol.Kind != Cycle {
					t.Fatalf("dropped node %d fits partition %d (%v): %v", v, i, err, parts)
				}
			}
		}
	})
}

// TestProposeIsOptimalWhenNothingIsDropped: without groups and MinCompute,
// the level classes are the fewest partitions possible (doc.go). Checked
// against exhaustive search on tiny graphs.
func TestProposeIsOptimalWhenNothingIsDropped(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, r := randomInstance(t, 12)
		r.Groups, r.MinCompute = nil, 0
		supported := 0
		for v, ok := range r.Supported {
			if ok {
				supported++
				// Exhaustive search is Bell(supported+1): keep it small.
				r.Supported[v] = supported <= 6
			}
		}
		res := mustPropose(t, d, r)
		opt := exhaustive(d, r)
		if res.Delegated() != opt.nodes || len(res.Partitions) != opt.parts {
			t.Fatalf("seam %d partitions/%d nodes %v, optimum %d/%d", len(res.Partitions), res.Delegated(), res.Partitions, opt.parts, opt.nodes)
		}
	})
}

package partition

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// propose runs Propose and Check and fails the test on any error.
func propose(t *testing.T, d *DAG, r *Request) *Result {
	t.Helper()
	res, err := Propose(d, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(d, r, res.Partitions); err != nil {
		t.Fatalf("Propose made an invalid partitioning %v: %v", res.Partitions, err)
	}
	return res
}

func TestProposeSmallGraphs(t *testing.T) {
	const T, F = true, false
	tests := []struct {
		name    string
		d       *DAG
		r       Request
		want    [][]int32
		reasons []Reason
	}{
		{
			name: "empty graph",
			d:    &DAG{},
			r:    Request{Supported: sup()},
			want: [][]int32{},
		},
		{
			name:    "cut by an unsupported node",
			d:       chainDAG(nil, []int32{0}, []int32{1}),
			r:       Request{Supported: sup(T, F, T)},
			want:    [][]int32{{0}, {2}},
			reasons: []Reason{Delegated, Unsupported, Delegated},
		},
		{
			// 0 and 2 sit on different sides of unsupported 1, but 3 is
			// independent of both and fuses with the first partition.
			name: "horizontal fusion",
			d:    chainDAG(nil, []int32{0}, []int32{1}, nil),
			r:    Request{Supported: sup(T, F, T, T)},
			want: [][]int32{{0, 3}, {2}},
		},
		{
			// Two branches, each behind its own unsupported node: fused.
			name: "independent branches fuse",
			d:    chainDAG(nil, []int32{0}, nil, []int32{2}),
			r:    Request{Supported: sup(F, T, F, T)},
			want: [][]int32{{1, 3}},
		},
		{
			// 0 -> 1(unsupported) -> 2 and 0 -> 2: {0,2} would be cyclic.
			name: "no path back through an outside node",
			d:    chainDAG(nil, []int32{0}, []int32{0, 1}),
			r:    Request{Supported: sup(T, F, T)},
			want: [][]int32{{0}, {2}},
		},
		{
			// A view between two compute nodes belongs with them; a lone
			// compute node is dropped under MinCompute 2.
			name:    "too small",
			d:       chainDAG(nil, []int32{0}, []int32{1}, []int32{2}, []int32{3}),
			r:       Request{Supported: sup(T, T, T, F, T), Compute: sup(T, F, T, T, T), MinCompute: 2},
			want:    [][]int32{{0, 1, 2}},
			reasons: []Reason{Delegated, Delegated, Delegated, Unsupported, TooSmall},
		},
		{
			// x(unsupported) feeds q, k, v; s = q·k behind unsupported
			// scaling; o = s·v behind unsupported softmax. Levels: {q,k,v},
			// {s}, {o}. Moving v up (to o, the highest level it may take)
			// makes two partitions of two compute nodes each instead of one
			// of three.
			name: "rebalancing fills a level one short",
			d: chainDAG(
				nil,           // 0 x
				[]int32{0},    // 1 q
				[]int32{0},    // 2 k
				[]int32{0},    // 3 v
				[]int32{1, 2}, // 4 scale(q, k): unsupported
				[]int32{4},    // 5 s
				[]int32{5},    // 6 softmax: unsupported
				[]int32{6, 3}, // 7 o = softmax · v
				[]int32{7},    // 8 out: unsupported
			),
			r:       Request{Supported: sup(F, T, T, T, F, T, F, T, F), MinCompute: 2},
			want:    [][]int32{{1, 2}, {3, 7}},
			reasons: []Reason{Unsupported, Delegated, Delegated, Delegated, Unsupported, TooSmall, Unsupported, Delegated, Unsupported},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := propose(t, tc.d, &tc.r)
			if diff := cmp.Diff(tc.want, res.Partitions); diff != "" {
				t.Errorf("partitions (-want +got):\n%s", diff)
			}
			if tc.reasons != nil {
				if diff := cmp.Diff(tc.reasons, res.Reasons); diff != "" {
					t.Errorf("reasons (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestProposeGroups(t *testing.T) {
	const T, F = true, false
	none := GroupOutcome{Node: -1, Other: -1, Partition: -1}
	with := func(o GroupOutcome, f func(*GroupOutcome)) GroupOutcome { f(&o); return o }
	tests := []struct {
		name     string
		d        *DAG
		r        Request
		want     [][]int32
		outcomes []GroupOutcome
		reasons  []Reason
	}{
		{
			// A supported node between two members joins them.
			name:     "kept, with the node between",
			d:        chainDAG(nil, []int32{0}, []int32{1}, nil),
			r:        Request{Supported: sup(F, T, T, T), Groups: [][]int32{{3, 1}}},
			want:     [][]int32{{1, 2, 3}},
			outcomes: []GroupOutcome{with(none, func(o *GroupOutcome) { o.Partition = 0 })},
		},
		{
			name:     "unsupported member",
			d:        chainDAG(nil, []int32{0}, nil),
			r:        Request{Supported: sup(T, F, T), Groups: [][]int32{{0, 1}}},
			want:     [][]int32{{2}},
			outcomes: []GroupOutcome{with(none, func(o *GroupOutcome) { o.Status, o.Node = GroupUnsupported, 1 })},
			reasons:  []Reason{GroupRefused, Unsupported, Delegated},
		},
		{
			// 0 -> 1(unsupported) -> 2: 0 and 2 cannot share a partition.
			name:     "path through an outside node",
			d:        chainDAG(nil, []int32{0}, []int32{1}, []int32{2}),
			r:        Request{Supported: sup(T, F, T, T), Groups: [][]int32{{0, 2}}},
			want:     [][]int32{{3}},
			outcomes: []GroupOutcome{with(none, func(o *GroupOutcome) { o.Status, o.Node = GroupCrossing, 1 })},
			reasons:  []Reason{GroupRefused, Unsupported, GroupRefused, Delegated},
		},
		{
			// A refused group's nodes are outside nodes for the next:
			// {1,3} is refused (3 is unsupported), which cuts {0,2}'s
			// path 0 -> 1 -> 2.
			name: "refusals cascade",
			d:    chainDAG(nil, []int32{0}, []int32{1}, nil, []int32{3}),
			r:    Request{Supported: sup(T, T, T, F, T), Groups: [][]int32{{0, 2}, {1, 3}}},
			want: [][]int32{{4}},
			outcomes: []GroupOutcome{
				with(none, func(o *GroupOutcome) { o.Status, o.Node = GroupCrossing, 1 }),
				with(none, func(o *GroupOutcome) { o.Status, o.Node = GroupUnsupported, 3 }),
			},
			reasons: []Reason{GroupRefused, GroupRefused, GroupRefused, Unsupported, Delegated},
		},
		{
			// Each group alone is fine; together {0,4} -> 1 -> {2,3} -> {0,4}
			// with unsupported 1 on the cycle. The group whose first node
			// comes later is refused.
			name: "conflict",
			d:    chainDAG(nil, []int32{0}, []int32{1}, nil, []int32{3}),
			r:    Request{Supported: sup(T, F, T, T, T), Groups: [][]int32{{2, 3}, {0, 4}}},
			want: [][]int32{{0, 4}},
			outcomes: []GroupOutcome{
				with(none, func(o *GroupOutcome) { o.Status, o.Node, o.Other = GroupConflict, 1, 1 }),
				with(none, func(o *GroupOutcome) { o.Partition = 0 }),
			},
			reasons: []Reason{Delegated, Unsupported, GroupRefused, GroupRefused, Delegated},
		},
		{
			// Witnesses do not depend on the order predecessors are listed
			// in: of two barriers on the path, the smaller id is named.
			name:     "crossing witness",
			d:        chainDAG(nil, []int32{0}, []int32{0}, []int32{2, 1}),
			r:        Request{Supported: sup(T, F, F, T), Groups: [][]int32{{0, 3}}},
			want:     [][]int32{},
			outcomes: []GroupOutcome{with(none, func(o *GroupOutcome) { o.Status, o.Node = GroupCrossing, 1 })},
		},
		{
			name: "conflict witness",
			d:    chainDAG(nil, []int32{0}, []int32{0}, []int32{1, 2}, nil, []int32{4}),
			r:    Request{Supported: sup(T, F, F, T, T, T), Groups: [][]int32{{0, 5}, {3, 4}}},
			want: [][]int32{{0, 5}},
			outcomes: []GroupOutcome{
				with(none, func(o *GroupOutcome) { o.Partition = 0 }),
				with(none, func(o *GroupOutcome) { o.Status, o.Node, o.Other = GroupConflict, 1, 0 }),
			},
		},
		{
			name: "overlapping groups are one",
			d:    chainDAG(nil, nil, nil, nil),
			r:    Request{Supported: sup(T, T, T, T), Groups: [][]int32{{0, 1}, {1, 3}, {}}},
			want: [][]int32{{0, 1, 2, 3}},
			outcomes: []GroupOutcome{
				with(none, func(o *GroupOutcome) { o.Partition = 0 }),
				with(none, func(o *GroupOutcome) { o.Partition = 0 }),
				none,
			},
		},
		{
			name:     "kept whole, then too small",
			d:        chainDAG(nil, []int32{0}),
			r:        Request{Supported: sup(T, T), Compute: sup(T, F), Groups: [][]int32{{0, 1}}, MinCompute: 2},
			want:     [][]int32{},
			outcomes: []GroupOutcome{with(none, func(o *GroupOutcome) { o.Status = GroupTooSmall })},
			reasons:  []Reason{TooSmall, TooSmall},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := propose(t, tc.d, &tc.r)
			if diff := cmp.Diff(tc.want, res.Partitions); diff != "" {
				t.Errorf("partitions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.outcomes, res.Groups); diff != "" {
				t.Errorf("group outcomes (-want +got):\n%s", diff)
			}
			if tc.reasons != nil {
				if diff := cmp.Diff(tc.reasons, res.Reasons); diff != "" {
					t.Errorf("reasons (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestProposeDoesNotModifyItsInput(t *testing.T) {
	d, r := synthDAG(500, 7)
	r.Groups = [][]int32{{40, 3, 41}, {499, 10}}
	r.Compute = make([]bool, 500)
	for i := range r.Compute {
		r.Compute[i] = i%3 != 0
	}
	r.MinCompute = 2
	d0, r0 := cloneInput(d, r)
	propose(t, d, r)
	if diff := cmp.Diff(d0, d); diff != "" {
		t.Errorf("DAG modified:\n%s", diff)
	}
	if diff := cmp.Diff(r0, r); diff != "" {
		t.Errorf("request modified:\n%s", diff)
	}
}

func cloneInput(d *DAG, r *Request) (*DAG, *Request) {
	d2 := &DAG{Preds: make([][]int32, len(d.Preds))}
	for i, ps := range d.Preds {
		d2.Preds[i] = slices.Clone(ps)
	}
	r2 := *r
	r2.Supported = slices.Clone(r.Supported)
	r2.Compute = slices.Clone(r.Compute)
	r2.Groups = slices.Clone(r.Groups)
	for i, g := range r.Groups {
		r2.Groups[i] = slices.Clone(g)
	}
	return d2, &r2
}

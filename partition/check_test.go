package partition

import (
	"errors"
	"testing"
)

func chainDAG(preds ...[]int32) *DAG { return &DAG{Preds: preds} }

func sup(bs ...bool) []bool { return bs }

func TestCheck(t *testing.T) {
	const T, F = true, false
	// 0 -> 1 -> 2, 0 -> 2; node 1 unsupported.
	detour := chainDAG(nil, []int32{0}, []int32{0, 1})
	// 0 -> 1, 2 -> 3: two independent edges.
	pairs := chainDAG(nil, []int32{0}, nil, []int32{2})
	tests := []struct {
		name  string
		d     *DAG
		r     Request
		parts [][]int32
		want  ViolationKind // 0: valid
		node  int32
	}{
		{"chain in one partition", chainDAG(nil, []int32{0}, []int32{1}), Request{Supported: sup(T, T, T)}, [][]int32{{0, 1, 2}}, 0, 0},
		{"independent nodes fused", pairs, Request{Supported: sup(T, T, T, T)}, [][]int32{{0, 2}, {3, 1}}, 0, 0},
		{"nothing delegated", detour, Request{Supported: sup(F, F, F)}, nil, 0, 0},
		{"around an outside node", detour, Request{Supported: sup(T, F, T)}, [][]int32{{0}, {2}}, 0, 0},
		{"cycle through an outside node", detour, Request{Supported: sup(T, F, T)}, [][]int32{{0, 2}}, Cycle, 1},
		{"cycle through two partitions", pairs, Request{Supported: sup(T, T, T, T)}, [][]int32{{0, 3}, {1, 2}}, Cycle, -1},
		{"unsupported node", detour, Request{Supported: sup(T, F, T)}, [][]int32{{0, 1, 2}}, NotSupported, 1},
		{"node in two partitions", pairs, Request{Supported: sup(T, T, T, T)}, [][]int32{{0, 1}, {1, 2}}, Duplicate, 1},
		{"node twice in one partition", pairs, Request{Supported: sup(T, T, T, T)}, [][]int32{{0, 0}}, Duplicate, 0},
		{"group split over partitions", pairs, Request{Supported: sup(T, T, T, T), Groups: [][]int32{{0, 3}}}, [][]int32{{0, 1}, {2, 3}}, SplitGroup, 3},
		{"group partly left out", pairs, Request{Supported: sup(T, T, T, T), Groups: [][]int32{{1, 0}}}, [][]int32{{1}}, SplitGroup, 0},
		{"group whole", pairs, Request{Supported: sup(T, T, T, T), Groups: [][]int32{{0, 3}}}, [][]int32{{0, 1, 2, 3}}, 0, 0},
		{"group left out whole", pairs, Request{Supported: sup(T, T, T, T), Groups: [][]int32{{0, 3}}}, [][]int32{{1, 2}}, 0, 0},
		{"below MinCompute", pairs, Request{Supported: sup(T, T, T, T), Compute: sup(T, F, T, T), MinCompute: 2}, [][]int32{{0, 1}, {2, 3}}, BelowMinCompute, -1},
		{"views do not count", pairs, Request{Supported: sup(T, T, T, T), Compute: sup(T, F, T, T), MinCompute: 2}, [][]int32{{0, 1, 2}}, 0, 0},
		{"empty partition", pairs, Request{Supported: sup(T, T, T, T)}, [][]int32{{0}, {}}, EmptyPartition, -1},
		{"node out of range", pairs, Request{Supported: sup(T, T, T, T)}, [][]int32{{4}}, BadNode, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.d, &tc.r, tc.parts)
			if tc.want == 0 {
				if err != nil {
					t.Fatalf("valid partitioning rejected: %v", err)
				}
				return
			}
			var v *Violation
			if !errors.As(err, &v) {
				t.Fatalf("got %v, want a %s violation", err, tc.want)
			}
			if v.Kind != tc.want || v.Node != tc.node {
				t.Fatalf("got %s at node %d (%v), want %s at node %d", v.Kind, v.Node, err, tc.want, tc.node)
			}
		})
	}
}

func TestCheckRejectsMalformedInput(t *testing.T) {
	for name, tc := range map[string]struct {
		d *DAG
		r Request
	}{
		"pred not earlier":    {chainDAG(nil, []int32{1}), Request{Supported: sup(true, true)}},
		"negative pred":       {chainDAG(nil, []int32{-1}), Request{Supported: sup(true, true)}},
		"short Supported":     {chainDAG(nil, nil), Request{Supported: sup(true)}},
		"short Compute":       {chainDAG(nil, nil), Request{Supported: sup(true, true), Compute: sup(true)}},
		"group out of range":  {chainDAG(nil, nil), Request{Supported: sup(true, true), Groups: [][]int32{{2}}}},
		"negative MinCompute": {chainDAG(nil, nil), Request{Supported: sup(true, true), MinCompute: -1}},
	} {
		var v *Violation
		if err := Check(tc.d, &tc.r, nil); err == nil || errors.As(err, &v) {
			t.Errorf("%s: Check = %v, want an input error", name, err)
		}
		if _, err := Propose(tc.d, &tc.r); err == nil {
			t.Errorf("%s: Propose accepted it", name)
		}
	}
}

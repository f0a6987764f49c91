package partition_test

import (
	"fmt"

	"github.com/seam-rt/seam/partition"
)

// Two branches, each behind an op the backend cannot run, share one
// partition (horizontal fusion): no path leads from one to the other. The
// view at the end would be a partition of its own that computes nothing, so
// it is dropped.
func ExamplePropose() {
	d := &partition.DAG{Preds: [][]int32{
		nil,    // 0 custom op
		{0},    // 1 linear
		nil,    // 2 custom op
		{2},    // 3 linear
		{1, 3}, // 4 custom op
		{4},    // 5 view
	}}
	r := &partition.Request{
		Supported:  []bool{false, true, false, true, false, true},
		Compute:    []bool{true, true, true, true, true, false},
		MinCompute: 1,
	}
	res, err := partition.Propose(d, r)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Partitions)
	for v, why := range res.Reasons {
		fmt.Println(v, why)
	}
	fmt.Println(partition.Check(d, r, res.Partitions))
	// Output:
	// [[1 3]]
	// 0 unsupported
	// 1 delegated
	// 2 unsupported
	// 3 delegated
	// 4 unsupported
	// 5 partition too small
	// <nil>
}

package partition

import (
	"fmt"
	"math"
)

// DAG is the dependency graph the partitioner works on: nodes 0..N-1 in
// topological order. Graph inputs (placeholders, parameters, constants) are
// not nodes: every partition may read them, so they never order anything.
type DAG struct {
	// Preds[i] lists the distinct nodes whose values node i uses; each is < i.
	Preds [][]int32
}

// Len is the number of nodes.
func (d *DAG) Len() int { return len(d.Preds) }

// Request says what a backend can take and what a partition must look like.
type Request struct {
	// Supported marks the nodes the backend may run (one entry per node).
	Supported []bool
	// Compute marks the nodes that count towards MinCompute. Views and scalar
	// ops do not: a delegate call that only reshapes is pure overhead.
	// Nil means every node counts.
	Compute []bool
	// Groups are node sets that must end up together in one partition, or
	// with none of their nodes delegated. Overlapping groups are one group.
	Groups [][]int32
	// MinCompute drops partitions with fewer compute nodes, after trying to
	// merge them into others: 0 keeps every partition; 1 keeps every
	// partition that computes something, single nodes included, and drops
	// those of views and scalar ops only; 2 is a profile's
	// `single_node_partitions: false`.
	MinCompute int
}

// validate rejects malformed input before any algorithm relies on its shape.
func validate(d *DAG, r *Request) error {
	if d == nil || r == nil {
		return fmt.Errorf("partition: nil DAG or request")
	}
	n := len(d.Preds)
	if n >= math.MaxInt32-1 {
		return fmt.Errorf("partition: %d nodes is more than node ids can hold", n)
	}
	if len(r.Supported) != n {
		return fmt.Errorf("partition: Supported has %d entries for %d nodes", len(r.Supported), n)
	}
	if r.Compute != nil && len(r.Compute) != n {
		return fmt.Errorf("partition: Compute has %d entries for %d nodes", len(r.Compute), n)
	}
	if r.MinCompute < 0 {
		return fmt.Errorf("partition: MinCompute %d is negative", r.MinCompute)
	}
	for v, ps := range d.Preds {
		for _, q := range ps {
			if q < 0 || int(q) >= v {
				return fmt.Errorf("partition: node %d: predecessor %d is not an earlier node", v, q)
			}
		}
	}
	for g, members := range r.Groups {
		for _, m := range members {
			if m < 0 || int(m) >= n {
				return fmt.Errorf("partition: group %d: node %d out of range [0,%d)", g, m, n)
			}
		}
	}
	return nil
}

package partition

import (
	"fmt"
	"strings"
)

// ViolationKind names what makes a partitioning invalid.
type ViolationKind uint8

const (
	BadNode         ViolationKind = iota + 1 // a partition names a node id out of range
	EmptyPartition                           // a partition has no node
	Duplicate                                // a node is in two partitions, or twice in one
	NotSupported                             // a partition holds an unsupported node
	SplitGroup                               // a group is spread over partitions, or partly left out
	BelowMinCompute                          // a partition has fewer compute nodes than MinCompute
	Cycle                                    // contracting the partitions makes a cycle
)

var violationNames = [...]string{"", "bad node", "empty partition", "duplicate node",
	"unsupported node", "split group", "below MinCompute", "cycle"}

func (k ViolationKind) String() string {
	if int(k) < len(violationNames) && k > 0 {
		return violationNames[k]
	}
	return "unknown violation"
}

// Violation is why Check rejects a partitioning.
type Violation struct {
	Kind      ViolationKind
	Partition int   // the partition at fault
	Node      int32 // the node at fault; for Cycle, an outside node on the cycle (-1 if it runs through partitions only)
	Other     int   // Duplicate: the other partition; SplitGroup: the group; Cycle: another partition on the cycle, or -1
}

func (v *Violation) Error() string {
	switch v.Kind {
	case Duplicate:
		return fmt.Sprintf("partition: node %d is in partitions %d and %d", v.Node, v.Other, v.Partition)
	case SplitGroup:
		return fmt.Sprintf("partition: group %d is split at node %d", v.Other, v.Node)
	case Cycle:
		var via []string
		if v.Node >= 0 {
			via = append(via, fmt.Sprintf("node %d", v.Node))
		}
		if v.Other >= 0 {
			via = append(via, fmt.Sprintf("partition %d", v.Other))
		}
		return fmt.Sprintf("partition: partition %d reaches itself through %s", v.Partition, strings.Join(via, " and "))
	case EmptyPartition, BelowMinCompute:
		return fmt.Sprintf("partition: partition %d: %s", v.Partition, v.Kind)
	}
	return fmt.Sprintf("partition: partition %d: %s %d", v.Partition, v.Kind, v.Node)
}

// Check validates a partitioning against the rules Propose promises. It is
// written apart from Propose and as plainly as possible: it builds the
// graph with every partition contracted to one vertex and looks for a cycle
// by depth-first search. Order of partitions and of their nodes is free.
func Check(d *DAG, r *Request, parts [][]int32) error {
	if err := validate(d, r); err != nil {
		return err
	}
	n := len(d.Preds)
	owner := make([]int, n)
	for i := range owner {
		owner[i] = -1
	}
	for i, part := range parts {
		if len(part) == 0 {
			return &Violation{Kind: EmptyPartition, Partition: i, Node: -1}
		}
		compute := 0
		for _, v := range part {
			if v < 0 || int(v) >= n {
				return &Violation{Kind: BadNode, Partition: i, Node: v}
			}
			if owner[v] >= 0 {
				return &Violation{Kind: Duplicate, Partition: i, Node: v, Other: owner[v]}
			}
			owner[v] = i
			if !r.Supported[v] {
				return &Violation{Kind: NotSupported, Partition: i, Node: v}
			}
			if r.Compute == nil || r.Compute[v] {
				compute++
			}
		}
		if compute < r.MinCompute {
			return &Violation{Kind: BelowMinCompute, Partition: i, Node: -1}
		}
	}
	for g, members := range r.Groups {
		for _, m := range members {
			if owner[m] != owner[members[0]] {
				return &Violation{Kind: SplitGroup, Partition: owner[m], Node: m, Other: g}
			}
		}
	}
	return findCycle(d, owner, len(parts))
}

// findCycle searches the contracted graph: vertex n+i is partition i,
// vertex v < n an undelegated node.
func findCycle(d *DAG, owner []int, nparts int) error {
	n := len(d.Preds)
	vertex := func(v int32) int {
		if owner[v] >= 0 {
			return n + owner[v]
		}
		return int(v)
	}
	succ := make([][]int, n+nparts)
	for v, ps := range d.Preds {
		to := vertex(int32(v))
		for _, q := range ps {
			if from := vertex(q); from != to {
				succ[from] = append(succ[from], to)
			}
		}
	}
	const (
		white = iota
		grey  // on the DFS path
		black // finished
	)
	color := make([]uint8, len(succ))
	var path []dfsFrame
	for root := range succ {
		if color[root] != white {
			continue
		}
		color[root] = grey
		path = append(path[:0], dfsFrame{root, 0})
		for len(path) > 0 {
			f := &path[len(path)-1]
			if f.next == len(succ[f.v]) {
				color[f.v] = black
				path = path[:len(path)-1]
				continue
			}
			w := succ[f.v][f.next]
			f.next++
			switch color[w] {
			case white:
				color[w] = grey
				path = append(path, dfsFrame{w, 0})
			case grey:
				return cycleViolation(path, w, n)
			}
		}
	}
	return nil
}

// dfsFrame is a vertex on the DFS path and the index of its next edge.
type dfsFrame struct{ v, next int }

// cycleViolation describes the cycle that closes at vertex w on the path.
func cycleViolation(path []dfsFrame, w, n int) error {
	start := len(path) - 1
	for path[start].v != w {
		start--
	}
	viol := &Violation{Kind: Cycle, Partition: -1, Node: -1, Other: -1}
	for _, f := range path[start:] {
		switch {
		case f.v >= n && viol.Partition < 0:
			viol.Partition = f.v - n
		case f.v >= n && viol.Other < 0:
			viol.Other = f.v - n
		case f.v < n && viol.Node < 0:
			viol.Node = int32(f.v)
		}
	}
	return viol
}

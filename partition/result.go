package partition

// Result is a proposal: the partitions, and for every node why it is or is
// not delegated.
type Result struct {
	// Partitions hold node ids ascending; partitions are ordered by their
	// first node.
	Partitions [][]int32
	// PartitionOf gives each node's partition index, or -1.
	PartitionOf []int32
	// Reasons says, per node, Delegated or why not.
	Reasons []Reason
	// Groups reports, per Request.Groups entry, what became of it.
	Groups []GroupOutcome
}

// Delegated counts the nodes in partitions.
func (r *Result) Delegated() int {
	k := 0
	for _, p := range r.Partitions {
		k += len(p)
	}
	return k
}

// Reason is why a node is, or is not, in a partition.
type Reason uint8

const (
	Delegated    Reason = iota // in a partition
	Unsupported                // the backend cannot run it
	GroupRefused               // its group cannot be kept whole in one valid partition
	TooSmall                   // its partition stayed below MinCompute and could not be merged
)

var reasonNames = [...]string{"delegated", "unsupported", "group refused", "partition too small"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "unknown reason"
}

// GroupStatus is what became of a group.
type GroupStatus uint8

const (
	GroupKept        GroupStatus = iota // delegated, whole, in one partition
	GroupUnsupported                    // Node, a member, is not supported
	GroupCrossing                       // a path between two members goes through Node, which is not delegated
	GroupConflict                       // kept together with group Other, a path would leave and re-enter through Node
	GroupTooSmall                       // kept whole, but its partition stayed below MinCompute
)

var groupStatusNames = [...]string{
	"kept",
	"has an unsupported member",
	"a path between members leaves through an undelegated node",
	"conflicts with another group",
	"partition too small",
}

func (s GroupStatus) String() string {
	if int(s) < len(groupStatusNames) {
		return groupStatusNames[s]
	}
	return "unknown group status"
}

// GroupOutcome reports one group. Overlapping groups share one outcome.
type GroupOutcome struct {
	Status GroupStatus
	// Node is the member or outside node behind Status, -1 when none.
	Node int32
	// Other is the conflicting group (index into Request.Groups) for
	// GroupConflict, -1 otherwise.
	Other int
	// Partition holds the group when Status is GroupKept, -1 otherwise.
	Partition int
}

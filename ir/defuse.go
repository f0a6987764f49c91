package ir

// DefUse indexes a graph's values: the node that defines each, the nodes
// that use it and whether the graph's outputs do. Partitioning, lowering
// and reports read it instead of each walking the graph for itself. It
// describes the graph as it was when the index was made.
type DefUse struct {
	producer map[string]int
	users    map[string][]int
	outputs  map[string]bool
}

// DefUse indexes g in one pass over its inputs, nodes and outputs.
func (g *Graph) DefUse() *DefUse {
	du := &DefUse{
		producer: make(map[string]int, len(g.Nodes)+len(g.Inputs)),
		users:    make(map[string][]int, len(g.Nodes)),
		outputs:  map[string]bool{},
	}
	for _, name := range g.InputNames() {
		du.producer[name] = -1
	}
	for i, n := range g.Nodes {
		n.ForEachInputRef(func(v string) {
			// A node using a value twice is one user.
			if us := du.users[v]; len(us) == 0 || us[len(us)-1] != i {
				du.users[v] = append(us, i)
			}
		})
		n.ForEachOutputRef(func(v string) { du.producer[v] = i })
	}
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(v string) { du.outputs[v] = true })
	}
	return du
}

// Producer is the index of the node defining v, -1 for a graph input;
// ok is false for a value nothing defines.
func (du *DefUse) Producer(v string) (node int, ok bool) {
	i, ok := du.producer[v]
	return i, ok
}

// Users lists the nodes that use v, ascending, each once. The slice
// belongs to the index.
func (du *DefUse) Users(v string) []int { return du.users[v] }

// IsOutput reports whether the graph's outputs use v.
func (du *DefUse) IsOutput(v string) bool { return du.outputs[v] }

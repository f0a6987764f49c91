package ir

// DefUse indexes a graph's values: the node that defines each, the nodes
// that use it and whether the graph's outputs do. Partitioning, lowering
// and reports read it instead of each walking the graph for itself. It
// describes the graph as it was when the index was made.
//
// Each value is numbered (a ValueID) once, when the index is made, and
// every node's reads and definitions are kept as those numbers, so a pass
// over a large graph (a partitioner's request, a plan's boundaries) runs
// on slices of integers, not on the graph's arguments and string-keyed
// maps.
type DefUse struct {
	ids  map[string]ValueID
	vals []ValueInfo
	// reads[readStart[i]:readStart[i+1]] are the values node i uses, each
	// once, in order of first use; defs likewise what it defines.
	reads, defs         []ValueID
	readStart, defStart []int32
}

// ValueID numbers a value within one DefUse.
type ValueID int32

// ValueInfo is what the index knows of one value.
type ValueInfo struct {
	Name string
	// Producer is the index of the node defining the value, -1 for a
	// graph input; Defined is false for a value nothing defines.
	Producer int
	Defined  bool
	// Users are the nodes that use it, ascending, each once (the slice
	// belongs to the index).
	Users []int
	// GraphOutput: the graph's outputs use it.
	GraphOutput bool
	// Tensor is the value's entry in the graph's tensor_values (nil for
	// a value that is not a tensor), looked up once.
	Tensor *TensorMeta
}

// DefUse indexes g in one pass over its inputs, nodes and outputs.
func (g *Graph) DefUse() *DefUse {
	n := len(g.Nodes)
	du := &DefUse{
		ids:       make(map[string]ValueID, n+len(g.Inputs)),
		vals:      make([]ValueInfo, 0, n+len(g.Inputs)),
		reads:     make([]ValueID, 0, 2*n),
		defs:      make([]ValueID, 0, n),
		readStart: make([]int32, n+1),
		defStart:  make([]int32, n+1),
	}
	for _, name := range g.InputNames() {
		v := &du.vals[du.intern(name)]
		v.Producer, v.Defined = -1, true
	}
	for i, nd := range g.Nodes {
		du.readStart[i] = int32(len(du.reads))
		nd.ForEachInputRef(func(name string) {
			id := du.intern(name)
			// A node using a value twice is one user.
			if us := du.vals[id].Users; len(us) == 0 || us[len(us)-1] != i {
				du.vals[id].Users = append(us, i)
				du.reads = append(du.reads, id)
			}
		})
		du.defStart[i] = int32(len(du.defs))
		nd.ForEachOutputRef(func(name string) {
			id := du.intern(name)
			du.vals[id].Producer, du.vals[id].Defined = i, true
			du.defs = append(du.defs, id)
		})
	}
	du.readStart[n], du.defStart[n] = int32(len(du.reads)), int32(len(du.defs))
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(name string) { du.vals[du.intern(name)].GraphOutput = true })
	}
	for i := range du.vals {
		du.vals[i].Tensor = g.TensorValues[du.vals[i].Name]
	}
	return du
}

// intern numbers name, once.
func (du *DefUse) intern(name string) ValueID {
	if id, ok := du.ids[name]; ok {
		return id
	}
	id := ValueID(len(du.vals))
	du.ids[name] = id
	du.vals = append(du.vals, ValueInfo{Name: name})
	return id
}

func (du *DefUse) lookup(v string) *ValueInfo {
	if id, ok := du.ids[v]; ok {
		return &du.vals[id]
	}
	return nil
}

// Producer is the index of the node defining v, -1 for a graph input;
// ok is false for a value nothing defines.
func (du *DefUse) Producer(v string) (node int, ok bool) {
	if info := du.lookup(v); info != nil && info.Defined {
		return info.Producer, true
	}
	return 0, false
}

// Users lists the nodes that use v, ascending, each once. The slice
// belongs to the index.
func (du *DefUse) Users(v string) []int {
	if info := du.lookup(v); info != nil {
		return info.Users
	}
	return nil
}

// IsOutput reports whether the graph's outputs use v.
func (du *DefUse) IsOutput(v string) bool {
	info := du.lookup(v)
	return info != nil && info.GraphOutput
}

// ID is v's number, if the index knows v.
func (du *DefUse) ID(v string) (ValueID, bool) {
	id, ok := du.ids[v]
	return id, ok
}

// Values is the number of values the index numbered: every ValueID is
// below it.
func (du *DefUse) Values() int { return len(du.vals) }

// Value is what the index knows of value id. The result's slices belong
// to the index.
func (du *DefUse) Value(id ValueID) *ValueInfo { return &du.vals[id] }

// Reads are the values node i uses, each once, in order of first use (as
// Node.ForEachInputRef visits them). The slice belongs to the index.
func (du *DefUse) Reads(i int) []ValueID { return du.reads[du.readStart[i]:du.readStart[i+1]] }

// Defines are the values node i defines, in order. The slice belongs to
// the index.
func (du *DefUse) Defines(i int) []ValueID { return du.defs[du.defStart[i]:du.defStart[i+1]] }

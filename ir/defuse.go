package ir

import "hash/maphash"

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
	names nameTable
	vals  []ValueInfo
	// reads[readStart[i]:readStart[i+1]] are the values node i uses, each
	// once, in order of first use; defs likewise what it defines.
	reads, defs         []ValueID
	readStart, defStart []int32
	nests               []bool // per node: it has graph arguments
}

// ValueID numbers a value within one DefUse.
type ValueID int32

// ValueInfo is what the index knows of one value (its fields ordered to
// fit a cache line).
type ValueInfo struct {
	Name string
	// Producer is the index of the node defining the value, -1 for a
	// graph input; Defined is false for a value nothing defines.
	Producer int
	// Users are the nodes that use it, ascending, each once (the slice
	// belongs to the index).
	Users []int
	// Tensor is the value's entry in the graph's tensor_values (nil for
	// a value that is not a tensor), looked up once.
	Tensor  *TensorMeta
	Defined bool
	// GraphOutput: the graph's outputs use it.
	GraphOutput bool
	// Type is the table that describes the value (Graph.TypeOf), looked
	// up once.
	Type ValueType
}

// DefUse indexes g in one pass over its inputs, nodes and outputs.
func (g *Graph) DefUse() *DefUse {
	n := len(g.Nodes)
	du := &DefUse{
		names:     newNameTable(n + len(g.Inputs)),
		vals:      make([]ValueInfo, 0, n+len(g.Inputs)),
		reads:     make([]ValueID, 0, 2*n),
		defs:      make([]ValueID, 0, n),
		readStart: make([]int32, n+1),
		defStart:  make([]int32, n+1),
		nests:     make([]bool, n),
	}
	x := &indexer{du: du, lastReader: make([]int32, 0, cap(du.vals)), users: make([]int32, 0, cap(du.vals))}
	for i := range g.Inputs {
		g.Inputs[i].ForEachRef(func(name string) {
			v := &du.vals[du.intern(name)]
			v.Producer, v.Defined = -1, true
		})
	}
	read, def := x.read, x.def
	for i, nd := range g.Nodes {
		x.node = int32(i)
		du.readStart[i] = int32(len(du.reads))
		// As ForEachInputRef, noting graph arguments while the node's
		// inputs are at hand. An argument naming one value (most of them)
		// is read here, not through ForEachRef's callback: on a large
		// graph, whose arguments are out of cache, the indirect calls
		// kept the processor from loading the next node's while it waited
		// (a third of the index's time).
		for k := range nd.Inputs {
			a := &nd.Inputs[k].Arg
			if a.Kind == ArgGraph && a.Graph() != nil {
				du.nests[i] = true
			}
			switch refShapes[a.Kind] {
			case refOne:
				if a.Name != "" {
					x.read(a.Name)
				}
			case refOther:
				a.ForEachRef(read)
			}
		}
		du.defStart[i] = int32(len(du.defs))
		for k := range nd.Outputs {
			if a := &nd.Outputs[k]; refShapes[a.Kind] == refOne {
				if a.Name != "" {
					x.def(a.Name)
				}
			} else {
				a.ForEachRef(def)
			}
		}
	}
	du.readStart[n], du.defStart[n] = int32(len(du.reads)), int32(len(du.defs))
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(name string) { du.vals[du.intern(name)].GraphOutput = true })
	}
	// Every value's users share one slice, filled in node order.
	all := make([]int, len(du.reads))
	next := 0
	for id, c := range x.users {
		if c > 0 {
			du.vals[id].Users = all[next : next : next+int(c)]
			next += int(c)
		}
	}
	for i := 0; i < n; i++ {
		for _, id := range du.Reads(i) {
			du.vals[id].Users = append(du.vals[id].Users, i)
		}
	}
	for i := range du.vals {
		v := &du.vals[i]
		var isTensor bool
		if v.Tensor, isTensor = g.TensorValues[v.Name]; isTensor {
			v.Type = ValueTensor
		} else {
			v.Type = g.TypeOf(v.Name)
		}
	}
	return du
}

// indexer is DefUse while it reads the nodes.
type indexer struct {
	du   *DefUse
	node int32 // the node being read
	// lastReader[id] is the last node that read value id (a node using a
	// value twice is one user); users[id] counts its users.
	lastReader, users []int32
	// recent are the values the last nodes defined.
	recent recentDefs
}

// read notes that the current node uses name.
func (x *indexer) read(name string) {
	du := x.du
	id, ok := x.recent.find(name, du.vals)
	if !ok {
		id = du.intern(name)
	}
	for int(id) >= len(x.lastReader) {
		x.lastReader, x.users = append(x.lastReader, -1), append(x.users, 0)
	}
	if x.lastReader[id] != x.node {
		x.lastReader[id] = x.node
		x.users[id]++
		du.reads = append(du.reads, id)
	}
}

// def notes that the current node defines name.
func (x *indexer) def(name string) {
	du := x.du
	id := du.intern(name)
	du.vals[id].Producer, du.vals[id].Defined = int(x.node), true
	du.defs = append(du.defs, id)
	x.recent.add(id)
}

// refShape is how an argument of a kind names values, as ForEachRef
// visits them: never, by its Name alone, or otherwise (lists, maps).
type refShape uint8

const (
	refOther refShape = iota
	refNone
	refOne
)

// refShapes classifies each kind by asking ForEachRef, so that the index's
// shortcut cannot disagree with it: a kind that visits an argument's Name
// and nothing else is refOne; one that visits nothing when every member is
// set is refNone.
var refShapes = func() (shapes [256]refShape) {
	for k := range numArgKinds {
		full := Argument{Kind: k, Name: "name", List: []Argument{TensorArg("elem")},
			Extra: &ArgExtra{Nested: [][]string{{"nested"}}, Map: map[string]Argument{"k": TensorArg("mapped")}}}
		seen := full.Refs()
		switch {
		case len(seen) == 0:
			shapes[k] = refNone
		case len(seen) == 1 && seen[0] == "name":
			shapes[k] = refOne
		}
	}
	return shapes
}()

// intern numbers name, once.
func (du *DefUse) intern(name string) ValueID {
	id, ok, slot, h := du.names.find(name, du.vals)
	if ok {
		return id
	}
	du.vals = append(du.vals, ValueInfo{Name: name})
	du.names.insert(slot, h, du.vals)
	return ValueID(len(du.vals) - 1)
}

// recentDefs are the values the last few nodes defined: most reads name
// one of them (a chain, a residual block), and finding it among them
// costs a few comparisons of cached names instead of a probe of the name
// table, a cache miss on a large graph.
type recentDefs struct {
	ids  [8]ValueID
	n    int // how many of ids are set
	next int // where the next definition goes
}

func (r *recentDefs) add(id ValueID) {
	r.ids[r.next] = id
	r.next = (r.next + 1) % len(r.ids)
	r.n = min(r.n+1, len(r.ids))
}

// find looks for name among the recent definitions, newest first.
func (r *recentDefs) find(name string, vals []ValueInfo) (ValueID, bool) {
	for k := 1; k <= r.n; k++ {
		id := r.ids[(r.next-k+len(r.ids))%len(r.ids)]
		if vals[id].Name == name {
			return id, true
		}
	}
	return 0, false
}

func (du *DefUse) lookup(v string) *ValueInfo {
	if id, ok, _, _ := du.names.find(v, du.vals); ok {
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
	id, ok, _, _ := du.names.find(v, du.vals)
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

// Nests reports whether node i has graph arguments (Node.SubGraphs is
// not empty): a pass over a large graph asks the index rather than each
// node's arguments again.
func (du *DefUse) Nests(i int) bool { return du.nests[i] }

// ReadCount is the number of (node, value) reads: the sum of the lengths
// of every node's Reads.
func (du *DefUse) ReadCount() int { return len(du.reads) }

// Defines are the values node i defines, in order. The slice belongs to
// the index.
func (du *DefUse) Defines(i int) []ValueID { return du.defs[du.defStart[i]:du.defStart[i+1]] }

// nameTable finds a value's number by its name: open addressing on the
// names' hashes, in a table of 8-byte slots (a Go map of the same names,
// which indexing a 64,000-node graph spent most of its time probing, takes
// about three times the memory).
type nameTable struct {
	seed  maphash.Seed
	slots []nameSlot // a power of two, at most half full
	used  int
}

// nameSlot is a value's number plus one (0: empty) and the high half of
// its name's hash.
type nameSlot struct {
	id   int32
	hash uint32
}

func newNameTable(hint int) nameTable {
	t := nameTable{seed: maphash.MakeSeed()}
	t.slots = make([]nameSlot, tableSize(hint))
	return t
}

// tableSize is the smallest power of two at least twice n (and 16).
func tableSize(n int) int {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return size
}

// find returns name's number, or the slot where it goes and its hash.
func (t *nameTable) find(name string, vals []ValueInfo) (id ValueID, ok bool, slot int, h uint64) {
	h = maphash.String(t.seed, name)
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.id == 0 {
			return 0, false, i, h
		}
		if s.hash == uint32(h>>32) && vals[s.id-1].Name == name {
			return ValueID(s.id - 1), true, i, h
		}
	}
}

// insert numbers the last of vals, whose name find did not know: in the
// slot find returned, or, when the table would be more than half full
// (a graph naming more values than it has nodes and inputs), in a table
// twice the size.
func (t *nameTable) insert(slot int, h uint64, vals []ValueInfo) {
	t.used++
	if 2*t.used > len(t.slots) {
		t.slots = make([]nameSlot, tableSize(t.used))
		mask := len(t.slots) - 1
		for id := range vals {
			h := maphash.String(t.seed, vals[id].Name)
			i := int(h) & mask
			for t.slots[i].id != 0 {
				i = (i + 1) & mask
			}
			t.slots[i] = nameSlot{int32(id + 1), uint32(h >> 32)}
		}
		return
	}
	t.slots[slot] = nameSlot{int32(len(vals)), uint32(h >> 32)}
}

package ir

import (
	"hash/maphash"
	"math/bits"
)

// DefUse indexes a graph's values: the node that defines each, the nodes
// that use it and whether the graph's outputs do. Partitioning, lowering
// and reports read it instead of each walking the graph for itself. It
// describes the graph as it was when the index was made, but for the
// values' tables (tensor_values and the others), which Tensor and Type
// read when asked.
//
// Each value is numbered (a ValueID) once, when the index is made, and
// every node's reads and definitions are kept as those numbers, so a pass
// over a large graph (a partitioner's request, a plan's boundaries) runs
// on slices of integers, not on the graph's arguments and string-keyed
// maps.
type DefUse struct {
	g     *Graph // for the values' tables, read when asked (Tensor, Type)
	names nameTable
	vals  []ValueInfo
	// reads[readStart[i]:readStart[i+1]] are the values node i uses, each
	// once, in order of first use; defs likewise what it defines.
	reads, defs         []ValueID
	readStart, defStart []int32
	nests               []bool // per node: it has graph arguments
	// users[userStart[id]:userStart[id+1]] are the nodes using value id.
	users     []int
	userStart []int32
}

// ValueID numbers a value within one DefUse.
type ValueID int32

// ValueInfo is what the index knows of one value (32 bytes: a large
// graph has as many values as nodes). Its tensor metadata and type are
// not kept here: looking every value up in the graph's string-keyed
// tables was most of the index's cost, and most passes ask about a few
// values only (DefUse.Tensor, DefUse.Type).
type ValueInfo struct {
	Name string
	// Producer is the index of the node defining the value, -1 for a
	// graph input; Defined is false for a value nothing defines.
	// DefUse.UsersOf lists the nodes that use it.
	Producer int
	Defined  bool
	// GraphOutput: the graph's outputs use it.
	GraphOutput bool
}

// DefUse indexes g in one pass over its inputs, nodes and outputs.
//
// On a large graph the name table is the cost: a probe for each value a
// node defines is a cache miss. So the nodes' definitions are numbered
// as they come and put in the table afterwards, all at once, in the
// order of the table's slots; a read finds its value among the last
// definitions (most do), among the graph's inputs, or waits for the
// table.
func (g *Graph) DefUse() *DefUse {
	n := len(g.Nodes)
	du := &DefUse{
		g:         g,
		names:     newNameTable(len(g.Inputs)),
		vals:      make([]ValueInfo, 0, n+len(g.Inputs)),
		reads:     make([]ValueID, 0, 2*n),
		defs:      make([]ValueID, 0, n),
		readStart: make([]int32, n+1),
		defStart:  make([]int32, n+1),
		nests:     make([]bool, n),
	}
	for i := range g.Inputs {
		g.Inputs[i].ForEachRef(func(name string) {
			v := &du.vals[du.intern(name)]
			v.Producer, v.Defined = -1, true
		})
	}
	x := &indexer{du: du, tabled: len(du.vals)}
	read, def := x.read, x.def
	for i, nd := range g.Nodes {
		x.node = i
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
	renumber := x.tableDefinitions()
	users := x.settleReads(renumber)
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(name string) { du.vals[du.intern(name)].GraphOutput = true })
	}
	// Every value's users share one slice, filled in node order (values
	// numbered after the reads were counted, the outputs' names nothing
	// else mentions, have none).
	du.users = make([]int, len(du.reads))
	du.userStart = make([]int32, len(du.vals)+1)
	next := int32(0)
	for id := range du.vals {
		du.userStart[id] = next
		if id < len(users) {
			next += users[id]
		}
	}
	du.userStart[len(du.vals)] = next
	fill := users // reused: the next free place of each value's users
	for id := range fill {
		fill[id] = du.userStart[id]
	}
	for i := 0; i < n; i++ {
		for _, id := range du.Reads(i) {
			du.users[fill[id]] = i
			fill[id]++
		}
	}
	return du
}

// indexer is DefUse while it reads the nodes.
type indexer struct {
	du   *DefUse
	node int // the node being read
	// vals[:tabled] are in the name table (the graph's inputs); the rest,
	// the nodes' definitions, wait for tableDefinitions.
	tabled int
	// recent are the values the last nodes defined.
	recent recentDefs
	// waiting are the names of reads found neither among the recent
	// definitions nor in the table; a read of waiting[k] is noted in
	// reads as -1-k until settleReads.
	waiting []string
}

// read notes that the current node uses name (settleReads drops a
// node's second read of a value).
func (x *indexer) read(name string) {
	du := x.du
	id, ok := x.recent.find(name, du.vals)
	if !ok {
		id, ok, _, _ = du.names.find(name, du.vals)
	}
	if !ok {
		id = ValueID(-1 - len(x.waiting))
		x.waiting = append(x.waiting, name)
	}
	du.reads = append(du.reads, id)
}

// def numbers a value the current node defines, for now a new one (see
// tableDefinitions).
func (x *indexer) def(name string) {
	du := x.du
	id := ValueID(len(du.vals))
	du.vals = append(du.vals, ValueInfo{Name: name, Producer: x.node, Defined: true})
	du.defs = append(du.defs, id)
	x.recent.add(id)
}

// tableDefinitions puts the nodes' definitions in the name table, a region
// of its slots at a time. A name defined again (or a graph input's)
// keeps its first number, and the last definition is its producer; the
// values after it are then numbered down, and renumber says each old
// number's new one (nil when no name came twice).
func (x *indexer) tableDefinitions() (renumber []ValueID) {
	du := x.du
	t := &du.names
	vals := du.vals
	t.slots, t.used = make([]nameSlot, tableSize(len(vals))), 0
	for id := range x.tabled {
		t.place(ValueID(id), maphash.String(t.seed, vals[id].Name), vals)
	}
	fresh := vals[x.tabled:]
	// Counting sort of the definitions by the region of the table their
	// slot is in (stable, so that a name's definitions stay in order).
	regionShift := max(t.bits()-10, 0)
	hashes := make([]uint64, len(fresh))
	start := make([]int32, (len(t.slots)>>regionShift)+1)
	for k := range fresh {
		h := maphash.String(t.seed, fresh[k].Name)
		hashes[k] = h
		start[t.home(h)>>regionShift+1]++
	}
	for r := 1; r < len(start); r++ {
		start[r] += start[r-1]
	}
	order := make([]int32, len(fresh))
	for k, h := range hashes {
		r := t.home(h) >> regionShift
		order[start[r]] = int32(k)
		start[r]++
	}
	var firstOf []ValueID // per definition: the number its name had, or -1
	for _, k := range order {
		id := ValueID(x.tabled + int(k))
		prev, ok := t.placeNew(id, hashes[k], vals)
		if !ok {
			continue
		}
		if firstOf == nil {
			firstOf = make([]ValueID, len(fresh))
			for j := range firstOf {
				firstOf[j] = -1
			}
		}
		firstOf[k] = prev
		vals[prev].Producer, vals[prev].Defined = vals[id].Producer, true
	}
	if firstOf == nil {
		return nil
	}
	// Number the values again without the repeated names (the first of a
	// name's numbers is below the others: they are renumbered first).
	renumber = make([]ValueID, len(vals))
	kept := 0
	for id := range vals {
		if id >= x.tabled && firstOf[id-x.tabled] >= 0 {
			renumber[id] = renumber[firstOf[id-x.tabled]]
			continue
		}
		vals[kept] = vals[id]
		renumber[id] = ValueID(kept)
		kept++
	}
	clear(vals[kept:])
	du.vals = vals[:kept]
	for i := range t.slots {
		if s := &t.slots[i]; s.id != 0 {
			s.id = int32(renumber[s.id-1]) + 1
		}
	}
	for i, id := range du.defs {
		du.defs[i] = renumber[id]
	}
	return renumber
}

// settleReads gives the waiting reads their values (numbering the names
// nothing defines), renumbers the others, keeps each node's first read
// of a value only, and counts each value's users.
func (x *indexer) settleReads(renumber []ValueID) (users []int32) {
	du := x.du
	waited := make([]ValueID, len(x.waiting))
	for k, name := range x.waiting {
		waited[k] = du.intern(name)
	}
	users = make([]int32, len(du.vals))
	// lastReader[id] is 1 + the last node that read value id.
	lastReader := make([]int32, len(du.vals))
	w := int32(0)
	for i := range len(du.readStart) - 1 {
		from, to := du.readStart[i], du.readStart[i+1]
		du.readStart[i] = w
		for _, id := range du.reads[from:to] {
			switch {
			case id < 0:
				id = waited[-1-id]
			case renumber != nil:
				id = renumber[id]
			}
			if lastReader[id] != int32(i+1) {
				lastReader[id] = int32(i + 1)
				users[id]++
				du.reads[w] = id
				w++
			}
		}
	}
	du.readStart[len(du.readStart)-1] = w
	du.reads = du.reads[:w]
	return users
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
	if id, ok := du.ID(v); ok {
		return du.UsersOf(id)
	}
	return nil
}

// UsersOf lists the nodes that use value id, ascending, each once (nil
// for none). The slice belongs to the index.
func (du *DefUse) UsersOf(id ValueID) []int {
	from, to := du.userStart[id], du.userStart[id+1]
	if from == to {
		return nil
	}
	return du.users[from:to:to]
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

// Tensor is value id's entry in the graph's tensor_values (nil for a
// value that is not a tensor), looked up when asked.
func (du *DefUse) Tensor(id ValueID) *TensorMeta { return du.g.TensorValues[du.vals[id].Name] }

// Type is the table that describes value id (Graph.TypeOf), looked up
// when asked.
func (du *DefUse) Type(id ValueID) ValueType { return du.g.TypeOf(du.vals[id].Name) }

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

// nameSlot is a value's number plus one (0: empty) and the low half of
// its name's hash (the slot it starts probing at is from the high bits).
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

// bits is the table size's logarithm.
func (t *nameTable) bits() int { return bits.TrailingZeros(uint(len(t.slots))) }

// home is the slot a hash starts probing at: its top bits, so that hashes
// sorted by value probe the table in order.
func (t *nameTable) home(h uint64) int { return int(h >> (64 - t.bits())) }

// find returns name's number, or the slot where it goes and its hash.
func (t *nameTable) find(name string, vals []ValueInfo) (id ValueID, ok bool, slot int, h uint64) {
	h = maphash.String(t.seed, name)
	id, ok, slot = t.probe(name, h, vals)
	return id, ok, slot, h
}

func (t *nameTable) probe(name string, h uint64, vals []ValueInfo) (id ValueID, ok bool, slot int) {
	mask := len(t.slots) - 1
	for i := t.home(h); ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.id == 0 {
			return 0, false, i
		}
		if s.hash == uint32(h) && vals[s.id-1].Name == name {
			return ValueID(s.id - 1), true, i
		}
	}
}

// placeNew is place for a value whose name is not likely in the table:
// its name is read only if a slot's hash matches (vals is read in no
// order, and out of cache).
func (t *nameTable) placeNew(id ValueID, h uint64, vals []ValueInfo) (ValueID, bool) {
	mask := len(t.slots) - 1
	for i := t.home(h); ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.id == 0 {
			t.slots[i] = nameSlot{int32(id) + 1, uint32(h)}
			t.used++
			return 0, false
		}
		if s.hash == uint32(h) && vals[s.id-1].Name == vals[id].Name {
			return ValueID(s.id - 1), true
		}
	}
}

// place puts value id, whose name hashes to h, in the table, unless its
// name is there already: then it returns that name's number. The table
// must have room.
func (t *nameTable) place(id ValueID, h uint64, vals []ValueInfo) (ValueID, bool) {
	prev, ok, slot := t.probe(vals[id].Name, h, vals)
	if ok {
		return prev, true
	}
	t.slots[slot] = nameSlot{int32(id) + 1, uint32(h)}
	t.used++
	return 0, false
}

// insert numbers the last of vals, whose name find did not know: in the
// slot find returned, or, when the table would be more than half full
// (a graph naming more values than it has nodes and inputs), in a table
// twice the size.
func (t *nameTable) insert(slot int, h uint64, vals []ValueInfo) {
	t.used++
	if 2*t.used > len(t.slots) {
		t.slots, t.used = make([]nameSlot, tableSize(t.used)), 0
		for id := range vals {
			t.place(ValueID(id), maphash.String(t.seed, vals[id].Name), vals)
		}
		return
	}
	t.slots[slot] = nameSlot{int32(len(vals)), uint32(h)}
}

package ir

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unsafe"
)

// CheckStructure checks what a reader must refuse before anything else can
// trust the program: the signature lines up with the graph's inputs and
// outputs, every name an argument uses is defined in its graph, and every
// static size is non-negative with an element count that fits in int64.
// The deeper export-IR rules are package verify's.
func (p *Program) CheckStructure() error { return p.checkStructure(nil) }

// checkStructure is CheckStructure, taking what a graph's checks found
// from seen when it has the graph (the decoder checks as it reads: see
// DecodeProgramChecked).
func (p *Program) checkStructure(seen map[*Graph]*graphCheck) error {
	g := p.Graph
	if len(g.Inputs) != len(p.Signature.Inputs) {
		return fmt.Errorf("graph has %d inputs but the signature lists %d", len(g.Inputs), len(p.Signature.Inputs))
	}
	if len(g.Outputs) != len(p.Signature.Outputs) {
		return fmt.Errorf("graph has %d outputs but the signature lists %d", len(g.Outputs), len(p.Signature.Outputs))
	}
	// A graph the decoder saw no nested graph in is not looked through
	// again for one (a pass over every node).
	flat := func(g *Graph) bool { c := seen[g]; return c != nil && !c.nested }
	return g.walk("", func(path string, g *Graph) error {
		c := seen[g]
		var err error
		if c != nil {
			err = c.names
		} else {
			err = g.checkNames()
		}
		if err != nil {
			if path != "" {
				return fmt.Errorf("graph %s: %w", path, err)
			}
			return err
		}
		if c != nil && c.metasKnown {
			return c.metas.err()
		}
		return g.checkMetas()
	}, flat)
}

func (g *Graph) checkNames() error {
	ns := nameCheck{g: g}
	for _, n := range g.Nodes {
		if err := ns.checkUses(n); err != nil {
			return err
		}
		n.ForEachOutputRef(ns.recent)
	}
	return ns.checkOutputs()
}

// checkUses refuses the first name the node uses that the graph does not
// define.
func (c *nameCheck) checkUses(n *Node) error {
	var err error
	n.ForEachInputRef(func(s string) {
		if err == nil && !c.defined(s) {
			err = undefinedUse(n, s)
		}
	})
	return err
}

func undefinedUse(n *Node, s string) error {
	return fmt.Errorf("node %s uses %q, which is never defined", n.Name, s)
}

// checkOutputs refuses the first name the graph's outputs use that it
// does not define.
func (c *nameCheck) checkOutputs() error {
	g := c.g
	var err error
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(s string) {
			if err == nil && !c.defined(s) {
				err = fmt.Errorf("output %d uses %q, which is never defined", i, s)
			}
		})
	}
	return err
}

// nearby is how many of the values defined last checkNames looks
// through before its maps.
const nearby = 16

// nameCheck says whether a graph defines a name. An export graph is in
// topological order and most arguments name a placeholder or a value
// defined a node or a few before: those are found among the last values
// defined, in memory just touched, or in the small map of placeholders.
// Only a name defined further away needs the map of every name the graph
// defines, built the first time one does (on a long chain, never).
type nameCheck struct {
	g            *Graph
	last         [nearby]string // the values defined last, a ring
	at           int
	placeholders map[string]bool
	all          map[string]bool
}

// recent records s as the value defined last.
func (c *nameCheck) recent(s string) {
	c.last[c.at%nearby] = s
	c.at++
}

// near reports whether s is among the values defined last.
func (c *nameCheck) near(s string) bool {
	// The most recent first: that is the value most often used.
	for i := c.at - 1; i >= max(c.at-nearby, 0); i-- {
		if c.last[i%nearby] == s {
			return true
		}
	}
	return false
}

func (c *nameCheck) defined(s string) bool {
	if c.near(s) {
		return true
	}
	g := c.g
	if c.placeholders == nil {
		c.placeholders = make(map[string]bool, len(g.Inputs))
		for i := range g.Inputs {
			g.Inputs[i].ForEachRef(func(n string) { c.placeholders[n] = true })
		}
	}
	if c.placeholders[s] {
		return true
	}
	if c.all == nil {
		c.all = make(map[string]bool, len(g.Nodes))
		for _, n := range g.Nodes {
			n.ForEachOutputRef(func(s string) { c.all[s] = true })
		}
	}
	return c.all[s]
}

// checkMetas reports the bad tensor metadata with the first name in
// order (found without sorting every name). The metadata is checked in
// the order it lies in memory, which for a program just decoded is the
// order it was read: the map's own order jumps about, a cache miss per
// value, which on a large program costs more than the sort.
func (g *Graph) checkMetas() error {
	type entry struct {
		at   uintptr
		name string
		m    *TensorMeta
	}
	es := make([]entry, 0, len(g.TensorValues))
	for name, m := range g.TensorValues {
		es = append(es, entry{uintptr(unsafe.Pointer(m)), name, m})
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(a.at, b.at) })
	var c metaCheck
	for _, e := range es {
		c.add(e.name, e.m)
	}
	return c.err()
}

// metaCheck finds, of the tensor metadata added to it, the bad one with
// the first name.
type metaCheck struct {
	first    string
	firstErr error
}

func (c *metaCheck) add(name string, m *TensorMeta) {
	if c.firstErr != nil && name >= c.first {
		return
	}
	var err error
	if m == nil {
		err = errNullMeta
	} else {
		err = m.CheckSizes()
	}
	if err != nil {
		c.first, c.firstErr = name, err
	}
}

func (c *metaCheck) err() error {
	if c.firstErr != nil {
		return fmt.Errorf("tensor %s: %w", c.first, c.firstErr)
	}
	return nil
}

var errNullMeta = errors.New("null metadata")

// CheckSizes refuses negative sizes and static shapes whose byte count
// overflows int64.
func (m *TensorMeta) CheckSizes() error {
	if !m.DType.Valid() && m.DType != Unknown {
		return fmt.Errorf("unknown dtype %d", int(m.DType))
	}
	n := int64(max(m.DType.Size(), 1))
	for i, s := range m.Sizes {
		if !s.IsStatic() {
			continue
		}
		if s.Int < 0 {
			return fmt.Errorf("negative size %d in dim %d", s.Int, i)
		}
		// n and s.Int are not negative: the product overflows when it
		// needs more than 63 bits (no division, for every value read).
		hi, lo := bits.Mul64(uint64(n), uint64(s.Int))
		if hi != 0 || lo > math.MaxInt64 {
			return fmt.Errorf("sizes overflow: %d elements in the first %d dims", n, i+1)
		}
		n = int64(lo)
	}
	return nil
}

// graphCheck is what checkNames and checkMetas find in a graph, found by
// the decoder as it reads the graph: each node's uses are looked for
// among the values defined just before it, while those are at hand
// (only the uses not found there wait for the graph to be whole), and
// each tensor's metadata is checked as it is read.
type graphCheck struct {
	uses    nameCheck
	pending []pendingUse
	names   error // checkNames' verdict, once the graph is whole
	nested  bool  // whether a node has a graph argument

	metas metaCheck
	// metasKnown is false when the tensor table named a value twice:
	// metadata checked may have been replaced (checkMetas then runs).
	metasKnown bool
}

// pendingUse is a use of a value not defined near it.
type pendingUse struct {
	n    *Node
	name string
}

func newGraphCheck(g *Graph) *graphCheck {
	return &graphCheck{uses: nameCheck{g: g}, metasKnown: true}
}

// newNodes starts the graph's node list (again, if it is given twice).
func (c *graphCheck) newNodes() {
	c.uses = nameCheck{g: c.uses.g}
	c.pending = c.pending[:0]
	c.nested = false
}

// node takes the uses and definitions of the node just read.
func (c *graphCheck) node(n *Node) {
	for i := range n.Inputs {
		// A tensor, the common use, without a call per name.
		if a := &n.Inputs[i].Arg; a.Kind == ArgTensor {
			c.use(n, a.Name)
		} else {
			a.ForEachRef(func(s string) { c.use(n, s) })
			c.nested = c.nested || a.Kind == ArgGraph
		}
	}
	for i := range n.Outputs {
		if a := &n.Outputs[i]; a.Kind == ArgTensor && a.Name != "" {
			c.uses.recent(a.Name)
		} else {
			a.ForEachRef(c.uses.recent)
		}
	}
}

func (c *graphCheck) use(n *Node, s string) {
	if s != "" && !c.uses.near(s) {
		c.pending = append(c.pending, pendingUse{n, s})
	}
}

// finish looks up, once the graph is whole, the uses not found near.
func (c *graphCheck) finish() {
	for _, u := range c.pending {
		if !c.uses.defined(u.name) {
			c.names = undefinedUse(u.n, u.name)
			return
		}
	}
	c.pending = nil
	c.names = c.uses.checkOutputs()
}

// newMetas starts the graph's tensor table (again, if it is given twice).
func (c *graphCheck) newMetas() { c.metas, c.metasKnown = metaCheck{}, true }

// meta takes a tensor's metadata just read; added is false when the
// table had the name already.
func (c *graphCheck) meta(name string, m *TensorMeta, added bool) {
	if !added {
		c.metasKnown = false
	}
	c.metas.add(name, m)
}

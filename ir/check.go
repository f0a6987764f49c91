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
func (p *Program) CheckStructure() error {
	g := p.Graph
	if len(g.Inputs) != len(p.Signature.Inputs) {
		return fmt.Errorf("graph has %d inputs but the signature lists %d", len(g.Inputs), len(p.Signature.Inputs))
	}
	if len(g.Outputs) != len(p.Signature.Outputs) {
		return fmt.Errorf("graph has %d outputs but the signature lists %d", len(g.Outputs), len(p.Signature.Outputs))
	}
	return g.Walk(func(path string, g *Graph) error {
		if err := g.checkNames(); err != nil {
			if path != "" {
				return fmt.Errorf("graph %s: %w", path, err)
			}
			return err
		}
		return g.checkMetas()
	})
}

func (g *Graph) checkNames() error {
	ns := nameCheck{g: g}
	var err error
	for _, n := range g.Nodes {
		n.ForEachInputRef(func(s string) {
			if err == nil && !ns.defined(s) {
				err = fmt.Errorf("node %s uses %q, which is never defined", n.Name, s)
			}
		})
		if err != nil {
			return err
		}
		n.ForEachOutputRef(ns.recent)
	}
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(s string) {
			if err == nil && !ns.defined(s) {
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

func (c *nameCheck) defined(s string) bool {
	// The most recent first: that is the value most often used.
	for i := c.at - 1; i >= max(c.at-nearby, 0); i-- {
		if c.last[i%nearby] == s {
			return true
		}
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
	var first string
	var firstErr error
	for _, e := range es {
		if firstErr != nil && e.name >= first {
			continue
		}
		var err error
		if e.m == nil {
			err = errNullMeta
		} else {
			err = e.m.CheckSizes()
		}
		if err != nil {
			first, firstErr = e.name, err
		}
	}
	if firstErr != nil {
		return fmt.Errorf("tensor %s: %w", first, firstErr)
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

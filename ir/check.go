package ir

import (
	"fmt"
	"math"
	"math/bits"
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
	defined := make(map[string]bool, len(g.Nodes)+len(g.Inputs))
	for i := range g.Inputs {
		g.Inputs[i].ForEachRef(func(n string) { defined[n] = true })
	}
	for _, n := range g.Nodes {
		n.ForEachOutputRef(func(s string) { defined[s] = true })
	}
	var err error
	for _, n := range g.Nodes {
		n.ForEachInputRef(func(s string) {
			if err == nil && !defined[s] {
				err = fmt.Errorf("node %s uses %q, which is never defined", n.Name, s)
			}
		})
		if err != nil {
			return err
		}
	}
	for i := range g.Outputs {
		g.Outputs[i].ForEachRef(func(s string) {
			if err == nil && !defined[s] {
				err = fmt.Errorf("output %d uses %q, which is never defined", i, s)
			}
		})
	}
	return err
}

// checkMetas reports the bad tensor metadata with the first name in
// order (found without sorting every name).
func (g *Graph) checkMetas() error {
	var first string
	var firstErr error
	for name, m := range g.TensorValues {
		if firstErr != nil && name >= first {
			continue
		}
		err := fmt.Errorf("null metadata")
		if m != nil {
			err = m.CheckSizes()
		}
		if err != nil {
			first, firstErr = name, err
		}
	}
	if firstErr != nil {
		return fmt.Errorf("tensor %s: %w", first, firstErr)
	}
	return nil
}

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

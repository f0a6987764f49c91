package onnx

import (
	"errors"

	"github.com/seam-rt/seam/ir"
)

// Supports reports whether node n of graph g translates: its op is in the
// table and its arguments are ones the translation takes (a boolean mask
// index or a training-mode batch norm is refused, with the reason). For
// cond, the branches must translate too.
func Supports(g *ir.Graph, n *ir.Node) error {
	fn, ok := table[n.OpName()]
	if !ok {
		if why, ok := untranslatable[n.OpName()]; ok {
			return errors.New(why)
		}
		return errNoTranslation
	}
	t := &translator{top: &Graph{}, used: map[string]bool{}, consts: map[string]string{}, uses: map[string]int{}, defs: map[string]int{}}
	s := &scope{ig: g, g: t.top, names: map[string]string{}}
	n.ForEachInputRef(func(v string) { s.names[v] = v; t.used[v] = true })
	n.ForEachOutputRef(func(v string) { t.used[v] = true; t.uses[v]++ })
	c, err := t.newCall(s, n)
	if err != nil {
		return err
	}
	if err := fn(c); err != nil {
		return err
	}
	if len(t.errs.Nodes) > 0 {
		return &t.errs
	}
	return nil
}

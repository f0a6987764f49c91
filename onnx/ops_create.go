package onnx

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
)

// Tensors made from sizes and values, and indexing.

func init() {
	register(full, "aten.full.default")
	register(filledSized(0), "aten.zeros.default", "aten.empty.memory_format", "aten.empty_strided.default", "aten.empty_permuted.default")
	register(filledSized(1), "aten.ones.default")
	register(fullLike, "aten.full_like.default")
	register(filledLike(0), "aten.zeros_like.default", "aten.empty_like.default")
	register(filledLike(1), "aten.ones_like.default")
	register(newFull, "aten.new_full.default")
	register(newFilled(0), "aten.new_zeros.default", "aten.new_empty.default")
	register(newFilled(1), "aten.new_ones.default")
	register(scalarTensor, "aten.scalar_tensor.default")
	register(arange, "aten.arange.start_step", "aten.arange.default", "aten.arange.start")
	register(embedding, "aten.embedding.default")
	register(indexSelect, "aten.index_select.default")
	register(gather, "aten.gather.default")
	register(index, "aten.index.Tensor", "aten._unsafe_index.Tensor")
}

// fillOf is a rank-0 value of the output's type holding the operand.
func fillOf(c *call, name string) (string, error) {
	dt, err := c.outType(0)
	if err != nil {
		return "", err
	}
	v, err := c.operand(name)
	if err != nil {
		return "", err
	}
	return c.as(v, dt), nil
}

func full(c *call) error {
	v, err := fillOf(c, "fill_value")
	if err != nil {
		return err
	}
	size, err := c.sizes("size")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Expand", []string{v, size})
}

// filledSized makes zeros/ones/empty (empty is zeros: its contents are
// unspecified) of a size list.
func filledSized(v float64) translateFn {
	return func(c *call) error {
		dt, err := c.outType(0)
		if err != nil {
			return err
		}
		size, err := c.sizes("size")
		if err != nil {
			return err
		}
		return c.to(c.out(0), "Expand", []string{c.t.scalar(dt, v, int64(v)), size})
	}
}

func fullLike(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	v, err := fillOf(c, "fill_value")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Expand", []string{v, c.op("Shape", []string{x})})
}

func filledLike(v float64) translateFn {
	return func(c *call) error {
		x, err := c.tensor("self")
		if err != nil {
			return err
		}
		dt, err := c.outType(0)
		if err != nil {
			return err
		}
		return c.to(c.out(0), "Identity", []string{c.filled(x, dt, v)})
	}
}

func newFull(c *call) error {
	v, err := fillOf(c, "fill_value")
	if err != nil {
		return err
	}
	size, err := c.sizes("size")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Expand", []string{v, size})
}

func newFilled(v float64) translateFn { return filledSized(v) }

func scalarTensor(c *call) error {
	v, err := fillOf(c, "s")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Identity", []string{v})
}

// arange is Range in the output's type (Range takes start, limit and delta
// of that type).
func arange(c *call) error {
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	switch dt {
	case Float, Double, Int16, Int32, Int64:
	default:
		return fmt.Errorf("arange of %s (ONNX Range takes float, double, int16, int32, int64)", dt)
	}
	get := func(name string, def float64) (string, error) {
		if c.schema == nil {
			return "", fmt.Errorf("no schema")
		}
		if _, ok := c.schema.ArgIndex(name); !ok {
			return c.t.scalar(dt, def, int64(def)), nil
		}
		o, err := c.operand(name)
		if err != nil {
			return "", err
		}
		return c.as(o, dt), nil
	}
	start, err := get("start", 0)
	if err != nil {
		return err
	}
	end, err := get("end", 0)
	if err != nil {
		return err
	}
	step, err := get("step", 1)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Range", []string{start, end, step})
}

func embedding(c *call) error {
	w, err := c.tensor("weight")
	if err != nil {
		return err
	}
	idx, err := c.operand("indices")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Gather", []string{w, c.as(idx, Int64)}, attrInt("axis", 0))
}

func indexSelect(c *call) error {
	x, _, d, err := c.tensorDim("self", "dim")
	if err != nil {
		return err
	}
	idx, err := c.operand("index")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Gather", []string{x, c.as(idx, Int64)}, attrInt("axis", d))
}

func gather(c *call) error {
	x, _, d, err := c.tensorDim("self", "dim")
	if err != nil {
		return err
	}
	idx, err := c.operand("index")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "GatherElements", []string{x, c.as(idx, Int64)}, attrInt("axis", d))
}

// index is advanced indexing with integer index tensors. The indices
// broadcast together to a shape B. One index is a Gather; several are a
// GatherND over the indexed dims moved to the front, with B put back
// where torch puts it: in place of adjacent indexed dims, else first.
func index(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	xm, err := c.meta("self")
	if err != nil {
		return err
	}
	r := len(xm.Sizes)
	names, metas, err := c.tensors("indices")
	if err != nil {
		return err
	}
	var dims []int
	var idxs []string
	brank := 0
	for i, n := range names {
		if n == "" {
			continue
		}
		m := metas[i]
		if m == nil {
			return fmt.Errorf("index %d has no metadata", i)
		}
		if m.DType == ir.Bool || m.DType == ir.Uint8 {
			return fmt.Errorf("a boolean mask index has a size that depends on the data; ONNX needs NonZero, which seam does not emit")
		}
		dt, err := dataType(m.DType)
		if err != nil {
			return err
		}
		dims = append(dims, i)
		idxs = append(idxs, c.castTo(n, dt, Int64))
		brank = max(brank, len(m.Sizes))
	}
	if len(dims) == 0 {
		return c.to(c.out(0), "Identity", []string{x})
	}
	if len(dims) > r {
		return fmt.Errorf("%d indices for a %d-d tensor", len(dims), r)
	}
	if len(dims) == 1 {
		return c.to(c.out(0), "Gather", []string{x, idxs[0]}, attrInt("axis", int64(dims[0])))
	}
	// Broadcast the indices against each other: adding a zero of the
	// broadcast shape gives each that shape.
	zero := c.op("Mul", []string{idxs[0], c.t.i64(0)})
	for _, ix := range idxs[1:] {
		zero = c.op("Add", []string{zero, c.op("Mul", []string{ix, c.t.i64(0)})})
	}
	cols := make([]string, len(idxs))
	for i, ix := range idxs {
		cols[i] = c.op("Unsqueeze", []string{c.op("Add", []string{ix, zero}), c.t.i64s(-1)})
	}
	stacked := c.op("Concat", cols, attrInt("axis", -1))
	adjacent := dims[len(dims)-1]-dims[0] == len(dims)-1
	perm := make([]int64, 0, r)
	indexed := map[int]bool{}
	for _, d := range dims {
		perm = append(perm, int64(d))
		indexed[d] = true
	}
	for d := 0; d < r; d++ {
		if !indexed[d] {
			perm = append(perm, int64(d))
		}
	}
	front := x
	if !isIdentityPerm(perm) {
		front = c.op("Transpose", []string{x}, attrInts("perm", perm...))
	}
	g := c.op("GatherND", []string{front, stacked})
	if !adjacent || dims[0] == 0 {
		return c.to(c.out(0), "Identity", []string{g})
	}
	// GatherND gives B + (dims before) + (dims after); torch wants
	// (dims before) + B + (dims after).
	k := dims[0]
	var back []int64
	for i := 0; i < k; i++ {
		back = append(back, int64(brank+i))
	}
	for i := 0; i < brank; i++ {
		back = append(back, int64(i))
	}
	for i := brank + k; i < brank+r-len(dims); i++ {
		back = append(back, int64(i))
	}
	return c.to(c.out(0), "Transpose", []string{g}, attrInts("perm", back...))
}

func isIdentityPerm(p []int64) bool {
	for i, v := range p {
		if int64(i) != v {
			return false
		}
	}
	return true
}

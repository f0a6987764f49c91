package onnx

import (
	"fmt"
	"math"
	"sort"

	"github.com/seam-rt/seam/ir"
)

// Views, copies and layout ops. ONNX values have no strides, so a view is
// the copy it describes and a copy is Identity.

func init() {
	register(identity, "aten.clone.default", "aten.alias.default", "aten.detach.default",
		"aten.lift_fresh_copy.default", "aten.contiguous.default")
	register(toCopy, "aten._to_copy.default")
	register(copyOp, "aten.copy.default")
	register(nothing, "aten._assert_tensor_metadata.default")
	register(dropout, "aten.dropout.default")
	register(view, "aten.view.default", "aten._unsafe_view.default", "aten.reshape.default")
	register(permute, "aten.permute.default")
	register(transpose, "aten.transpose.int", "aten.t.default")
	register(unsqueeze, "aten.unsqueeze.default")
	register(squeeze, "aten.squeeze.dim", "aten.squeeze.dims", "aten.squeeze.default")
	register(expand, "aten.expand.default")
	register(slice, "aten.slice.Tensor")
	register(narrow, "aten.narrow.default")
	register(selectInt, "aten.select.int")
	register(cat, "aten.cat.default")
	register(stack, "aten.stack.default")
	register(splitWithSizes, "aten.split_with_sizes.default")
	register(splitTensor, "aten.split.Tensor")
	register(unbind, "aten.unbind.int")
	register(repeat, "aten.repeat.default")
	register(flip, "aten.flip.default")
	register(constantPad, "aten.constant_pad_nd.default")
	register(triangle(0), "aten.tril.default")
	register(triangle(1), "aten.triu.default")
}

func toCopy(c *call) error {
	x, err := c.operand("self")
	if err != nil {
		return err
	}
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Identity", []string{c.as(x, dt)})
}

// copyOp is copy(self, src): src broadcast to self's shape, in self's type.
func copyOp(c *call) error {
	self, err := c.tensor("self")
	if err != nil {
		return err
	}
	src, err := c.operand("src")
	if err != nil {
		return err
	}
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Expand", []string{c.as(src, dt), c.op("Shape", []string{self})})
}

func dropout(c *call) error {
	if train, err := c.bool("train"); err != nil || train {
		return fmt.Errorf("dropout in training mode is random")
	}
	x, err := c.tensor("input")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Identity", []string{x})
}

func view(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	arg := "size"
	if c.n.OpName() == "aten.reshape.default" {
		arg = "shape"
	}
	size, err := c.sizes(arg)
	if err != nil {
		return err
	}
	// A literal 0 is a size of 0, not ONNX's "copy this dim".
	var zero *Attribute
	if lits, err := c.ints(arg); err == nil {
		for _, v := range lits {
			if v == 0 {
				zero = attrInt("allowzero", 1)
			}
		}
	}
	return c.to(c.out(0), "Reshape", []string{x, size}, zero)
}

func permute(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	r, err := c.rank("self")
	if err != nil {
		return err
	}
	dims, err := c.ints("dims")
	if err != nil {
		return err
	}
	perm := make([]int64, len(dims))
	for i, d := range dims {
		if perm[i], err = wrapDim(d, r); err != nil {
			return err
		}
	}
	if r < 2 {
		return c.to(c.out(0), "Identity", []string{x})
	}
	return c.to(c.out(0), "Transpose", []string{x}, attrInts("perm", perm...))
}

func transpose(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	r, err := c.rank("self")
	if err != nil {
		return err
	}
	if r < 2 {
		return c.to(c.out(0), "Identity", []string{x})
	}
	d0, d1 := int64(0), int64(1)
	if c.n.OpName() == "aten.transpose.int" {
		if d0, err = c.dim("dim0", r); err != nil {
			return err
		}
		if d1, err = c.dim("dim1", r); err != nil {
			return err
		}
	}
	perm := make([]int64, r)
	for i := range perm {
		perm[i] = int64(i)
	}
	perm[d0], perm[d1] = perm[d1], perm[d0]
	return c.to(c.out(0), "Transpose", []string{x}, attrInts("perm", perm...))
}

func unsqueeze(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	r, err := c.rank("self")
	if err != nil {
		return err
	}
	d, err := c.int("dim")
	if err != nil {
		return err
	}
	if d, err = wrapDim(d, r+1); err != nil {
		return err
	}
	return c.to(c.out(0), "Unsqueeze", []string{x, c.t.i64s(d)})
}

// squeeze removes the named dims (all, without dims) that are statically
// 1; like torch, it leaves any other dim alone.
func squeeze(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	m, err := c.meta("self")
	if err != nil {
		return err
	}
	r := len(m.Sizes)
	var dims []int64
	if c.isNone("dim") && c.isNone("dims") || c.n.OpName() == "aten.squeeze.default" {
		for i := range m.Sizes {
			dims = append(dims, int64(i))
		}
	} else {
		ds, err := c.ints("dim")
		if err != nil {
			return err
		}
		for _, d := range ds {
			w, err := wrapDim(d, r)
			if err != nil {
				return err
			}
			dims = append(dims, w)
		}
	}
	var axes []int64
	seen := map[int64]bool{}
	for _, d := range dims {
		if int(d) < r && m.Sizes[d].Expr == nil && m.Sizes[d].Int == 1 && !seen[d] {
			axes, seen[d] = append(axes, d), true
		}
	}
	if len(axes) == 0 {
		return c.to(c.out(0), "Identity", []string{x})
	}
	sort.Slice(axes, func(i, j int) bool { return axes[i] < axes[j] })
	return c.to(c.out(0), "Squeeze", []string{x, c.t.i64s(axes...)})
}

// expand is ONNX Expand, with torch's -1 ("keep this dim") written as 1,
// which broadcasting reads the same way.
func expand(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	a := c.arg("size")
	if a.Kind == ir.ArgSymInts {
		a.List = append([]ir.Argument{}, a.List...) // the program's own list stays as it is
		for i := range a.List {
			if a.List[i].Name == "" && a.List[i].Int == -1 {
				a.List[i].Int = 1
			}
		}
	} else if a.Kind == ir.ArgInts {
		ints := append([]int64{}, a.Ints...)
		for i, v := range ints {
			if v == -1 {
				ints[i] = 1
			}
		}
		a.Ints = ints
	}
	size, err := c.sizes("size")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Expand", []string{x, size})
}

// slice is ONNX Slice on one axis; a None start or end is the open end.
func slice(c *call) error {
	x, _, d, err := c.tensorDim("self", "dim")
	if err != nil {
		return err
	}
	step, err := c.int("step")
	if err != nil {
		return err
	}
	if step <= 0 {
		return fmt.Errorf("slice step %d (torch allows only positive steps)", step)
	}
	bound := func(name string, open int64) (string, error) {
		if c.isNone(name) {
			return c.t.i64s(open), nil
		}
		v, err := c.intValue(name)
		if err != nil {
			return "", err
		}
		return c.op("Reshape", []string{v, c.t.i64s(1)}), nil
	}
	start, err := bound("start", 0)
	if err != nil {
		return err
	}
	end, err := bound("end", maxInt64)
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Slice", []string{x, start, end, c.t.i64s(d), c.t.i64s(step)})
}

func narrow(c *call) error {
	x, _, d, err := c.tensorDim("self", "dim")
	if err != nil {
		return err
	}
	start, err := c.intValue("start")
	if err != nil {
		return err
	}
	length, err := c.intValue("length")
	if err != nil {
		return err
	}
	s1 := c.op("Reshape", []string{start, c.t.i64s(1)})
	e1 := c.op("Reshape", []string{c.op("Add", []string{start, length}), c.t.i64s(1)})
	return c.to(c.out(0), "Slice", []string{x, s1, e1, c.t.i64s(d)})
}

// selectInt takes one index along a dim (Gather with a scalar index drops
// the dim, as select does; a negative index counts from the end in both).
func selectInt(c *call) error {
	x, _, d, err := c.tensorDim("self", "dim")
	if err != nil {
		return err
	}
	idx, err := c.intValue("index")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Gather", []string{x, idx}, attrInt("axis", d))
}

// joined is the input of a cat or stack: the tensors with their element
// types, the output's type and rank, and the dim normalised against it.
type joined struct {
	xs    []string
	metas []*ir.TensorMeta
	dts   []DataType
	dt    DataType
	rank  int
	dim   int64
}

func readJoined(c *call) (*joined, error) {
	xs, metas, err := c.tensors("tensors")
	if err != nil {
		return nil, err
	}
	dt, err := c.outType(0)
	if err != nil {
		return nil, err
	}
	m, err := c.outMeta(0)
	if err != nil {
		return nil, err
	}
	d, err := c.dim("dim", len(m.Sizes))
	if err != nil {
		return nil, err
	}
	j := &joined{xs: xs, metas: metas, dts: make([]DataType, len(xs)), dt: dt, rank: len(m.Sizes), dim: d}
	for i := range xs {
		if metas[i] == nil {
			return nil, fmt.Errorf("tensor %d of the list has no metadata", i)
		}
		if j.dts[i], err = dataType(metas[i].DType); err != nil {
			return nil, err
		}
	}
	return j, nil
}

func cat(c *call) error {
	j, err := readJoined(c)
	if err != nil {
		return err
	}
	var ins []string
	for i, x := range j.xs {
		// torch skips legacy empty 1-D tensors in cat; ONNX would refuse them.
		if s := j.metas[i].Sizes; len(s) == 1 && j.rank != 1 && s[0].Expr == nil && s[0].Int == 0 {
			continue
		}
		ins = append(ins, c.castTo(x, j.dts[i], j.dt))
	}
	if len(ins) == 0 {
		return fmt.Errorf("cat of only empty tensors")
	}
	return c.to(c.out(0), "Concat", ins, attrInt("axis", j.dim))
}

func stack(c *call) error {
	j, err := readJoined(c)
	if err != nil {
		return err
	}
	ins := make([]string, len(j.xs))
	for i, x := range j.xs {
		ins[i] = c.op("Unsqueeze", []string{c.castTo(x, j.dts[i], j.dt), c.t.i64s(j.dim)})
	}
	return c.to(c.out(0), "Concat", ins, attrInt("axis", j.dim))
}

func splitWithSizes(c *call) error {
	x, _, d, err := c.tensorDim("self", "dim")
	if err != nil {
		return err
	}
	sizes, err := c.sizes("split_sizes")
	if err != nil {
		return err
	}
	outs, err := c.outs(0)
	if err != nil {
		return err
	}
	c.emit("Split", []string{x, sizes}, outs, attrInt("axis", d))
	return nil
}

// splitTensor cuts pieces of split_size (the last may be shorter), as
// slices, which works whether the dim's size is known or symbolic.
func splitTensor(c *call) error {
	x, _, d, err := c.tensorDim("self", "dim")
	if err != nil {
		return err
	}
	size, err := c.int("split_size")
	if err != nil {
		return err
	}
	outs, err := c.outs(0)
	if err != nil {
		return err
	}
	for i, o := range outs {
		end := int64(i+1) * size
		if i == len(outs)-1 {
			end = maxInt64
		}
		c.emit("Slice", []string{x, c.t.i64s(int64(i) * size), c.t.i64s(end), c.t.i64s(d)}, []string{o})
	}
	return nil
}

func unbind(c *call) error {
	x, _, d, err := c.tensorDim("self", "dim")
	if err != nil {
		return err
	}
	outs, err := c.outs(0)
	if err != nil {
		return err
	}
	for i, o := range outs {
		c.emit("Gather", []string{x, c.t.i64(int64(i))}, []string{o}, attrInt("axis", d))
	}
	return nil
}

// repeat is Tile, after prepending the size-1 dims torch adds when there
// are more repeats than dims.
func repeat(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	r, err := c.rank("self")
	if err != nil {
		return err
	}
	reps, err := c.sizes("repeats")
	if err != nil {
		return err
	}
	n := len(c.arg("repeats").List) + len(c.arg("repeats").Ints)
	if n > r {
		extra := make([]int64, n-r)
		for i := range extra {
			extra[i] = int64(i)
		}
		x = c.op("Unsqueeze", []string{x, c.t.i64s(extra...)})
	}
	return c.to(c.out(0), "Tile", []string{x, reps})
}

func flip(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	r, err := c.rank("self")
	if err != nil {
		return err
	}
	dims, err := c.ints("dims")
	if err != nil {
		return err
	}
	if len(dims) == 0 {
		return c.to(c.out(0), "Identity", []string{x})
	}
	var axes, starts, ends, steps []int64
	for _, d := range dims {
		w, err := wrapDim(d, r)
		if err != nil {
			return err
		}
		axes, starts, ends, steps = append(axes, w), append(starts, -1), append(ends, math.MinInt64), append(steps, -1)
	}
	return c.to(c.out(0), "Slice", []string{x, c.t.i64s(starts...), c.t.i64s(ends...), c.t.i64s(axes...), c.t.i64s(steps...)})
}

// constantPad turns torch's pad list (last dim first, before/after pairs)
// into ONNX's (every axis' begin, then every axis' end).
func constantPad(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	r, err := c.rank("self")
	if err != nil {
		return err
	}
	pad, err := c.ints("pad")
	if err != nil {
		return err
	}
	if len(pad)%2 != 0 || len(pad)/2 > r {
		return fmt.Errorf("pad list of length %d for rank %d", len(pad), r)
	}
	pads := make([]int64, 2*r)
	for i := 0; i < len(pad)/2; i++ {
		axis := r - 1 - i
		pads[axis], pads[r+axis] = pad[2*i], pad[2*i+1]
	}
	dt, err := c.outType(0)
	if err != nil {
		return err
	}
	v, err := c.operand("value")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Pad", []string{x, c.t.i64s(pads...), c.as(v, dt)}, attrString("mode", "constant"))
}

func triangle(upper int64) translateFn {
	return func(c *call) error {
		x, err := c.tensor("self")
		if err != nil {
			return err
		}
		k, err := c.intValue("diagonal")
		if err != nil {
			return err
		}
		return c.to(c.out(0), "Trilu", []string{x, k}, attrInt("upper", upper))
	}
}

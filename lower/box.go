package lower

import (
	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
)

// boxNode is `box = aten.scalar_tensor.default(v, dtype=...)`.
func boxNode(box, v string, t ir.ValueType) *created {
	n := &ir.Node{
		Name:   box,
		Target: "torch.ops.aten.scalar_tensor.default",
		Inputs: []ir.NamedArgument{
			positional("s", symRef(v, t)),
			{Name: "dtype", Arg: ir.ScalarTypeArg(backend.BoxDType(t)), Kind: ir.KindKeyword},
		},
		Outputs:  []ir.Argument{ir.TensorArg(box)},
		Metadata: ir.Metadata{},
	}
	return &created{node: n, tensors: map[string]*ir.TensorMeta{box: boxMeta(t)}}
}

// boxMeta describes the rank-0 tensor a value of type t is boxed in.
func boxMeta(t ir.ValueType) *ir.TensorMeta {
	return &ir.TensorMeta{
		DType: backend.BoxDType(t), Sizes: []ir.SymInt{}, Strides: []ir.SymInt{},
		Device: ir.Device{Type: "cpu"}, Layout: ir.Strided, StorageOffset: ir.IntSym(0),
	}
}

// unboxNode is `v = aten._local_scalar_dense.default(box)`, keeping v's
// metadata so sizes downstream still read `s53`.
func (gc *graphCut) unboxNode(v, box string) *created {
	n := &ir.Node{
		Name:     v,
		Target:   "torch.ops.aten._local_scalar_dense.default",
		Inputs:   []ir.NamedArgument{positional("self", ir.TensorArg(box))},
		Outputs:  []ir.Argument{symRef(v, gc.typeOf(v))},
		Metadata: ir.Metadata{},
	}
	c := &created{node: n}
	gc.copyMeta(c, v)
	return c
}

// copyMeta records v's metadata from the graph's tables on c.
func (gc *graphCut) copyMeta(c *created, v string) {
	g := gc.g
	if m, ok := g.TensorValues[v]; ok {
		if c.tensors == nil {
			c.tensors = map[string]*ir.TensorMeta{}
		}
		c.tensors[v] = m
	}
	if s, ok := g.SymIntValues[v]; ok {
		if c.symInts == nil {
			c.symInts = map[string]ir.SymInt{}
		}
		c.symInts[v] = s
	}
	if s, ok := g.SymBoolValues[v]; ok {
		if c.symBools == nil {
			c.symBools = map[string]ir.SymBool{}
		}
		c.symBools[v] = s
	}
	if s, ok := g.SymFloatValues[v]; ok {
		if c.symFloats == nil {
			c.symFloats = map[string]ir.SymFloat{}
		}
		c.symFloats[v] = s
	}
}

// boxName names the rank-0 tensor v travels in, once per value and
// direction, however many rounds of proposals ask.
func (gc *graphCut) boxName(memo map[string]string, v string) string {
	if b, ok := memo[v]; ok {
		return b
	}
	b := gc.lw.names.fresh(v + "_box")
	memo[v] = b
	return b
}

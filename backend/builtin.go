package backend

import (
	"fmt"
	"slices"

	"github.com/seam-rt/seam/ir"
)

// The built-in profiles describe the common shapes of backend.
var builtins = []*Profile{
	{
		Name:          "reference",
		Description:   "runs everything and accepts every kind of placeholder (a CPU reference)",
		Ops:           OpSet{Include: []string{"*"}},
		Placeholders:  Placeholders{SymInt: Scalar, SymBool: Scalar, SymFloat: Scalar},
		DynamicShapes: true, SingleNodePartitions: true, OwnsWeights: true, OwnsBuffers: true,
	},
	{
		Name: "tensor-only",
		Description: "Core ML / XNNPACK-like: ATen tensor compute ops, tensors only; embedding, gather " +
			"and indexing stay on the CPU, symbolic placeholders are refused",
		Ops: OpSet{
			Include: []string{"aten.*"},
			Exclude: []string{"aten.sym_*", "aten._local_scalar_dense.*", "aten.embedding*", "aten.gather.*", "aten.index*"},
		},
		Placeholders:  Placeholders{SymInt: Refuse, SymBool: Refuse, SymFloat: Refuse},
		DTypes:        DTypeList{ir.Float32, ir.Float16, ir.Int64, ir.Int32, ir.Bool, ir.Uint8, ir.Int8},
		DynamicShapes: true, SingleNodePartitions: true, OwnsWeights: true,
	},
	{
		Name: "scalar-args",
		Description: "Vulkan-like: ATen tensor compute ops, and SymInt/SymFloat/SymBool inputs " +
			"taken as plain scalar arguments",
		Ops: OpSet{
			Include: []string{"aten.*"},
			Exclude: []string{"aten.sym_*", "aten._local_scalar_dense.*", "aten.embedding*", "aten.gather.*", "aten.index*"},
		},
		Placeholders:  Placeholders{SymInt: Scalar, SymBool: Scalar, SymFloat: Scalar},
		DTypes:        DTypeList{ir.Float32, ir.Float16, ir.Int64, ir.Int32, ir.Bool},
		DynamicShapes: true, SingleNodePartitions: true, OwnsWeights: true,
	},
	{
		Name:        "static-shapes",
		Description: "an NPU that compiles fixed shapes: refuses tensors with dynamic dims and symbolic inputs",
		Ops: OpSet{
			Include: []string{"aten.*"},
			Exclude: []string{"aten.sym_*", "aten._local_scalar_dense.*"},
		},
		Placeholders:  Placeholders{SymInt: Refuse, SymBool: Refuse, SymFloat: Refuse},
		DynamicShapes: false, SingleNodePartitions: true, OwnsWeights: true,
	},
	{
		Name:        "matmul-only",
		Description: "a matrix engine: mm, addmm, bmm, linear, matmul and convolution only",
		Ops: OpSet{Include: []string{
			"aten.mm.*", "aten.addmm.*", "aten.bmm.*", "aten.linear.*", "aten.matmul.*", "aten.convolution.*",
		}},
		Placeholders:  Placeholders{SymInt: Refuse, SymBool: Refuse, SymFloat: Refuse},
		DTypes:        DTypeList{ir.Float32, ir.Float16, ir.BFloat16, ir.Int64},
		DynamicShapes: true, SingleNodePartitions: true, OwnsWeights: true,
	},
}

func init() {
	for _, p := range builtins {
		if err := p.compile(); err != nil {
			panic("backend: built-in profile " + p.Name + ": " + err.Error())
		}
	}
}

// Builtin returns a copy of the built-in profile with that name.
func Builtin(name string) (*Profile, bool) {
	for _, p := range builtins {
		if p.Name == name {
			c := *p
			c.Ops.Include = slices.Clone(p.Ops.Include)
			c.Ops.Exclude = slices.Clone(p.Ops.Exclude)
			c.DTypes = slices.Clone(p.DTypes)
			c.ExcludeNodes = slices.Clone(p.ExcludeNodes)
			c.PolicyOrder = slices.Clone(p.PolicyOrder)
			if err := c.compile(); err != nil {
				return nil, false
			}
			return &c, true
		}
	}
	return nil, false
}

// BuiltinNames lists the built-in profiles in the order `seam backends` shows them.
func BuiltinNames() []string {
	names := make([]string, len(builtins))
	for i, p := range builtins {
		names[i] = p.Name
	}
	return names
}

// AddBuiltin adds a built-in backend implemented in another package (its
// contract and its compiler); `seam backends` lists it after the profiles
// above. It is meant for init functions.
func AddBuiltin(p *Profile, c Compiler) error {
	if err := p.compile(); err != nil {
		return err
	}
	for _, b := range builtins {
		if b.Name == p.Name {
			return fmt.Errorf("built-in backend %s added twice", p.Name)
		}
	}
	builtins = append(builtins, p)
	Register(p.Name, c)
	return nil
}

package ir

import "fmt"

// benchChain is a chain of n relu nodes with the metadata export writes
// (internal/hostile's programs cannot be imported here).
func benchChain(n int) *Program {
	g := &Graph{Inputs: []Argument{TensorArg("x")}, TensorValues: map[string]*TensorMeta{}}
	meta := func() *TensorMeta {
		return &TensorMeta{DType: Float32, Sizes: []SymInt{IntSym(6), IntSym(8)}, Device: Device{Type: "cpu"},
			Strides: []SymInt{IntSym(8), IntSym(1)}, StorageOffset: IntSym(0), Layout: Strided}
	}
	g.TensorValues["x"] = meta()
	prev := "x"
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("relu_%d", i)
		g.Nodes = append(g.Nodes, &Node{Target: "torch.ops.aten.relu.default", Name: name,
			Inputs:  []NamedArgument{{Name: "self", Arg: TensorArg(prev), Kind: KindPositional}},
			Outputs: []Argument{TensorArg(name)},
			Metadata: MetadataOf(map[string]string{"stack_trace": "File \"model.py\", line 42, in forward\n    " + name + " = torch.relu(x)",
				"nn_module_stack": "L__self__,,__main__.Model", "torch_fn": name + "_1;builtin_function_or_method.relu"})})
		g.TensorValues[name] = meta()
		prev = name
	}
	g.Outputs = []Argument{TensorArg(prev)}
	return &Program{Graph: g, SchemaVersion: CurrentSchema,
		Signature: Signature{Inputs: []InputSpec{{Kind: InputUser, Arg: TensorArg("x")}}, Outputs: []OutputSpec{{Kind: OutputUser, Arg: TensorArg(prev)}}}}
}

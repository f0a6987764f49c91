package hostile

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// The programs below are valid: what makes them hostile is their size or
// depth. Their nodes carry metadata the size PyTorch writes, so the byte
// count per node is a real export's.

// batch is the symbolic batch size every generated input has.
const batch = "Symbol('s77', positive=True, integer=True)"

func tensorMeta(cols int64) *ir.TensorMeta {
	return &ir.TensorMeta{
		DType:         ir.Float32,
		Sizes:         []ir.SymInt{{Expr: &ir.SymExpr{Expr: batch, Hint: &ir.Hint{Kind: ir.HintInt, Int: 6}}}, ir.IntSym(cols)},
		Device:        ir.Device{Type: "cpu"},
		Strides:       []ir.SymInt{ir.IntSym(cols), ir.IntSym(1)},
		StorageOffset: ir.IntSym(0),
		Layout:        ir.Strided,
	}
}

// staticMeta is tensorMeta at batch 6.
func staticMeta(cols int64) *ir.TensorMeta {
	return &ir.TensorMeta{
		DType:         ir.Float32,
		Sizes:         []ir.SymInt{ir.IntSym(6), ir.IntSym(cols)},
		Device:        ir.Device{Type: "cpu"},
		Strides:       []ir.SymInt{ir.IntSym(cols), ir.IntSym(1)},
		StorageOffset: ir.IntSym(0),
		Layout:        ir.Strided,
	}
}

// metadata is what export records for a node: where it was traced from.
func metadata(name, target string) ir.Metadata {
	return ir.MetadataOf(map[string]string{
		"stack_trace":     fmt.Sprintf("File \"model.py\", line 42, in forward\n    %s = torch.%s(x)", name, target),
		"nn_module_stack": "L__self__,,__main__.Model",
		"torch_fn":        name + "_1;builtin_function_or_method." + target,
	})
}

func node(target, name string, inputs ...ir.NamedArgument) *ir.Node {
	short := strings.Split(strings.TrimPrefix(target, "torch.ops.aten."), ".")[0]
	return &ir.Node{
		Target:   target,
		Inputs:   inputs,
		Outputs:  []ir.Argument{ir.TensorArg(name)},
		Metadata: metadata(name, short),
		Name:     name,
	}
}

func pos(name string, a ir.Argument) ir.NamedArgument {
	return ir.NamedArgument{Name: name, Arg: a, Kind: ir.KindPositional}
}

// program wraps a graph whose one user input is x and one output its last value.
func program(g *ir.Graph) *ir.Program {
	out := g.Outputs[0]
	return &ir.Program{
		Graph: g,
		Signature: ir.Signature{
			Inputs:  []ir.InputSpec{{Kind: ir.InputUser, Arg: ir.TensorArg("x")}},
			Outputs: []ir.OutputSpec{{Kind: ir.OutputUser, Arg: out}},
		},
		ModuleCallGraph:  []ir.ModuleCallEntry{{FQN: ""}},
		OpsetVersion:     map[string]int64{"aten": 10},
		RangeConstraints: map[string]ir.RangeConstraint{"s77": {Min: ptr(int64(2)), Max: ptr(int64(64))}},
		SchemaVersion:    ir.CurrentSchema,
		Verifiers:        []string{"ATEN"},
		TorchVersion:     "2.11.0",
	}
}

func ptr[T any](v T) *T { return &v }

func newGraph() *ir.Graph {
	return &ir.Graph{
		Inputs:       []ir.Argument{ir.TensorArg("x")},
		TensorValues: map[string]*ir.TensorMeta{"x": tensorMeta(8)},
	}
}

// Chain is a program of n nodes, each taking the one before: relu, add of
// the two before, mul by a float, view to its own shape, in turn. Its
// tensors have a symbolic batch size unless static (about 770 bytes of
// JSON a node, 600 static).
func Chain(n int, static bool) *ir.Program {
	g := newGraph()
	meta := tensorMeta
	if static {
		meta = staticMeta
		g.TensorValues["x"] = meta(8)
	}
	prev, prev2 := "x", "x"
	for i := 0; i < n; i++ {
		var nd *ir.Node
		switch i % 4 {
		case 0:
			nd = node("torch.ops.aten.relu.default", fmt.Sprintf("relu_%d", i), pos("self", ir.TensorArg(prev)))
		case 1:
			nd = node("torch.ops.aten.add.Tensor", fmt.Sprintf("add_%d", i), pos("self", ir.TensorArg(prev)), pos("other", ir.TensorArg(prev2)))
		case 2:
			nd = node("torch.ops.aten.mul.Tensor", fmt.Sprintf("mul_%d", i), pos("self", ir.TensorArg(prev)), pos("other", ir.FloatArg(0.5)))
		case 3:
			nd = node("torch.ops.aten.view.default", fmt.Sprintf("view_%d", i), pos("self", ir.TensorArg(prev)), pos("size", ir.IntsArg([]int64{-1, 8})))
		}
		g.Nodes = append(g.Nodes, nd)
		g.TensorValues[nd.Name] = meta(8)
		prev2, prev = prev, nd.Name
	}
	g.Outputs = []ir.Argument{ir.TensorArg(prev)}
	return program(g)
}

// UnusedValues is a one-node program whose graph also describes n tensor
// values no node defines or uses.
func UnusedValues(n int) *ir.Program {
	g := newGraph()
	nd := node("torch.ops.aten.relu.default", "relu", pos("self", ir.TensorArg("x")))
	g.Nodes = []*ir.Node{nd}
	g.TensorValues["relu"] = tensorMeta(8)
	for i := 0; i < n; i++ {
		g.TensorValues[fmt.Sprintf("unused_%d", i)] = tensorMeta(8)
	}
	g.Outputs = []ir.Argument{ir.TensorArg("relu")}
	return program(g)
}

// NestedCond is a program of depth conds, each the true branch of the one
// above: x.shape[0] > 4 picks sin(x) at the bottom, cos(x) at every level.
func NestedCond(depth int) *ir.Program {
	return program(condLevel(depth))
}

func condLevel(level int) *ir.Graph {
	g := newGraph()
	if level == 0 {
		sin := node("torch.ops.aten.sin.default", "sin", pos("self", ir.TensorArg("x")))
		g.Nodes = []*ir.Node{sin}
		g.TensorValues["sin"] = tensorMeta(8)
		g.Outputs = []ir.Argument{ir.TensorArg("sin")}
		return g
	}
	size := &ir.Node{
		Target:   "torch.ops.aten.sym_size.int",
		Inputs:   []ir.NamedArgument{pos("self", ir.TensorArg("x")), pos("dim", ir.IntArg(0))},
		Outputs:  []ir.Argument{ir.SymIntRef("sym_size_int")},
		Metadata: metadata("sym_size_int", "sym_size"),
		Name:     "sym_size_int",
	}
	gt := &ir.Node{
		Target:   "_operator.gt",
		Inputs:   []ir.NamedArgument{pos("a", ir.SymIntRef("sym_size_int")), pos("b", ir.IntArg(4))},
		Outputs:  []ir.Argument{ir.SymBoolRef("gt")},
		Metadata: metadata("gt", "gt"),
		Name:     "gt",
	}
	cos := newGraph()
	cos.Nodes = []*ir.Node{node("torch.ops.aten.cos.default", "cos", pos("self", ir.TensorArg("x")))}
	cos.TensorValues["cos"] = tensorMeta(8)
	cos.Outputs = []ir.Argument{ir.TensorArg("cos")}
	single := false
	cond := &ir.Node{
		Target: "torch.ops.higher_order.cond",
		Inputs: []ir.NamedArgument{
			pos("", ir.SymBoolRef("gt")),
			pos("", ir.GraphArg(&ir.GraphArgument{Name: "true_graph_0", Graph: condLevel(level - 1)})),
			pos("", ir.GraphArg(&ir.GraphArgument{Name: "false_graph_0", Graph: cos})),
			pos("", ir.TensorsArg("x")),
		},
		Outputs:                 []ir.Argument{ir.TensorArg("getitem")},
		Metadata:                metadata("cond", "cond"),
		IsHOPSingleTensorReturn: &single,
		Name:                    "cond",
	}
	g.Nodes = []*ir.Node{size, gt, cond}
	g.SymIntValues = map[string]ir.SymInt{"sym_size_int": {Expr: &ir.SymExpr{Expr: batch}}}
	g.SymBoolValues = map[string]ir.SymBool{"gt": {Expr: &ir.SymExpr{Expr: "StrictGreaterThan(" + batch + ", Integer(4))"}}}
	g.TensorValues["getitem"] = tensorMeta(8)
	g.Outputs = []ir.Argument{ir.TensorArg("getitem")}
	return g
}

// Archive writes p as a .pt2 file's bytes.
func Archive(p *ir.Program) ([]byte, error) {
	var buf bytes.Buffer
	if err := pt2.Write(&buf, pt2.NewArchive(map[string]*ir.Program{pt2.MainModel: p}), "model"); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Scale is a valid program large or deep enough to show quadratic work.
type Scale struct {
	Name    string
	Program func() *ir.Program
}

// Scales are the programs the issue measured: a 200,000-node chain, a
// 64,000-node program, 300,000 unused tensor values, and conds nested
// 300 and 1,000 deep.
func Scales() []Scale {
	return []Scale{
		{"chain_200000", func() *ir.Program { return Chain(200000, false) }},
		{"chain_64000", func() *ir.Program { return Chain(64000, true) }},
		{"unused_300000", func() *ir.Program { return UnusedValues(300000) }},
		{"nested_cond_300", func() *ir.Program { return NestedCond(300) }},
		{"nested_cond_1000", func() *ir.Program { return NestedCond(1000) }},
	}
}

package batch

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
)

// prog writes small programs of f32 values with named arguments.
type prog struct {
	g   *ir.Graph
	sig ir.Signature
}

func newProg() *prog { return &prog{g: &ir.Graph{TensorValues: map[string]*ir.TensorMeta{}}} }

func (b *prog) meta(name string, sizes ...int64) {
	m := &ir.TensorMeta{DType: ir.Float32}
	for _, s := range sizes {
		m.Sizes = append(m.Sizes, ir.IntSym(s))
	}
	b.g.TensorValues[name] = m
}

func (b *prog) input(kind ir.InputKind, name string, sizes ...int64) {
	b.meta(name, sizes...)
	b.g.Inputs = append(b.g.Inputs, ir.TensorArg(name))
	b.sig.Inputs = append(b.sig.Inputs, ir.InputSpec{Kind: kind, Arg: ir.TensorArg(name), Target: name})
}

// node adds out = target(args): "name=value" pairs, where a value is a
// defined value's name, an int, a list of ints ([1,2]) or none.
func (b *prog) node(out, target string, sizes []int64, args ...string) *ir.Node {
	n := &ir.Node{Name: out, Target: "torch.ops." + target, Outputs: []ir.Argument{ir.TensorArg(out)}}
	for _, a := range args {
		name, v, _ := strings.Cut(a, "=")
		var arg ir.Argument
		switch {
		case v == "none":
			arg = ir.NoneArg()
		case strings.HasPrefix(v, "["):
			var ints []int64
			for _, f := range strings.Split(strings.Trim(v, "[]"), ",") {
				if f != "" {
					ints = append(ints, atoi(f))
				}
			}
			arg = ir.IntsArg(ints)
		case v != "" && (v[0] == '-' || v[0] >= '0' && v[0] <= '9'):
			arg = ir.IntArg(atoi(v))
		default:
			arg = ir.TensorArg(v)
		}
		n.Inputs = append(n.Inputs, ir.NamedArgument{Name: name, Arg: arg, Kind: ir.KindPositional})
	}
	b.g.Nodes = append(b.g.Nodes, n)
	b.meta(out, sizes...)
	return n
}

func atoi(s string) int64 {
	var v, sign int64 = 0, 1
	for i, c := range strings.TrimSpace(s) {
		if i == 0 && c == '-' {
			sign = -1
			continue
		}
		v = v*10 + int64(c-'0')
	}
	return sign * v
}

func (b *prog) output(name string) {
	b.g.Outputs = append(b.g.Outputs, ir.TensorArg(name))
	b.sig.Outputs = append(b.sig.Outputs, ir.OutputSpec{Kind: ir.OutputUser, Arg: ir.TensorArg(name)})
}

func (b *prog) program() *ir.Program { return &ir.Program{Graph: b.g, Signature: b.sig} }

// base is x: f32[4, 3, 8, 8] through a convolution and a mean over the
// planes to y: f32[4, 6].
func base() *prog {
	b := newProg()
	b.input(ir.InputUser, "x", 4, 3, 8, 8)
	b.input(ir.InputParameter, "w", 6, 3, 3, 3)
	b.input(ir.InputParameter, "bias", 6)
	b.node("c", "aten.convolution.default", []int64{4, 6, 8, 8}, "input=x", "weight=w", "bias=bias", "stride=[1,1]", "padding=[1,1]", "dilation=[1,1]", "transposed=0", "output_padding=[0,0]", "groups=1")
	b.node("m", "aten.mean.dim", []int64{4, 6, 1, 1}, "self=c", "dim=[-1,-2]", "keepdim=1")
	b.node("y", "aten.view.default", []int64{4, 6}, "self=m", "size=[4,6]")
	return b
}

// square adds a batched q: f32[4, 4], whose dims a wrong rule could
// swap without changing its shape.
func square(b *prog) string {
	b.input(ir.InputParameter, "sq", 6, 4)
	b.node("q", "aten.mm.default", []int64{4, 4}, "self=y", "mat2=sq")
	return "q"
}

// Each pattern either keeps samples apart, or is refused with a reason
// naming the node.
func TestFindRules(t *testing.T) {
	for _, c := range []struct {
		name   string
		build  func(b *prog) string // adds nodes after base, returns the output
		refuse string               // "" keeps the split; else the node that refuses it
	}{
		{"base", func(b *prog) string { return "y" }, ""},
		{"linear head", func(b *prog) string {
			b.input(ir.InputParameter, "fc", 5, 6)
			b.input(ir.InputParameter, "fcb", 5)
			b.node("t", "aten.permute.default", []int64{6, 5}, "self=fc", "dims=[1,0]")
			b.node("z", "aten.addmm.default", []int64{4, 5}, "self=fcb", "mat1=y", "mat2=t")
			return "z"
		}, ""},
		{"shared broadcast operand", func(b *prog) string {
			b.input(ir.InputParameter, "s", 1, 6)
			b.node("z", "aten.add.Tensor", []int64{4, 6}, "self=y", "other=s")
			return "z"
		}, ""},
		{"softmax over features", func(b *prog) string {
			b.node("z", "aten._softmax.default", []int64{4, 6}, "self=y", "dim=-1", "half_to_float=0")
			return "z"
		}, ""},
		{"softmax over the batch", func(b *prog) string {
			b.node("z", "aten._softmax.default", []int64{4, 6}, "self=y", "dim=0", "half_to_float=0")
			return "z"
		}, "z"},
		{"mean over the batch", func(b *prog) string {
			b.node("z", "aten.mean.dim", []int64{1, 6}, "self=y", "dim=[0]", "keepdim=1")
			return "z"
		}, "z"},
		{"sum of everything", func(b *prog) string {
			b.node("z", "aten.sum.dim_IntList", []int64{}, "self=y", "dim=none")
			return "z"
		}, "z"},
		{"view merging the batch into rows", func(b *prog) string {
			b.node("z", "aten.view.default", []int64{12, 2}, "self=y", "size=[12,2]")
			return "z"
		}, ""},
		{"view cutting samples apart", func(b *prog) string {
			b.node("z", "aten.view.default", []int64{3, 8}, "self=y", "size=[3,8]")
			return "z"
		}, "z"},
		{"view moving the batch", func(b *prog) string {
			b.node("z", "aten.view.default", []int64{2, 12}, "self=y", "size=[2,12]")
			return "z"
		}, "z"},
		{"transpose of the batch", func(b *prog) string {
			b.node("z", "aten.transpose.int", []int64{4, 4}, "self="+square(b), "dim0=-1", "dim1=0")
			return "z"
		}, "-"},
		{"permute of the batch", func(b *prog) string {
			b.node("z", "aten.permute.default", []int64{4, 4}, "self="+square(b), "dims=[1,0]")
			return "z"
		}, "-"},
		{"softmax of a permuted batch", func(b *prog) string {
			b.node("p", "aten.permute.default", []int64{4, 4}, "self="+square(b), "dims=[1,0]")
			b.node("z", "aten._softmax.default", []int64{4, 4}, "self=p", "dim=-1", "half_to_float=0")
			return "z"
		}, "z"},
		{"permuted and selected back", func(b *prog) string {
			// attention's qkv: [4, 2, 3] to [2, 4, 3], one of the 2 taken
			b.node("r", "aten.view.default", []int64{4, 2, 3}, "self=y", "size=[4,2,3]")
			b.node("p", "aten.permute.default", []int64{2, 4, 3}, "self=r", "dims=[1,0,2]")
			b.node("z", "aten.select.int", []int64{4, 3}, "self=p", "dim=0", "index=1")
			return "z"
		}, ""},
		{"selected along the permuted batch", func(b *prog) string {
			b.node("r", "aten.view.default", []int64{4, 2, 3}, "self=y", "size=[4,2,3]")
			b.node("p", "aten.permute.default", []int64{2, 4, 3}, "self=r", "dims=[1,0,2]")
			b.node("z", "aten.select.int", []int64{2, 3}, "self=p", "dim=1", "index=1")
			return "z"
		}, "z"},
		{"expand in front of the batch", func(b *prog) string {
			b.node("z", "aten.expand.default", []int64{4, 4, 4}, "self="+square(b), "size=[4,4,4]")
			return "z"
		}, "z"},
		{"unsqueeze in front of the batch", func(b *prog) string {
			b.node("z", "aten.unsqueeze.default", []int64{1, 4, 6}, "self=y", "dim=0")
			return "z"
		}, "-"},
		{"unsqueeze after the batch", func(b *prog) string {
			b.node("z", "aten.unsqueeze.default", []int64{4, 1, 6}, "self=y", "dim=-2")
			return "z"
		}, ""},
		{"operand spanning the batch", func(b *prog) string {
			b.input(ir.InputParameter, "s", 4, 6)
			b.node("z", "aten.add.Tensor", []int64{4, 6}, "self=y", "other=s")
			return "z"
		}, "z"},
		{"bias spanning the rows", func(b *prog) string {
			b.input(ir.InputParameter, "fc", 6, 5)
			b.input(ir.InputParameter, "fcb", 4, 5)
			b.node("z", "aten.addmm.default", []int64{4, 5}, "self=fcb", "mat1=y", "mat2=fc")
			return "z"
		}, "z"},
		{"batch as the right operand", func(b *prog) string {
			b.input(ir.InputParameter, "l", 5, 4)
			b.node("z", "aten.mm.default", []int64{5, 6}, "self=l", "mat2=y")
			return "z"
		}, "z"},
		{"flatten from dim 0", func(b *prog) string {
			b.node("z", "aten.flatten.using_ints", []int64{24}, "self=y")
			return "z"
		}, "z"},
		{"cat along the batch", func(b *prog) string {
			n := b.node("z", "aten.cat.default", []int64{8, 6}, "dim=0")
			n.Inputs = append([]ir.NamedArgument{{Name: "tensors", Arg: ir.TensorsArg("y", "y")}}, n.Inputs...)
			return "z"
		}, "z"},
		{"attention over heads", func(b *prog) string {
			b.node("r", "aten.view.default", []int64{4, 2, 3}, "self=y", "size=[4,2,3]")
			b.node("z", "aten.scaled_dot_product_attention.default", []int64{4, 2, 3}, "query=r", "key=r", "value=r")
			return "z"
		}, ""},
		{"attention across the batch", func(b *prog) string {
			// q of [4, 6]: attention mixes its rows, the samples
			b.node("z", "aten.scaled_dot_product_attention.default", []int64{4, 6}, "query=y", "key=y", "value=y")
			return "z"
		}, "z"},
		{"attention along a permuted batch", func(b *prog) string {
			b.node("r", "aten.view.default", []int64{4, 2, 3}, "self=y", "size=[4,2,3]")
			b.node("p", "aten.permute.default", []int64{2, 4, 3}, "self=r", "dims=[1,0,2]")
			b.node("z", "aten.scaled_dot_product_attention.default", []int64{2, 4, 3}, "query=p", "key=p", "value=p")
			return "z"
		}, "z"},
		{"unknown op", func(b *prog) string {
			b.node("z", "aten.index_select.default", []int64{4, 6}, "self=y", "dim=1", "index=y")
			return "z"
		}, "z"},
		{"shared output", func(b *prog) string {
			b.output("w")
			return "y"
		}, "-"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := base()
			b.output(c.build(b))
			s, err := Find(b.program())
			if c.refuse == "" {
				if err != nil {
					t.Fatal(err)
				}
				if s.N != 4 || len(s.Inputs) != 1 || !s.Inputs[0] {
					t.Fatalf("split N=%d inputs %v, want 4 [true]", s.N, s.Inputs)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want a refusal", err)
			}
			if c.refuse != "-" && e.Node != c.refuse {
				t.Fatalf("refused at node %q (%v), want %q", e.Node, err, c.refuse)
			}
		})
	}
}

// A value that only an op's batch-dependent outputs feed (batch norm's
// saved statistics) cannot be read; programs without a static batch, or
// with state, do not split.
func TestFindRefuses(t *testing.T) {
	b := base()
	n := b.node("bn", "aten._native_batch_norm_legit_no_training.default", []int64{4, 6, 8, 8}, "input=c", "weight=bias", "bias=bias", "running_mean=bias", "running_var=bias", "momentum=0", "eps=0")
	n.Outputs = append(n.Outputs, ir.TensorArg("saved"))
	b.meta("saved", 0)
	b.node("z", "aten.add.Tensor", []int64{4, 6, 8, 8}, "self=bn", "other=saved")
	b.output("z")
	if _, err := Find(b.program()); err == nil || !strings.Contains(err.Error(), "saved") {
		t.Errorf("reading batch norm's statistics: %v", err)
	}

	b = base()
	b.output("y")
	b.g.TensorValues["x"].Sizes[0] = ir.ExprSym("s0")
	if _, err := Find(b.program()); err == nil || !strings.Contains(err.Error(), "symbolic") {
		t.Errorf("a symbolic batch: %v", err)
	}

	b = base()
	b.output("y")
	b.g.TensorValues["x"].Sizes[0] = ir.IntSym(1)
	if _, err := Find(b.program()); err == nil {
		t.Error("a batch of one split")
	}

	b = base()
	b.output("y")
	b.sig.Outputs = append(b.sig.Outputs, ir.OutputSpec{Kind: ir.OutputBufferMutation, Arg: ir.TensorArg("y"), Target: "state"})
	if _, err := Find(b.program()); err == nil || !strings.Contains(err.Error(), "buffer_mutation") {
		t.Errorf("a buffer mutation: %v", err)
	}

	b = base()
	b.output("y")
	m := b.g.TensorValues["c"]
	m.Strides = []ir.SymInt{ir.IntSym(1), ir.IntSym(256), ir.IntSym(32), ir.IntSym(4)} // batch innermost
	if _, err := Find(b.program()); err == nil || !strings.Contains(err.Error(), "outermost") {
		t.Errorf("a batch that is not the outermost dim: %v", err)
	}
}

// Program(n) rewrites every batched value's dim 0 and the view sizes
// that name the batch, and nothing else; the program Find read stays.
func TestProgramRewrites(t *testing.T) {
	b := base()
	b.node("rows", "aten.view.default", []int64{12, 2}, "self=y", "size=[12,2]") // 3 rows a sample
	b.output("rows")
	p := b.program()
	s, err := Find(p)
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.Program(3)
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Graph.TensorValues["rows"].Sizes[0].Int; got != 9 {
		t.Errorf("rows: dim 0 is %d, want 9", got)
	}
	if got := q.Graph.Nodes[3].Inputs[1].Arg.Ints; got[0] != 9 || got[1] != 2 {
		t.Errorf("the second view's size is %v, want [9 2]", got)
	}
	for _, name := range []string{"x", "c", "m", "y"} {
		if got := q.Graph.TensorValues[name].Sizes[0].Int; got != 3 {
			t.Errorf("%s: dim 0 is %d, want 3", name, got)
		}
		if got := p.Graph.TensorValues[name].Sizes[0].Int; got != 4 {
			t.Errorf("the original's %s changed: dim 0 is %d", name, got)
		}
	}
	if got := q.Graph.TensorValues["w"].Sizes[0].Int; got != 6 {
		t.Errorf("the weight's dim 0 is %d, want 6", got)
	}
	if got := q.Graph.Nodes[2].Inputs[1].Arg.Ints; got[0] != 3 || got[1] != 6 {
		t.Errorf("the view's size is %v, want [3 6]", got)
	}
	if got := p.Graph.Nodes[2].Inputs[1].Arg.Ints; got[0] != 4 {
		t.Errorf("the original view's size changed: %v", got)
	}
	for _, n := range []int64{0, 5} {
		if _, err := s.Program(n); err == nil {
			t.Errorf("Program(%d) of a batch of 4: no error", n)
		}
	}
}

// The fixtures: the conv nets and the ViT (its class token expanded to
// every sample, attention's heads merged with the batch) at a static
// batch split; the transformers at batch 1 and the programs with a
// symbolic batch do not.
func TestFindFixtures(t *testing.T) {
	for _, c := range []struct {
		model  string
		n      int64
		refuse string
	}{
		{"mobilenet_tiny_b8", 8, ""},
		{"mobilenet_tiny", 3, ""},
		{"vit_tiny", 2, ""},
		{"llama_tiny", 0, "static dim 0"},
		{"shift2d", 0, "symbolic dim 0"},
	} {
		p := fixtures.Load(t, filepath.Join(fixtures.ExtraDir(c.model), "model.pt2"))
		s, err := Find(p)
		if c.refuse == "" {
			if err != nil || s.N != c.n {
				t.Errorf("%s: %v", c.model, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.refuse) {
			t.Errorf("%s: got %v, want a refusal naming %q", c.model, err, c.refuse)
		}
	}
	p := fixtures.Load(t, fixtures.Model("gpt2_tiny"))
	if _, err := Find(p); err == nil {
		t.Error("gpt2_tiny (batch 1) split")
	}
}

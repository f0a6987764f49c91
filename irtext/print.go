package irtext

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/termsafe"
)

// Printer prints programs and graphs. Expr turns a symbolic expression as
// stored (SymPy srepr text) into the form annotations show (`s53`,
// `s77 > 4`); nil prints it as SymPy's str() does (package sym), or as
// stored when it does not parse.
type Printer struct {
	Expr func(stored string) string
	// Source prints the comments print_readable() puts above nodes: the
	// line of Python each node came from (`# File: ...`), from the stack
	// traces export keeps in node metadata.
	Source bool
}

// FormatExpr prints a stored expression as SymPy's str() does.
func FormatExpr(stored string) string {
	if e, err := sym.Parse(stored); err == nil {
		return e.String()
	}
	return stored
}

// Fprint prints the program as class GraphModule.
func (pr *Printer) Fprint(w io.Writer, p *ir.Program) error {
	return pr.FprintClass(w, "GraphModule", p)
}

// FprintClass prints the program as a class of the given name (a lowered
// module is printed under its own name). Names are the program's own, so
// whatever in them a terminal would act on (ESC, BEL, CR, bidirectional
// overrides) is printed escaped (package termsafe).
func (pr *Printer) FprintClass(w io.Writer, class string, p *ir.Program) error {
	tw := termsafe.NewWriter(w)
	bw := bufio.NewWriter(tw)
	pr.graph(bw, class, p.Graph, p.Signature.Inputs, 0)
	if err := bw.Flush(); err != nil {
		return err
	}
	return tw.Flush()
}

// Sprint returns the printed program.
func (pr *Printer) Sprint(p *ir.Program) string {
	var sb strings.Builder
	_ = pr.Fprint(&sb, p)
	return sb.String()
}

func (pr *Printer) graph(w *bufio.Writer, class string, g *ir.Graph, specs []ir.InputSpec, depth int) {
	ind := strings.Repeat("    ", depth)
	fmt.Fprintf(w, "%sclass %s(torch.nn.Module):\n", ind, class)
	fmt.Fprintf(w, "%s    def forward(self", ind)
	for i := range g.Inputs {
		name, ann := pr.placeholder(g, &g.Inputs[i], specs, i)
		if ann != "" {
			fmt.Fprintf(w, ", %s: %q", name, ann)
		} else {
			fmt.Fprintf(w, ", %s", name)
		}
	}
	w.WriteString("):\n")
	body := ind + "        "
	var nested []*ir.GraphArgument
	source := ""
	for i, n := range g.Nodes {
		if pr.Source {
			// FX writes the comment each time it changes, after a blank
			// line except at the top of the body.
			if c := sourceComment(n); c != source {
				if i > 0 {
					w.WriteString("\n")
				}
				w.WriteString(body + c + "\n")
				source = c
			}
		}
		for _, sub := range n.SubGraphs() {
			fmt.Fprintf(w, "%s%s = self.%s\n", body, sub.Name, sub.Name)
			nested = append(nested, sub)
		}
		if mod, ok := n.DelegateModule(); ok {
			fmt.Fprintf(w, "%s%s = self.%s\n", body, mod, mod)
		}
		pr.node(w, body, g, n)
	}
	w.WriteString(body + "return ")
	outs := make([]string, len(g.Outputs))
	for i := range g.Outputs {
		outs[i] = pr.arg(&g.Outputs[i], false)
	}
	if g.IsSingleTensorReturn && len(outs) == 1 {
		w.WriteString(outs[0])
	} else {
		w.WriteString(tuple(outs))
	}
	w.WriteString("\n")
	for _, sub := range nested {
		w.WriteString("\n")
		pr.graph(w, sub.Name, sub.Graph, nil, depth+1)
	}
}

func (pr *Printer) placeholder(g *ir.Graph, in *ir.Argument, specs []ir.InputSpec, i int) (name, ann string) {
	switch in.Kind {
	case ir.ArgTensor, ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool, ir.ArgCustomObj, ir.ArgToken:
		if in.Name != "" {
			return in.Name, pr.annotation(g, in.Name)
		}
	}
	// A constant input has no placeholder value; FX names it after its spec.
	if i < len(specs) && specs[i].Name != "" {
		return specs[i].Name, ""
	}
	return pr.arg(in, false), ""
}

// Annotation is the type annotation print_readable() gives a value:
// `f32[1, s53, 64]` for a tensor, `Sym(s53)` for a symbolic scalar, "" when
// the graph has no metadata for it.
func (pr *Printer) Annotation(g *ir.Graph, name string) string { return pr.annotation(g, name) }

func (pr *Printer) annotation(g *ir.Graph, name string) string {
	if m, ok := g.TensorValues[name]; ok && m != nil {
		return pr.TensorAnnotation(m)
	}
	if s, ok := g.SymIntValues[name]; ok {
		if s.Expr != nil {
			return "Sym(" + pr.expr(s.Expr.Expr) + ")"
		}
		return "Sym(" + strconv.FormatInt(s.Int, 10) + ")"
	}
	if s, ok := g.SymFloatValues[name]; ok {
		if s.Expr != nil {
			return "Sym(" + pr.expr(s.Expr.Expr) + ")"
		}
		return "Sym(" + ir.FormatPyFloat(s.Float) + ")"
	}
	if s, ok := g.SymBoolValues[name]; ok {
		if s.Expr != nil {
			return "Sym(" + pr.expr(s.Expr.Expr) + ")"
		}
		return "Sym(" + pyBool(s.Bool) + ")"
	}
	return ""
}

// TensorAnnotation prints `f32[1, s53, 64]`.
func (pr *Printer) TensorAnnotation(m *ir.TensorMeta) string {
	var sb strings.Builder
	sb.WriteString(m.DType.Short())
	sb.WriteByte('[')
	for i, s := range m.Sizes {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(pr.SymInt(s))
	}
	sb.WriteByte(']')
	return sb.String()
}

// SymInt prints a size: its value or its expression.
func (pr *Printer) SymInt(s ir.SymInt) string {
	if s.Expr != nil {
		return pr.expr(s.Expr.Expr)
	}
	return strconv.FormatInt(s.Int, 10)
}

func (pr *Printer) expr(stored string) string {
	if pr.Expr == nil {
		return FormatExpr(stored)
	}
	return pr.Expr(stored)
}

func (pr *Printer) node(w *bufio.Writer, ind string, g *ir.Graph, n *ir.Node) {
	call := pr.call(n)
	if name, ok := singleOutput(n); ok {
		w.WriteString(ind + n.Name)
		if ann := pr.annotation(g, name); ann != "" {
			fmt.Fprintf(w, ": %q", ann)
		}
		w.WriteString(" = " + call + "\n")
		return
	}
	// Several results: FX binds the call to the node's name and takes each
	// used result out with getitem.
	w.WriteString(ind + n.Name + " = " + call + "\n")
	for i, name := range usedResults(n) {
		if name == "" {
			continue
		}
		fmt.Fprintf(w, "%s%s", ind, name)
		if ann := pr.annotation(g, name); ann != "" {
			fmt.Fprintf(w, ": %q", ann)
		}
		fmt.Fprintf(w, " = %s[%d]\n", n.Name, i)
	}
}

// singleOutput reports whether the node returns one value (not a tuple or
// list), and its name.
func singleOutput(n *ir.Node) (string, bool) {
	if len(n.Outputs) != 1 || isHOP(n) && (n.IsHOPSingleTensorReturn == nil || !*n.IsHOPSingleTensorReturn) {
		return "", false
	}
	o := &n.Outputs[0]
	switch o.Kind {
	case ir.ArgTensor, ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool, ir.ArgCustomObj:
		return o.Name, true
	case ir.ArgNone:
		return "", true
	}
	return "", false
}

// usedResults lists the names of a multi-result node's results by index,
// "" for results nothing used (serialized as <node>_unused_<i>).
func usedResults(n *ir.Node) []string {
	var names []string
	add := func(a *ir.Argument) {
		name := a.Name
		if strings.HasPrefix(name, n.Name+"_unused_") || a.Kind == ir.ArgNone {
			name = ""
		}
		names = append(names, name)
	}
	if len(n.Outputs) == 1 && n.Outputs[0].Kind == ir.ArgTensors {
		for i := range n.Outputs[0].List {
			add(&n.Outputs[0].List[i])
		}
		return names
	}
	for i := range n.Outputs {
		add(&n.Outputs[i])
	}
	return names
}

func isHOP(n *ir.Node) bool { return strings.HasPrefix(n.Target, "torch.ops.higher_order.") }

// infix is FX's magic_methods: _operator functions printed as operators.
var infix = map[string]string{
	"add": "%s + %s", "sub": "%s - %s", "mul": "%s * %s", "floordiv": "%s // %s",
	"truediv": "%s / %s", "div": "%s / %s", "mod": "%s %% %s", "pow": "%s ** %s",
	"lshift": "%s << %s", "rshift": "%s >> %s", "and_": "%s & %s", "or_": "%s | %s",
	"xor": "%s ^ %s", "getitem": "%s[%s]", "matmul": "%s @ %s",
	"eq": "%s == %s", "ne": "%s != %s", "lt": "%s < %s", "gt": "%s > %s", "le": "%s <= %s", "ge": "%s >= %s",
	"pos": "+%s", "neg": "-%s", "invert": "~%s",
}

func (pr *Printer) call(n *ir.Node) string {
	hop := isHOP(n)
	mod, delegate := n.DelegateModule()
	var pos, kw []string
	for i := range n.Inputs {
		in := &n.Inputs[i]
		v := pr.arg(&in.Arg, hop)
		if delegate && i == 0 {
			v = mod // the module itself, bound by `mod = self.mod`
		}
		if in.Kind == ir.KindKeyword && in.Name != "" {
			kw = append(kw, in.Name+" = "+v)
		} else {
			pos = append(pos, v)
		}
	}
	if op, ok := strings.CutPrefix(n.Target, "_operator."); ok && len(kw) == 0 {
		if f, ok := infix[op]; ok && strings.Count(f, "%s") == len(pos) {
			args := make([]any, len(pos))
			for i, p := range pos {
				args[i] = p
			}
			return fmt.Sprintf(f, args...)
		}
	}
	return n.Target + "(" + strings.Join(append(pos, kw...), ", ") + ")"
}

// arg prints an argument as Python's repr would show the value FX holds.
// Inside higher-order ops, tensor lists were tuples.
func (pr *Printer) arg(a *ir.Argument, hop bool) string {
	switch a.Kind {
	case ir.ArgNone:
		return "None"
	case ir.ArgTensor, ir.ArgCustomObj, ir.ArgToken:
		return a.Name
	case ir.ArgInt:
		return strconv.FormatInt(a.Int, 10)
	case ir.ArgFloat:
		return ir.FormatPyFloat(a.Float)
	case ir.ArgBool:
		return pyBool(a.Bool)
	case ir.ArgString:
		return sym.PyRepr(a.Str)
	case ir.ArgOperator:
		return a.Str
	case ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool, ir.ArgOptionalTensor:
		if a.Name != "" {
			return a.Name
		}
		switch a.Kind {
		case ir.ArgSymInt:
			return strconv.FormatInt(a.Int, 10)
		case ir.ArgSymFloat:
			return ir.FormatPyFloat(a.Float)
		case ir.ArgSymBool:
			return pyBool(a.Bool)
		}
		return "None"
	case ir.ArgScalarType:
		return ir.ScalarType(a.Int).Torch()
	case ir.ArgMemoryFormat:
		return ir.MemoryFormat(a.Int).String()
	case ir.ArgLayout:
		return ir.Layout(a.Int).String()
	case ir.ArgDevice:
		if a.Device() == nil {
			return "None"
		}
		return a.Device().String()
	case ir.ArgComplex:
		return pyComplex(a.Complex())
	case ir.ArgGraph:
		if a.Graph() == nil {
			return "None"
		}
		return a.Graph().Name
	case ir.ArgInts:
		return list(mapStr(a.Ints, func(v int64) string { return strconv.FormatInt(v, 10) }))
	case ir.ArgFloats:
		return list(mapStr(a.Floats(), ir.FormatPyFloat))
	case ir.ArgBools:
		return list(mapStr(a.Bools(), pyBool))
	case ir.ArgStrings:
		return list(mapStr(a.Strings(), sym.PyRepr))
	case ir.ArgTensors, ir.ArgSymInts, ir.ArgSymFloats, ir.ArgSymBools, ir.ArgOptionalTensors:
		items := make([]string, len(a.List))
		for i := range a.List {
			items[i] = pr.arg(&a.List[i], hop)
		}
		if hop && a.Kind == ir.ArgTensors {
			return tuple(items)
		}
		return list(items)
	case ir.ArgIntLists:
		return list(mapStr(a.IntLists(), func(l []int64) string {
			return list(mapStr(l, func(v int64) string { return strconv.FormatInt(v, 10) }))
		}))
	case ir.ArgNestedTensors:
		return list(mapStr(a.Nested(), func(l []string) string { return list(l) }))
	case ir.ArgStringToArgument:
		keys := ir.SortedKeys(a.Map())
		items := make([]string, len(keys))
		for i, k := range keys {
			v := a.Map()[k]
			items[i] = sym.PyRepr(k) + ": " + pr.arg(&v, hop)
		}
		return "{" + strings.Join(items, ", ") + "}"
	}
	return "<" + a.Kind.String() + ">"
}

func mapStr[T any](xs []T, f func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func list(items []string) string { return "[" + strings.Join(items, ", ") + "]" }

func tuple(items []string) string {
	if len(items) == 1 {
		return "(" + items[0] + ",)"
	}
	return "(" + strings.Join(items, ", ") + ")"
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func pyComplex(c complex128) string {
	r, i := real(c), imag(c)
	im := ir.FormatPyFloat(i)
	im = strings.TrimSuffix(im, ".0")
	if r == 0 {
		return im + "j"
	}
	sign := "+"
	if i < 0 || strings.HasPrefix(im, "-") {
		sign = ""
	}
	return "(" + strings.TrimSuffix(ir.FormatPyFloat(r), ".0") + sign + im + "j)"
}

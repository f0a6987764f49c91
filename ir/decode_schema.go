package ir

import (
	"fmt"

	"github.com/seam-rt/seam/limits"
)

// Decoding of each schema type. Missing fields take the schema's
// defaults, unknown keys of plain structs are skipped, unknown union
// members are errors (PyTorch's loader refuses them too), and a key given
// twice takes its last value, as Python's json.loads does.

func (d *decoder) program(p *Program) {
	var torchVersion *string
	hasSchema := false
	if !d.openObject(false) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "graph_module":
			d.graphModule(p)
		case "opset_version":
			p.OpsetVersion = d.intMap()
		case "range_constraints":
			p.RangeConstraints = decodeTable(d, value((*decoder).rangeConstraint))
		case "schema_version":
			hasSchema = !d.null()
			if hasSchema {
				d.schemaVersion(&p.SchemaVersion)
			}
		case "verifiers":
			p.Verifiers = d.strings(false)
		case "torch_version":
			torchVersion = nil
			if !d.null() {
				v := d.text()
				torchVersion = &v
			}
		case "guards_code":
			p.GuardsCode = d.strings(false)
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
	if d.err != nil {
		return
	}
	if p.Graph == nil {
		d.fail(fmt.Errorf("graph_module has no graph"))
	} else if !hasSchema {
		d.fail(fmt.Errorf("no schema_version"))
	}
	p.TorchVersion = "<=2.4"
	if torchVersion != nil {
		p.TorchVersion = *torchVersion
	}
}

func (d *decoder) graphModule(p *Program) {
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "graph":
			p.Graph = nil
			if !d.null() {
				p.Graph = new(Graph)
				d.graph(p.Graph)
			}
		case "signature":
			d.signature(&p.Signature)
		case "module_call_graph":
			p.ModuleCallGraph = nil
			if d.openArray() {
				for ok := d.firstElem(); ok; ok = d.nextElem() {
					var e ModuleCallEntry
					d.moduleCallEntry(&e)
					d.wrapIndex(len(p.ModuleCallGraph))
					p.ModuleCallGraph = append(p.ModuleCallGraph, e)
				}
			}
		case "metadata":
			p.Metadata = d.stringMap()
		case "treespec_namedtuple_fields":
			p.TreespecNamedtupleFields = decodeTable(d, value((*decoder).fieldNames))
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
}

func (d *decoder) signature(s *Signature) {
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "input_specs":
			s.Inputs = nil
			if d.openArray() {
				for ok := d.firstElem(); ok; ok = d.nextElem() {
					var is InputSpec
					d.inputSpec(&is)
					d.wrapIndex(len(s.Inputs))
					s.Inputs = append(s.Inputs, is)
				}
			}
		case "output_specs":
			s.Outputs = nil
			if d.openArray() {
				for ok := d.firstElem(); ok; ok = d.nextElem() {
					var os OutputSpec
					d.outputSpec(&os)
					d.wrapIndex(len(s.Outputs))
					s.Outputs = append(s.Outputs, os)
				}
			}
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
}

// fieldNames reads a namedtuple's definition: {"field_names": [...]}.
func (d *decoder) fieldNames(names *[]string) {
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		if string(key) == "field_names" {
			*names = d.strings(false)
		} else {
			d.skip()
		}
	}
}

func (d *decoder) schemaVersion(v *SchemaVersion) {
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "major":
			v.Major = d.int()
		case "minor":
			v.Minor = d.int()
		default:
			d.skip()
		}
	}
}

func (d *decoder) rangeConstraint(rc *RangeConstraint) {
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "min_val":
			rc.Min = d.optInt()
		case "max_val":
			rc.Max = d.optInt()
		default:
			d.skip()
		}
	}
}

func (d *decoder) moduleCallEntry(e *ModuleCallEntry) {
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "fqn":
			e.FQN = d.name()
		case "signature":
			e.Signature = nil
			if d.openObject(true) {
				s := new(ModuleCallSignature)
				e.Signature = s
				for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
					switch string(key) {
					case "inputs":
						s.Inputs = d.argList()
					case "outputs":
						s.Outputs = d.argList()
					case "in_spec":
						s.InSpec = d.text()
					case "out_spec":
						s.OutSpec = d.text()
					case "forward_arg_names":
						s.ForwardArgNames = d.strings(true)
					default:
						d.skip()
					}
					d.wrapKey(key)
				}
			}
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
}

// Graphs and nodes.

func (d *decoder) graph(g *Graph) {
	if !d.openObject(false) {
		return
	}
	var c *graphCheck
	if d.checks != nil {
		c = newGraphCheck(g)
		d.checks[g] = c
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "inputs":
			g.Inputs = d.argList()
		case "outputs":
			g.Outputs = d.argList()
		case "nodes":
			g.Nodes = d.nodeList(c)
			continue // its errors name the node
		case "tensor_values":
			// Sized for the nodes and inputs already read (PyTorch
			// writes them first): one value each is the common case.
			g.TensorValues = d.tensorValues(len(g.Nodes)+len(g.Inputs), c)
		case "sym_int_values":
			g.SymIntValues = decodeTable(d, value((*decoder).symInt))
		case "sym_bool_values":
			g.SymBoolValues = decodeTable(d, value((*decoder).symBool))
		case "sym_float_values":
			g.SymFloatValues = decodeTable(d, value((*decoder).symFloat))
		case "custom_obj_values":
			g.CustomObjValues = decodeTable(d, value((*decoder).customObj))
		case "is_single_tensor_return":
			g.IsSingleTensorReturn = d.bool()
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
	if c != nil && d.err == nil {
		c.finish()
	}
}

// tensorValues reads a graph's tensor table (a hint entries long), its
// metadata checked as it comes when c is set.
func (d *decoder) tensorValues(hint int, c *graphCheck) map[string]*TensorMeta {
	if !d.openObject(true) {
		return nil
	}
	if c != nil {
		c.newMetas()
	}
	m := make(map[string]*TensorMeta, hint)
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		k := d.mapKey(key)
		v := d.tensorMetaRef()
		n := len(m)
		m[k] = v
		d.wrapName(k)
		if c != nil {
			c.meta(k, v, len(m) > n)
		}
	}
	return m
}

// decodeTable reads an object keyed by value names (null reads as nil),
// each value read by elem. (elem returns its value rather than filling a
// pointer, which through a func value would escape to the heap.)
func decodeTable[V any](d *decoder, elem func(*decoder) V) map[string]V {
	if !d.openObject(true) {
		return nil
	}
	m := make(map[string]V)
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		k := d.mapKey(key)
		m[k] = elem(d)
		d.wrapName(k)
	}
	return m
}

// value adapts a decoder method that fills a T to decodeTable.
func value[T any](fill func(*decoder, *T)) func(*decoder) T {
	return func(d *decoder) T {
		var v T
		fill(d, &v)
		return v
	}
}

// tensorMetaRef reads a tensor table's entry (null reads as nil).
func (d *decoder) tensorMetaRef() *TensorMeta {
	if d.null() {
		return nil
	}
	m := carve(&d.metaSlab)
	d.tensorMeta(m)
	return m
}

func (d *decoder) nodeList(c *graphCheck) []*Node {
	if !d.openArray() {
		d.wrapName("nodes")
		return nil
	}
	if c != nil {
		c.newNodes()
	}
	base := len(d.nodeStack)
	for ok := d.firstElem(); ok; ok = d.nextElem() {
		if d.nodes++; d.nodes > d.maxNodes {
			d.failLimit(limits.Nodes.Exceeded())
			break
		}
		n := carve(&d.nodeSlab)
		d.node(n)
		if d.err != nil {
			who := n.Name
			if who == "" && len(n.Outputs) > 0 {
				who = n.Outputs[0].Name
			}
			if who == "" {
				who = fmt.Sprintf("#%d", len(d.nodeStack)-base)
			}
			if n.Target != "" {
				who += " (" + n.Target + ")"
			}
			d.wrap("node %s", who)
			break
		}
		if c != nil {
			c.node(n)
		}
		d.nodeStack = append(d.nodeStack, n)
	}
	return popStack(&d.nodeStack, base, &d.nodeListSlab)
}

// popStack returns the list gathered on a stack above base, and pops it.
// Short lists are carved from slab, so that a program's many one- and
// two-element lists cost one allocation per few hundred; each has its own
// capacity, so appending to one never writes over its neighbour.
func popStack[T any](stack *[]T, base int, slab *[]T) []T {
	s := *stack
	n := len(s) - base
	var out []T
	switch {
	case n == 0:
	case n <= slabList:
		if len(*slab) < n {
			*slab = make([]T, slabSize)
		}
		out = (*slab)[:n:n]
		*slab = (*slab)[n:]
	default:
		out = make([]T, n)
	}
	copy(out, s[base:])
	clear(s[base:])
	*stack = s[:base]
	return out
}

// Lists of up to slabList elements come from slabs of slabSize.
const slabList, slabSize = 16, 256

// list is where the lists of one element type are read: straight into a
// slab, so that an element is never copied once read (copying structs
// with pointers costs write barriers while the collector runs), or, for a
// list nested in one of its own kind (a subgraph's, inside a node), on a
// stack, then copied to an allocation of its own.
//
//	r := d.args.begin()
//	for ok := d.firstElem(); ok; ok = d.nextElem() {
//		a := r.next()
//		d.argument(a)
//		r.done(a)
//	}
//	return r.end()
//
// (readList, for the lists whose elements are read by one method.)
type list[T any] struct {
	// slab holds the open list's n elements, then room for more.
	slab []T
	n    int
	open bool
	// stack holds the elements of nested lists.
	stack []T
}

// readList reads an array (null reads as nil) into l, each element by
// elem.
func readList[T any](d *decoder, l *list[T], elem func(*decoder, *T)) []T {
	if !d.openArray() {
		return nil
	}
	r := l.begin()
	for i, ok := 0, d.firstElem(); ok; i, ok = i+1, d.nextElem() {
		e := r.next()
		elem(d, e)
		d.wrapIndex(i)
		r.done(e)
	}
	return r.end()
}

// listRef is one list being read: in the slab (base < 0), or on the
// stack above base.
type listRef[T any] struct {
	l    *list[T]
	base int
}

func (l *list[T]) begin() listRef[T] {
	if l.open {
		return listRef[T]{l, len(l.stack)}
	}
	l.open, l.n = true, 0
	return listRef[T]{l, -1}
}

// next returns a zero element for the caller to fill, then pass to done.
// (A nested list's is its own: the stack may move while it is read.)
func (r listRef[T]) next() *T {
	l := r.l
	if r.base >= 0 {
		return new(T)
	}
	if l.n == len(l.slab) {
		s := make([]T, max(slabSize, 2*l.n))
		copy(s, l.slab[:l.n])
		l.slab = s
	}
	l.n++
	return &l.slab[l.n-1]
}

// done adds the element next returned to the list.
func (r listRef[T]) done(e *T) {
	if r.base >= 0 {
		r.l.stack = append(r.l.stack, *e)
	}
}

// elems is the list so far.
func (r listRef[T]) elems() []T {
	if r.base >= 0 {
		return r.l.stack[r.base:]
	}
	return r.l.slab[:r.l.n]
}

// end returns the list (nil when empty), capped so that appending to it
// never writes over the next.
func (r listRef[T]) end() []T {
	l := r.l
	if r.base >= 0 {
		var out []T
		if n := len(l.stack) - r.base; n > 0 {
			out = make([]T, n)
			copy(out, l.stack[r.base:])
		}
		clear(l.stack[r.base:])
		l.stack = l.stack[:r.base]
		return out
	}
	l.open = false
	n := l.n
	if n == 0 {
		return nil
	}
	out := l.slab[:n:n]
	l.slab, l.n = l.slab[n:], 0
	return out
}

// The keys of the structs a program has most of, in the schema's order.
var (
	nodeFields          = newFieldOrder("target", "inputs", "outputs", "metadata", "is_hop_single_tensor_return", "name")
	namedArgumentFields = newFieldOrder("name", "arg", "kind")
	tensorMetaFields    = newFieldOrder("dtype", "sizes", "requires_grad", "device", "strides", "storage_offset", "layout")
)

// node reads a node. A node without a name (files older than schema
// 8.16) takes its first output's name, as FX named it.
func (d *decoder) node(n *Node) {
	if !d.openObject(false) {
		return
	}
	hasName := false
	f := d.fields(nodeFields)
	for key, ok := f.first(); ok; key, ok = f.next() {
		switch string(key) {
		case "target":
			n.Target = d.common(true)
		case "inputs":
			n.Inputs = d.namedArgList()
		case "outputs":
			n.Outputs = d.argList()
		case "metadata":
			n.Metadata = d.metadata()
		case "is_hop_single_tensor_return":
			n.IsHOPSingleTensorReturn = d.optBool()
		case "name":
			hasName = !d.null()
			if hasName {
				n.Name = d.name()
			}
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
	if d.err != nil {
		return
	}
	if !hasName {
		n.Name = ""
		if outs := n.OutputNames(); len(outs) > 0 {
			n.Name = outs[0]
		}
	}
	if n.Target == "" {
		d.fail(fmt.Errorf("no target"))
	}
}

func (d *decoder) namedArgList() []NamedArgument {
	return readList(d, &d.namedArgs, (*decoder).namedArgument)
}

func (d *decoder) namedArgument(a *NamedArgument) {
	if !d.openObject(true) {
		return
	}
	f := d.fields(namedArgumentFields)
	for key, ok := f.first(); ok; key, ok = f.next() {
		switch string(key) {
		case "name":
			a.Name = d.common(true)
		case "arg":
			d.argument(&a.Arg)
		case "kind":
			a.Kind = ArgumentKind(d.int())
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
}

// Arguments.

func (d *decoder) argList() []Argument { return readList(d, &d.args, (*decoder).argument) }

// nameRef reads {"name": "..."}, the schema's TensorArgument.
func (d *decoder) nameRef() string {
	if d.depth < d.maxDepth {
		if b, ok := d.plainString(`{"name": "`, `}`); ok {
			return d.save(b)
		}
	}
	var name string
	if d.openObject(true) {
		for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
			if string(key) == "name" {
				name = d.name()
			} else {
				d.skip()
			}
		}
	}
	return name
}

func (d *decoder) argument(a *Argument) {
	// The commonest argument, a tensor, read whole when it is plain.
	if d.depth+2 <= d.maxDepth {
		if b, ok := d.plainString(`{"as_tensor": {"name": "`, `}}`); ok {
			*a = Argument{Kind: ArgTensor, Name: d.save(b)}
			return
		}
	}
	key, start, ok := d.openUnion("Argument")
	if !ok {
		return
	}
	kind, ok := argKindOf(key)
	if !ok {
		d.fail(unknownMember("Argument", string(key)))
		return
	}
	*a = Argument{Kind: kind}
	d.argumentMember(a, kind)
	d.wrapName(argKindNames[kind])
	d.closeUnion("Argument", start)
}

func (d *decoder) argumentMember(a *Argument, kind ArgKind) {
	switch kind {
	case ArgNone:
		d.skip() // as_none: true (any value is accepted)
	case ArgTensor:
		a.Name = d.nameRef()
	case ArgTensors:
		if d.openArray() {
			for ok := d.firstElem(); ok; ok = d.nextElem() {
				a.List = append(a.List, TensorArg(d.nameRef()))
			}
		}
	case ArgInt, ArgScalarType, ArgMemoryFormat, ArgLayout:
		a.Int = d.int64()
	case ArgInts:
		a.Ints = d.ints()
	case ArgFloat:
		a.Float = d.float()
	case ArgFloats:
		var v []float64
		if d.openArray() {
			for ok := d.firstElem(); ok; ok = d.nextElem() {
				v = append(v, d.float())
			}
		}
		a.Extra = &ArgExtra{Floats: v}
	case ArgString:
		a.Str = d.text()
	case ArgOperator:
		a.Str = d.name()
	case ArgStrings:
		a.Extra = &ArgExtra{Strings: d.strings(false)}
	case ArgBool:
		a.Bool = d.bool()
	case ArgBools:
		var v []bool
		if d.openArray() {
			for ok := d.firstElem(); ok; ok = d.nextElem() {
				v = append(v, d.bool())
			}
		}
		a.Extra = &ArgExtra{Bools: v}
	case ArgSymInt, ArgSymFloat, ArgSymBool:
		d.symScalar(a, kind)
	case ArgSymInts, ArgSymFloats, ArgSymBools:
		ek := ArgSymInt
		switch kind {
		case ArgSymFloats:
			ek = ArgSymFloat
		case ArgSymBools:
			ek = ArgSymBool
		}
		if d.openArray() {
			for ok := d.firstElem(); ok; ok = d.nextElem() {
				e := Argument{Kind: ek}
				d.symScalar(&e, ek)
				a.List = append(a.List, e)
			}
		}
	case ArgOptionalTensor:
		d.optionalTensor(a)
	case ArgOptionalTensors:
		if d.openArray() {
			for ok := d.firstElem(); ok; ok = d.nextElem() {
				e := Argument{Kind: ArgOptionalTensor}
				d.optionalTensor(&e)
				a.List = append(a.List, e)
			}
		}
	case ArgDevice:
		a.Extra = &ArgExtra{Device: new(Device)}
		d.device(a.Extra.Device)
	case ArgGraph:
		a.Extra = &ArgExtra{Graph: new(GraphArgument)}
		d.graphArgument(a.Extra.Graph)
	case ArgCustomObj:
		var c CustomObj
		d.customObj(&c)
		a.Name, a.Str = c.Name, c.ClassFQN
	case ArgComplex:
		var re, im float64
		if d.openObject(true) {
			for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
				switch string(key) {
				case "real":
					re = d.float()
				case "imag":
					im = d.float()
				default:
					d.skip()
				}
			}
		}
		a.Extra = &ArgExtra{Complex: complex(re, im)}
	case ArgNestedTensors:
		a.Extra = new(ArgExtra)
		if d.openArray() {
			for ok := d.firstElem(); ok; ok = d.nextElem() {
				var l []string
				if d.openArray() {
					for ok := d.firstElem(); ok; ok = d.nextElem() {
						l = append(l, d.nameRef())
					}
				}
				a.Extra.Nested = append(a.Extra.Nested, l)
			}
		}
	case ArgIntLists:
		var v [][]int64
		if d.openArray() {
			for ok := d.firstElem(); ok; ok = d.nextElem() {
				v = append(v, d.ints())
			}
		}
		a.Extra = &ArgExtra{IntLists: v}
	case ArgStringToArgument:
		a.Extra = &ArgExtra{Map: decodeTable(d, value((*decoder).argument))}
	}
}

func (d *decoder) graphArgument(ga *GraphArgument) {
	if d.openObject(true) {
		for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
			switch string(key) {
			case "name":
				ga.Name = d.name()
			case "graph":
				ga.Graph = nil
				if !d.null() {
					ga.Graph = new(Graph)
					d.graph(ga.Graph)
				}
			default:
				d.skip()
			}
			d.wrapKey(key)
		}
	}
	if d.err == nil && ga.Graph == nil {
		d.fail(fmt.Errorf("graph %q has no graph", ga.Name))
	}
}

// symScalar reads a SymIntArgument (SymFloat..., SymBool...): a named
// value or a literal.
func (d *decoder) symScalar(a *Argument, kind ArgKind) {
	union, literal := "SymIntArgument", "as_int"
	switch kind {
	case ArgSymFloat:
		union, literal = "SymFloatArgument", "as_float"
	case ArgSymBool:
		union, literal = "SymBoolArgument", "as_bool"
	}
	key, start, ok := d.openUnion(union)
	if !ok {
		return
	}
	switch string(key) {
	case "as_name":
		if a.Name = d.name(); d.err == nil && a.Name == "" {
			d.fail(fmt.Errorf("%s: empty name", union))
		}
	case literal:
		switch kind {
		case ArgSymInt:
			a.Int = d.int64()
		case ArgSymFloat:
			a.Float = d.float()
		default:
			a.Bool = d.bool()
		}
	default:
		d.fail(unknownMember(union, string(key)))
	}
	d.closeUnion(union, start)
}

func (d *decoder) optionalTensor(a *Argument) {
	const union = "OptionalTensorArgument"
	key, start, ok := d.openUnion(union)
	if !ok {
		return
	}
	switch string(key) {
	case "as_tensor":
		if a.Name = d.nameRef(); d.err == nil && a.Name == "" {
			d.fail(fmt.Errorf("%s: empty tensor name", union))
		}
	case "as_none":
		d.skip()
	default:
		d.fail(unknownMember(union, string(key)))
	}
	d.closeUnion(union, start)
}

func (d *decoder) device(dev *Device) {
	if d.depth < d.maxDepth {
		if b, ok := d.plainString(`{"type": "`, `, "index": null}`); ok {
			*dev = Device{Type: d.intern(b)}
			return
		}
	}
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "type":
			dev.Type = d.common(true)
		case "index":
			dev.Index = d.optInt()
		default:
			d.skip()
		}
	}
}

func (d *decoder) customObj(c *CustomObj) {
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "name":
			c.Name = d.name()
		case "class_fqn":
			c.ClassFQN = d.name()
		default:
			d.skip()
		}
	}
}

// Tensor metadata and symbolic scalars.

func (d *decoder) tensorMeta(m *TensorMeta) {
	if !d.openObject(true) {
		return
	}
	f := d.fields(tensorMetaFields)
	for key, ok := f.first(); ok; key, ok = f.next() {
		switch string(key) {
		case "dtype":
			m.DType = ScalarType(d.int())
		case "sizes":
			m.Sizes = d.symIntList()
		case "requires_grad":
			m.RequiresGrad = d.bool()
		case "device":
			d.device(&m.Device)
		case "strides":
			m.Strides = d.symIntList()
		case "storage_offset":
			d.symInt(&m.StorageOffset)
		case "layout":
			m.Layout = Layout(d.int())
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
}

func (d *decoder) symIntList() []SymInt {
	if l, ok := d.literalSymInts(); ok {
		return l
	}
	return readList(d, &d.symInts, (*decoder).symInt)
}

// maxLiteralSymInts bounds the lists literalSymInts reads: a tensor's
// sizes and strides, one per dimension.
const maxLiteralSymInts = 8

// literalSymInts reads, when the window holds it whole at pos, a short
// list of plain literals as Python writes it ([{"as_int": 6}, {"as_int":
// 8}]: a tensor's sizes and strides) in one loop. It reads nothing, and
// says false, for anything else (another spacing, a symbolic size, a
// number that is not a plain integer, a longer list, a list past the
// depth or value limits), which readList then reads (or refuses).
func (d *decoder) literalSymInts() ([]SymInt, bool) {
	data, i := d.data, d.pos
	if d.err != nil || d.depth+2 > d.maxDepth || i+1 >= len(data) || data[i] != '[' || data[i+1] == ']' {
		return nil, false
	}
	var vals [maxLiteralSymInts]int64
	n := 0
	for i++; ; i += 2 {
		if n == len(vals) || len(data)-i <= len(asIntPrefix) || string(data[i:i+len(asIntPrefix)]) != asIntPrefix {
			return nil, false
		}
		v, end, ok := fastInt(data, i+len(asIntPrefix))
		if !ok || data[end] != '}' || end+2 >= len(data) {
			return nil, false
		}
		vals[n], n, i = v, n+1, end+1
		if data[i] == ']' {
			break
		}
		if data[i] != ',' || data[i+1] != ' ' {
			return nil, false
		}
	}
	if d.values+n > d.maxValues {
		return nil, false
	}
	d.values += n
	d.pos = i + 1
	r := d.symInts.begin()
	for _, v := range vals[:n] {
		e := r.next()
		e.Int = v
		r.done(e)
	}
	return r.end(), true
}

// symUnion reads the as_expr member of SymInt, SymFloat or SymBool, or
// hands the literal member's key back to the caller.
func (d *decoder) symUnion(union, literal string, expr **SymExpr, lit func()) {
	*expr = nil
	key, start, ok := d.openUnion(union)
	if !ok {
		return
	}
	switch string(key) {
	case "as_expr":
		*expr = carve(&d.exprSlab)
		d.symExpr(*expr)
	case literal:
		lit()
	default:
		d.fail(unknownMember(union, string(key)))
	}
	d.closeUnion(union, start)
}

// asIntPrefix starts the common SymInt, {"as_int": N}.
const asIntPrefix = `{"as_int": `

func (d *decoder) symInt(s *SymInt) {
	if d.err == nil && d.depth < d.maxDepth && d.peek() == '{' {
		// The literal, read whole when it is plain.
		if data, i := d.data, d.pos+len(asIntPrefix); i < len(data) && string(data[d.pos:i]) == asIntPrefix {
			if v, end, ok := fastInt(data, i); ok && data[end] == '}' {
				*s = SymInt{Int: v}
				d.pos = end + 1
				return
			}
		}
	}
	s.Int = 0
	d.symUnion("SymInt", "as_int", &s.Expr, func() { s.Int = d.int64() })
}

func (d *decoder) symFloat(s *SymFloat) {
	s.Float = 0
	d.symUnion("SymFloat", "as_float", &s.Expr, func() { s.Float = d.float() })
}

func (d *decoder) symBool(s *SymBool) {
	s.Bool = false
	d.symUnion("SymBool", "as_bool", &s.Expr, func() { s.Bool = d.bool() })
}

func (d *decoder) symExpr(e *SymExpr) {
	if !d.openObject(true) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch string(key) {
		case "expr_str":
			e.Expr = d.common(true)
		case "hint":
			e.Hint = nil
			if !d.null() {
				e.Hint = carve(&d.hintSlab)
				d.hint(e.Hint)
			}
		default:
			d.skip()
		}
	}
}

func (d *decoder) hint(h *Hint) {
	*h = Hint{}
	const union = "SymExprHint"
	key, start, ok := d.openUnion(union)
	if !ok {
		return
	}
	switch string(key) {
	case "as_int":
		h.Kind, h.Int = HintInt, d.int64()
	case "as_float":
		h.Kind, h.Float = HintFloat, d.float()
	case "as_bool":
		h.Kind, h.Bool = HintBool, d.bool()
	default:
		d.fail(unknownMember(union, string(key)))
	}
	d.closeUnion(union, start)
}

// Signature specs. The union's key says which member a spec is before
// its body is read, so each field is decoded as that member needs.

func (d *decoder) inputSpec(s *InputSpec) {
	const union = "InputSpec"
	key, start, ok := d.openUnion(union)
	if !ok {
		return
	}
	kind, ok := inputKindByName[string(key)]
	if !ok {
		d.fail(unknownMember(union, string(key)))
		return
	}
	*s = InputSpec{Kind: kind}
	d.inputSpecBody(s)
	d.wrapName(inputKindNames[kind])
	d.closeUnion(union, start)
}

func (d *decoder) inputSpecBody(s *InputSpec) {
	var persistent *bool
	hasArg, hasValue := false, false
	targetKey := inputSpecTarget[s.Kind]
	if !d.openObject(false) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch k := string(key); {
		case k == "arg":
			hasArg = true
			switch s.Kind {
			case InputUser:
				d.argument(&s.Arg)
			case InputParameter, InputBuffer, InputTensorConstant:
				s.Arg = TensorArg(d.nameRef())
			case InputCustomObj:
				var c CustomObj
				d.customObj(&c)
				s.Arg = Argument{Kind: ArgCustomObj, Name: c.Name, Str: c.ClassFQN}
			case InputToken:
				s.Arg = Argument{Kind: ArgToken, Name: d.nameRef()}
			default:
				d.skip()
			}
		case targetKey != "" && k == targetKey:
			s.Target = d.name()
		case k == "persistent" && s.Kind == InputBuffer:
			persistent = d.optBool()
		case k == "name" && s.Kind == InputConstant:
			s.Name = d.name()
		case k == "value" && s.Kind == InputConstant:
			hasValue = true
			if d.argument(&s.Arg); d.err == nil && !isConstantMember(s.Arg.Kind) {
				d.fail(unknownMember("ConstantValue", s.Arg.Kind.String()))
			}
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
	switch {
	case d.err != nil:
	case s.Kind == InputConstant:
		if !hasValue {
			d.fail(fmt.Errorf("missing value"))
		}
	case !hasArg:
		d.fail(fmt.Errorf("missing arg"))
	case s.Kind == InputBuffer:
		if persistent == nil {
			d.fail(fmt.Errorf("buffer %q has no persistent flag", s.Target))
		} else {
			s.Persistent = *persistent
		}
	}
}

func (d *decoder) outputSpec(s *OutputSpec) {
	const union = "OutputSpec"
	key, start, ok := d.openUnion(union)
	if !ok {
		return
	}
	kind, ok := outputKindByName[string(key)]
	if !ok {
		d.fail(unknownMember(union, string(key)))
		return
	}
	*s = OutputSpec{Kind: kind}
	d.outputSpecBody(s)
	d.wrapName(outputKindNames[kind])
	d.closeUnion(union, start)
}

func (d *decoder) outputSpecBody(s *OutputSpec) {
	hasArg := false
	targetKey, hasTarget := outputTargetKey[s.Kind]
	if !d.openObject(false) {
		return
	}
	for key, ok := d.firstKey(); ok; key, ok = d.nextKey() {
		switch k := string(key); {
		case k == "arg":
			hasArg = true
			switch s.Kind {
			case OutputUser, OutputLoss:
				d.argument(&s.Arg)
			case OutputToken:
				s.Arg = Argument{Kind: ArgToken, Name: d.nameRef()}
			default:
				s.Arg = TensorArg(d.nameRef())
			}
		case hasTarget && k == targetKey:
			s.Target = d.name()
		default:
			d.skip()
		}
		d.wrapKey(key)
	}
	if d.err == nil && !hasArg {
		d.fail(fmt.Errorf("missing arg"))
	}
}

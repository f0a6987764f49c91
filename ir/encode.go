package ir

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The encoder appends the schema's JSON to one buffer in one pass, as
// PyTorch 2.11 writes it (json.dumps with its default separators ", "
// and ": ", ensure_ascii): every field present, struct fields in the
// schema's order, lists never null, non-finite floats as the strings
// "Infinity", "-Infinity" and "NaN", strings escaped as str says. The one
// difference is map keys: PyTorch writes a dict in the order it was
// filled, seam sorts them (the order carries no meaning).

type encoder struct {
	buf []byte
	err error
}

func (e *encoder) fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf(format, args...)
	}
}

func (e *encoder) raw(s string) { e.buf = append(e.buf, s...) }

func (e *encoder) byte(c byte) { e.buf = append(e.buf, c) }

// key writes `"name":`, preceded by a comma unless first.
func (e *encoder) key(name string, first bool) {
	if !first {
		e.buf = append(e.buf, ',', ' ')
	}
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '"', ':', ' ')
}

const hexDigits = "0123456789abcdef"

// str writes s as Python's json.dumps does (ensure_ascii, the default
// PyTorch writes with): the short escapes for quote, backslash, newline
// and the like, a four-digit u escape for the other controls and DEL and
// for every non-ASCII rune (a surrogate pair beyond the BMP).
// Invalid UTF-8, which the reader refuses, is written as U+FFFD.
func (e *encoder) str(s string) {
	b := append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = appendU(b, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			b = appendU(appendU(b, r1), r2)
		} else {
			b = appendU(b, r)
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	e.buf = append(b, '"')
}

// appendU appends r's four-digit u escape, in lower-case hex as Python
// writes it.
func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

func (e *encoder) int(v int64) { e.buf = strconv.AppendInt(e.buf, v, 10) }

func (e *encoder) bool(v bool) {
	if v {
		e.raw("true")
	} else {
		e.raw("false")
	}
}

func (e *encoder) float(f float64) {
	switch {
	case math.IsInf(f, 1):
		e.raw(`"Infinity"`)
	case math.IsInf(f, -1):
		e.raw(`"-Infinity"`)
	case math.IsNaN(f):
		e.raw(`"NaN"`)
	default:
		e.raw(FormatPyFloat(f))
	}
}

func (e *encoder) optInt(p *int64) {
	if p == nil {
		e.raw("null")
	} else {
		e.int(*p)
	}
}

// list writes n elements with elem.
func (e *encoder) list(n int, elem func(i int)) {
	e.byte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			e.raw(", ")
		}
		elem(i)
	}
	e.byte(']')
}

func (e *encoder) strings(l []string) { e.list(len(l), func(i int) { e.str(l[i]) }) }

func (e *encoder) ints(l []int64) { e.list(len(l), func(i int) { e.int(l[i]) }) }

// encodeMap writes a map with sorted keys.
func encodeMap[V any](e *encoder, m map[string]V, val func(V)) {
	e.byte('{')
	for i, k := range SortedKeys(m) {
		if i > 0 {
			e.raw(", ")
		}
		e.str(k)
		e.raw(": ")
		val(m[k])
	}
	e.byte('}')
}

func (e *encoder) stringMap(m map[string]string) { encodeMap(e, m, e.str) }

// metadata writes a node's metadata sorted by key, as stringMap writes a
// map; metadata built out of order, or with a key twice (the last value
// counts), is put in order first.
func (e *encoder) metadata(m Metadata) {
	for i := 1; i < len(m); i++ {
		if m[i-1].Key >= m[i].Key {
			m = m.canonical()
			break
		}
	}
	e.byte('{')
	for i := range m {
		if i > 0 {
			e.raw(", ")
		}
		e.str(m[i].Key)
		e.raw(": ")
		e.str(m[i].Value)
	}
	e.byte('}')
}

// union writes a one-member object {"key": value}.
func (e *encoder) union(key string, value func()) {
	e.buf = append(e.buf, '{', '"')
	e.buf = append(e.buf, key...)
	e.buf = append(e.buf, '"', ':', ' ')
	value()
	e.byte('}')
}

func (e *encoder) nameRef(name string) {
	e.raw(`{"name": `)
	e.str(name)
	e.byte('}')
}

// The schema's types.

func (e *encoder) program(p *Program) {
	if p.Graph == nil {
		e.fail("program has no graph")
		return
	}
	e.raw(`{"graph_module": {"graph": `)
	e.graph(p.Graph)
	e.raw(`, "signature": {"input_specs": `)
	e.list(len(p.Signature.Inputs), func(i int) { e.inputSpec(&p.Signature.Inputs[i]) })
	e.raw(`, "output_specs": `)
	e.list(len(p.Signature.Outputs), func(i int) { e.outputSpec(&p.Signature.Outputs[i]) })
	e.raw(`}, "module_call_graph": `)
	e.list(len(p.ModuleCallGraph), func(i int) { e.moduleCallEntry(&p.ModuleCallGraph[i]) })
	e.raw(`, "metadata": `)
	e.stringMap(p.Metadata)
	e.raw(`, "treespec_namedtuple_fields": `)
	encodeMap(e, p.TreespecNamedtupleFields, func(names []string) {
		e.raw(`{"field_names": `)
		e.strings(names)
		e.byte('}')
	})
	e.raw(`}, "opset_version": `)
	encodeMap(e, p.OpsetVersion, e.int)
	e.raw(`, "range_constraints": `)
	encodeMap(e, p.RangeConstraints, func(rc RangeConstraint) {
		e.raw(`{"min_val": `)
		e.optInt(rc.Min)
		e.raw(`, "max_val": `)
		e.optInt(rc.Max)
		e.byte('}')
	})
	e.raw(`, "schema_version": {"major": `)
	e.int(int64(p.SchemaVersion.Major))
	e.raw(`, "minor": `)
	e.int(int64(p.SchemaVersion.Minor))
	e.raw(`}, "verifiers": `)
	e.strings(p.Verifiers)
	e.raw(`, "torch_version": `)
	e.str(p.TorchVersion)
	e.raw(`, "guards_code": `)
	e.strings(p.GuardsCode)
	e.byte('}')
}

func (e *encoder) moduleCallEntry(m *ModuleCallEntry) {
	e.raw(`{"fqn": `)
	e.str(m.FQN)
	e.raw(`, "signature": `)
	if s := m.Signature; s == nil {
		e.raw("null")
	} else {
		e.raw(`{"inputs": `)
		e.list(len(s.Inputs), func(i int) { e.argument(&s.Inputs[i]) })
		e.raw(`, "outputs": `)
		e.list(len(s.Outputs), func(i int) { e.argument(&s.Outputs[i]) })
		e.raw(`, "in_spec": `)
		e.str(s.InSpec)
		e.raw(`, "out_spec": `)
		e.str(s.OutSpec)
		e.raw(`, "forward_arg_names": `)
		e.strings(s.ForwardArgNames)
		e.byte('}')
	}
	e.byte('}')
}

func (e *encoder) graph(g *Graph) {
	e.raw(`{"inputs": `)
	e.list(len(g.Inputs), func(i int) { e.argument(&g.Inputs[i]) })
	e.raw(`, "outputs": `)
	e.list(len(g.Outputs), func(i int) { e.argument(&g.Outputs[i]) })
	e.raw(`, "nodes": `)
	e.list(len(g.Nodes), func(i int) {
		if g.Nodes[i] == nil {
			e.fail("graph has a nil node at %d", i)
			return
		}
		e.node(g.Nodes[i])
	})
	e.raw(`, "tensor_values": `)
	encodeMap(e, g.TensorValues, func(m *TensorMeta) {
		if m == nil {
			e.raw("null")
		} else {
			e.tensorMeta(m)
		}
	})
	e.raw(`, "sym_int_values": `)
	encodeMap(e, g.SymIntValues, e.symInt)
	e.raw(`, "sym_bool_values": `)
	encodeMap(e, g.SymBoolValues, e.symBool)
	e.raw(`, "is_single_tensor_return": `)
	e.bool(g.IsSingleTensorReturn)
	e.raw(`, "custom_obj_values": `)
	encodeMap(e, g.CustomObjValues, e.customObj)
	e.raw(`, "sym_float_values": `)
	encodeMap(e, g.SymFloatValues, e.symFloat)
	e.byte('}')
}

func (e *encoder) node(n *Node) {
	e.raw(`{"target": `)
	e.str(n.Target)
	e.raw(`, "inputs": `)
	e.list(len(n.Inputs), func(i int) {
		a := &n.Inputs[i]
		e.raw(`{"name": `)
		e.str(a.Name)
		e.raw(`, "arg": `)
		e.argument(&a.Arg)
		e.raw(`, "kind": `)
		e.int(int64(a.Kind))
		e.byte('}')
	})
	e.raw(`, "outputs": `)
	e.list(len(n.Outputs), func(i int) { e.argument(&n.Outputs[i]) })
	e.raw(`, "metadata": `)
	e.metadata(n.Metadata)
	e.raw(`, "is_hop_single_tensor_return": `)
	if n.IsHOPSingleTensorReturn == nil {
		e.raw("null")
	} else {
		e.bool(*n.IsHOPSingleTensorReturn)
	}
	e.raw(`, "name": `)
	e.str(n.Name)
	e.byte('}')
}

func (e *encoder) customObj(c CustomObj) {
	e.raw(`{"name": `)
	e.str(c.Name)
	e.raw(`, "class_fqn": `)
	e.str(c.ClassFQN)
	e.byte('}')
}

func (e *encoder) device(d *Device) {
	e.raw(`{"type": `)
	e.str(d.Type)
	e.raw(`, "index": `)
	e.optInt(d.Index)
	e.byte('}')
}

func (e *encoder) argument(a *Argument) {
	if a.Kind == ArgToken || a.Kind >= numArgKinds || a.Kind == ArgInvalid {
		e.fail("cannot encode Argument of kind %s", a.Kind)
		return
	}
	e.union(argKindNames[a.Kind], func() {
		switch a.Kind {
		case ArgNone:
			e.raw("true")
		case ArgTensor:
			e.nameRef(a.Name)
		case ArgTensors:
			e.list(len(a.List), func(i int) { e.nameRef(a.List[i].Name) })
		case ArgInt, ArgScalarType, ArgMemoryFormat, ArgLayout:
			e.int(a.Int)
		case ArgInts:
			e.ints(a.Ints)
		case ArgFloat:
			e.float(a.Float)
		case ArgFloats:
			e.list(len(a.Floats()), func(i int) { e.float(a.Floats()[i]) })
		case ArgString, ArgOperator:
			e.str(a.Str)
		case ArgStrings:
			e.strings(a.Strings())
		case ArgBool:
			e.bool(a.Bool)
		case ArgBools:
			e.list(len(a.Bools()), func(i int) { e.bool(a.Bools()[i]) })
		case ArgSymInt, ArgSymFloat, ArgSymBool:
			e.symScalar(a)
		case ArgSymInts, ArgSymFloats, ArgSymBools:
			e.list(len(a.List), func(i int) { e.symScalar(&a.List[i]) })
		case ArgOptionalTensor:
			e.optionalTensor(a)
		case ArgOptionalTensors:
			e.list(len(a.List), func(i int) { e.optionalTensor(&a.List[i]) })
		case ArgDevice:
			if a.Device() == nil {
				e.fail("as_device without a device")
				return
			}
			e.device(a.Device())
		case ArgGraph:
			if a.Graph() == nil || a.Graph().Graph == nil {
				e.fail("as_graph without a graph")
				return
			}
			e.raw(`{"name": `)
			e.str(a.Graph().Name)
			e.raw(`, "graph": `)
			e.graph(a.Graph().Graph)
			e.byte('}')
		case ArgCustomObj:
			e.customObj(CustomObj{Name: a.Name, ClassFQN: a.Str})
		case ArgComplex:
			e.raw(`{"real": `)
			e.float(real(a.Complex()))
			e.raw(`, "imag": `)
			e.float(imag(a.Complex()))
			e.byte('}')
		case ArgNestedTensors:
			e.list(len(a.Nested()), func(i int) {
				e.list(len(a.Nested()[i]), func(j int) { e.nameRef(a.Nested()[i][j]) })
			})
		case ArgIntLists:
			e.list(len(a.IntLists()), func(i int) { e.ints(a.IntLists()[i]) })
		case ArgStringToArgument:
			encodeMap(e, a.Map(), func(v Argument) { e.argument(&v) })
		}
	})
}

// symScalar writes a SymIntArgument (SymFloat..., SymBool...): the name
// when the value is named, else its literal.
func (e *encoder) symScalar(a *Argument) {
	if a.Name != "" {
		e.union("as_name", func() { e.str(a.Name) })
		return
	}
	switch a.Kind {
	case ArgSymFloat:
		e.union("as_float", func() { e.float(a.Float) })
	case ArgSymBool:
		e.union("as_bool", func() { e.bool(a.Bool) })
	default:
		e.union("as_int", func() { e.int(a.Int) })
	}
}

func (e *encoder) optionalTensor(a *Argument) {
	if a.Name == "" {
		e.raw(`{"as_none": true}`)
		return
	}
	e.union("as_tensor", func() { e.nameRef(a.Name) })
}

func (e *encoder) tensorMeta(m *TensorMeta) {
	e.raw(`{"dtype": `)
	e.int(int64(m.DType))
	e.raw(`, "sizes": `)
	e.list(len(m.Sizes), func(i int) { e.symInt(m.Sizes[i]) })
	e.raw(`, "requires_grad": `)
	e.bool(m.RequiresGrad)
	e.raw(`, "device": `)
	e.device(&m.Device)
	e.raw(`, "strides": `)
	e.list(len(m.Strides), func(i int) { e.symInt(m.Strides[i]) })
	e.raw(`, "storage_offset": `)
	e.symInt(m.StorageOffset)
	e.raw(`, "layout": `)
	e.int(int64(m.Layout))
	e.byte('}')
}

func (e *encoder) symExpr(x *SymExpr) {
	e.raw(`{"expr_str": `)
	e.str(x.Expr)
	e.raw(`, "hint": `)
	if h := x.Hint; h == nil {
		e.raw("null")
	} else {
		e.hint(h)
	}
	e.byte('}')
}

func (e *encoder) hint(h *Hint) {
	switch h.Kind {
	case HintFloat:
		e.union("as_float", func() { e.float(h.Float) })
	case HintBool:
		e.union("as_bool", func() { e.bool(h.Bool) })
	default:
		e.union("as_int", func() { e.int(h.Int) })
	}
}

// symUnion writes a SymInt, SymFloat or SymBool: its expression when it
// has one, else the literal member (the decoder's symUnion reads both).
func (e *encoder) symUnion(expr *SymExpr, literal string, lit func()) {
	if expr != nil {
		e.union("as_expr", func() { e.symExpr(expr) })
		return
	}
	e.union(literal, lit)
}

func (e *encoder) symInt(s SymInt) { e.symUnion(s.Expr, "as_int", func() { e.int(s.Int) }) }

func (e *encoder) symFloat(s SymFloat) { e.symUnion(s.Expr, "as_float", func() { e.float(s.Float) }) }

func (e *encoder) symBool(s SymBool) { e.symUnion(s.Expr, "as_bool", func() { e.bool(s.Bool) }) }

// inputSpecTarget is the field naming a spec's state-dict or constant FQN.
var inputSpecTarget = map[InputKind]string{
	InputParameter: "parameter_name", InputBuffer: "buffer_name",
	InputTensorConstant: "tensor_constant_name", InputCustomObj: "custom_obj_name",
}

func (e *encoder) inputSpec(s *InputSpec) {
	if s.Kind == InputInvalid || int(s.Kind) >= len(inputKindNames) {
		e.fail("cannot encode InputSpec of kind %d", s.Kind)
		return
	}
	if s.Kind == InputConstant && !isConstantMember(s.Arg.Kind) {
		e.fail("constant_input %q: value of kind %s", s.Name, s.Arg.Kind)
		return
	}
	e.union(inputKindNames[s.Kind], func() {
		switch s.Kind {
		case InputUser:
			e.raw(`{"arg": `)
			e.argument(&s.Arg)
		case InputParameter, InputBuffer, InputTensorConstant:
			e.raw(`{"arg": `)
			e.nameRef(s.Arg.Name)
			e.key(inputSpecTarget[s.Kind], false)
			e.str(s.Target)
			if s.Kind == InputBuffer {
				e.raw(`, "persistent": `)
				e.bool(s.Persistent)
			}
		case InputCustomObj:
			e.raw(`{"arg": `)
			e.customObj(CustomObj{Name: s.Arg.Name, ClassFQN: s.Arg.Str})
			e.key(inputSpecTarget[s.Kind], false)
			e.str(s.Target)
		case InputToken:
			e.raw(`{"arg": `)
			e.nameRef(s.Arg.Name)
		case InputConstant:
			e.raw(`{"name": `)
			e.str(s.Name)
			e.raw(`, "value": `)
			e.argument(&s.Arg)
		}
		e.byte('}')
	})
}

func (e *encoder) outputSpec(s *OutputSpec) {
	if s.Kind == OutputInvalid || int(s.Kind) >= len(outputKindNames) {
		e.fail("cannot encode OutputSpec of kind %d", s.Kind)
		return
	}
	e.union(outputKindNames[s.Kind], func() {
		e.raw(`{"arg": `)
		switch s.Kind {
		case OutputUser, OutputLoss:
			e.argument(&s.Arg)
		default:
			e.nameRef(s.Arg.Name)
		}
		// Field order as schema.py declares it: arg first, then the target.
		if tk, ok := outputTargetKey[s.Kind]; ok {
			e.key(tk, false)
			e.str(s.Target)
		}
		e.byte('}')
	})
}

package ir

import (
	"fmt"
	"io"
	"slices"
)

// DecodeProgram reads an ExportedProgram from its schema JSON
// (models/<name>.json) in one pass. Missing fields take the schema's
// defaults, unknown struct keys are ignored, and unknown union members are
// errors. The limits of package limits bound its depth, strings, nodes and
// values. Weights are not part of the JSON; the archive reader attaches
// them.
func DecodeProgram(data []byte) (*Program, error) {
	d := newDecoder(data)
	p := new(Program)
	if err := d.whole(func() { d.program(p) }); err != nil {
		return nil, err
	}
	return p, nil
}

// DecodeProgramFrom is DecodeProgram reading from r as it goes, so that
// the JSON is never held whole: only the part being read (a string or a
// number whole, the rest in chunks). Errors from r are returned as they
// come; the limits are DecodeProgram's, and the bytes r may yield are the
// caller's to bound.
func DecodeProgramFrom(r io.Reader) (*Program, error) { return decodeProgramFrom(r, readChunk) }

func decodeProgramFrom(r io.Reader, chunk int) (*Program, error) {
	d := newStreamDecoder(r, chunk)
	p := new(Program)
	if err := d.whole(func() { d.program(p) }); err != nil {
		return nil, err
	}
	return p, nil
}

// DecodeProgramChecked is DecodeProgram, and also returns what
// p.CheckStructure() returns, found for the most part as p is read (the
// names each node uses, each tensor's sizes), while what it looks at is
// at hand, rather than in a pass over the whole program afterwards. A
// program changed since must be checked with CheckStructure.
func DecodeProgramChecked(data []byte) (p *Program, structure, err error) {
	return decodeChecked(newDecoder(data))
}

// DecodeProgramCheckedFrom is DecodeProgramChecked reading from r as
// DecodeProgramFrom does.
func DecodeProgramCheckedFrom(r io.Reader) (p *Program, structure, err error) {
	return decodeChecked(newStreamDecoder(r, readChunk))
}

func decodeChecked(d *decoder) (p *Program, structure, err error) {
	d.checks = map[*Graph]*graphCheck{}
	p = new(Program)
	if err := d.whole(func() { d.program(p) }); err != nil {
		return nil, nil, err
	}
	return p, p.checkStructure(d.checks), nil
}

func newStreamDecoder(r io.Reader, chunk int) *decoder {
	d := newDecoder(nil)
	d.src, d.eof, d.chunk = r, false, chunk
	d.keyGen = make([]uint32, 64)
	return d
}

// EncodeProgram writes the program's schema JSON, every field present as
// PyTorch 2.11 writes it.
func EncodeProgram(p *Program) ([]byte, error) {
	e := &encoder{}
	e.program(p)
	return e.buf, e.err
}

// The ir types also satisfy encoding/json's Marshaler and Unmarshaler,
// through the same decoder and encoder, for callers that embed them in
// JSON of their own (payload configs, tests).

func unmarshal(b []byte, fn func(d *decoder)) error {
	d := newDecoder(b)
	return d.whole(func() { fn(d) })
}

func marshalWith(fn func(e *encoder)) ([]byte, error) {
	e := &encoder{}
	fn(e)
	return e.buf, e.err
}

func (a *Argument) UnmarshalJSON(b []byte) error {
	return unmarshal(b, func(d *decoder) { d.argument(a) })
}

func (a Argument) MarshalJSON() ([]byte, error) {
	return marshalWith(func(e *encoder) { e.argument(&a) })
}

func (g *Graph) UnmarshalJSON(b []byte) error {
	return unmarshal(b, func(d *decoder) {
		if d.null() {
			d.fail(fmt.Errorf("graph is null"))
			return
		}
		*g = Graph{}
		d.graph(g)
	})
}

func (g *Graph) MarshalJSON() ([]byte, error) {
	return marshalWith(func(e *encoder) { e.graph(g) })
}

func (n *Node) UnmarshalJSON(b []byte) error {
	return unmarshal(b, func(d *decoder) {
		*n = Node{}
		d.node(n)
		who := n.Name
		if n.Target != "" {
			who += " (" + n.Target + ")"
		}
		d.wrap("node %s", who)
	})
}

func (n *Node) MarshalJSON() ([]byte, error) {
	return marshalWith(func(e *encoder) { e.node(n) })
}

func (s *SymInt) UnmarshalJSON(b []byte) error {
	return unmarshal(b, func(d *decoder) { d.symInt(s) })
}

func (s SymInt) MarshalJSON() ([]byte, error) {
	return marshalWith(func(e *encoder) { e.symInt(s) })
}

func (s *SymFloat) UnmarshalJSON(b []byte) error {
	return unmarshal(b, func(d *decoder) { d.symFloat(s) })
}

func (s SymFloat) MarshalJSON() ([]byte, error) {
	return marshalWith(func(e *encoder) { e.symFloat(s) })
}

func (s *SymBool) UnmarshalJSON(b []byte) error {
	return unmarshal(b, func(d *decoder) { d.symBool(s) })
}

func (s SymBool) MarshalJSON() ([]byte, error) {
	return marshalWith(func(e *encoder) { e.symBool(s) })
}

func (h *Hint) UnmarshalJSON(b []byte) error {
	return unmarshal(b, func(d *decoder) { d.hint(h) })
}

func (h Hint) MarshalJSON() ([]byte, error) {
	return marshalWith(func(e *encoder) { e.hint(&h) })
}

func (s *InputSpec) UnmarshalJSON(b []byte) error {
	return unmarshal(b, func(d *decoder) { d.inputSpec(s) })
}

func (s InputSpec) MarshalJSON() ([]byte, error) {
	return marshalWith(func(e *encoder) { e.inputSpec(&s) })
}

func (s *OutputSpec) UnmarshalJSON(b []byte) error {
	return unmarshal(b, func(d *decoder) { d.outputSpec(s) })
}

func (s OutputSpec) MarshalJSON() ([]byte, error) {
	return marshalWith(func(e *encoder) { e.outputSpec(&s) })
}

// Union member names.

// argKindOf maps a member name to its kind (a switch: it runs for every
// argument of a program, and beats a map lookup).
func argKindOf(key []byte) (ArgKind, bool) {
	switch string(key) {
	case "as_tensor":
		return ArgTensor, true
	case "as_int":
		return ArgInt, true
	case "as_sym_int":
		return ArgSymInt, true
	case "as_float":
		return ArgFloat, true
	case "as_ints":
		return ArgInts, true
	case "as_none":
		return ArgNone, true
	case "as_tensors":
		return ArgTensors, true
	case "as_floats":
		return ArgFloats, true
	case "as_string":
		return ArgString, true
	case "as_strings":
		return ArgStrings, true
	case "as_sym_ints":
		return ArgSymInts, true
	case "as_scalar_type":
		return ArgScalarType, true
	case "as_memory_format":
		return ArgMemoryFormat, true
	case "as_layout":
		return ArgLayout, true
	case "as_device":
		return ArgDevice, true
	case "as_bool":
		return ArgBool, true
	case "as_bools":
		return ArgBools, true
	case "as_sym_bool":
		return ArgSymBool, true
	case "as_sym_bools":
		return ArgSymBools, true
	case "as_optional_tensors":
		return ArgOptionalTensors, true
	case "as_graph":
		return ArgGraph, true
	case "as_custom_obj":
		return ArgCustomObj, true
	case "as_operator":
		return ArgOperator, true
	case "as_sym_float":
		return ArgSymFloat, true
	case "as_sym_floats":
		return ArgSymFloats, true
	case "as_optional_tensor":
		return ArgOptionalTensor, true
	case "as_complex":
		return ArgComplex, true
	case "as_nested_tensors":
		return ArgNestedTensors, true
	case "as_int_lists":
		return ArgIntLists, true
	case "as_string_to_argument":
		return ArgStringToArgument, true
	}
	return ArgInvalid, false
}

var inputKindByName = func() map[string]InputKind {
	m := map[string]InputKind{}
	for k := range inputKindNames {
		if inputKindNames[k] != "" {
			m[inputKindNames[k]] = InputKind(k)
		}
	}
	return m
}()

var outputKindByName = func() map[string]OutputKind {
	m := map[string]OutputKind{}
	for k := range outputKindNames {
		if outputKindNames[k] != "" {
			m[outputKindNames[k]] = OutputKind(k)
		}
	}
	return m
}()

// outputTargetKey is the field that names what an output spec updates.
var outputTargetKey = map[OutputKind]string{
	OutputBufferMutation:      "buffer_name",
	OutputGradientToParameter: "parameter_name",
	OutputGradientToUserInput: "user_input_name",
	OutputUserInputMutation:   "user_input_name",
	OutputParameterMutation:   "parameter_name",
}

// constantMembers are the members of the ConstantValue union (a subset of
// Argument's).
var constantMembers = []ArgKind{ArgNone, ArgInt, ArgFloat, ArgString, ArgBool}

func isConstantMember(k ArgKind) bool { return slices.Contains(constantMembers, k) }

func unknownMember(union, key string) error {
	return fmt.Errorf("unknown %s member %q", union, key)
}

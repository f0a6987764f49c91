package ir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// The schema encodes a union as an object with exactly one key, the member
// name. An unknown member is an error (PyTorch's loader refuses it too);
// unknown keys of plain structs are tolerated.

func unionMember(b []byte, union string) (string, json.RawMessage, error) {
	key, val, ok := scanSingleMember(b)
	if ok {
		return key, val, nil
	}
	// Not a plain one-member object: decode it properly for a precise error.
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return "", nil, fmt.Errorf("%s: want an object with one member, got %s", union, truncate(b))
	}
	if len(m) != 1 {
		keys := SortedKeys(m)
		return "", nil, fmt.Errorf("%s: want exactly one member, got %d %v", union, len(m), keys)
	}
	for k, v := range m {
		return k, v, nil
	}
	panic("unreachable")
}

// scanSingleMember reads `{"key": value}` without building a map: unions
// are most of a program's JSON, so this is the decoder's hot path. It
// reports false for anything else (escaped keys, several members, bad
// syntax), which the caller then decodes the slow, exact way. The value
// itself is validated by whoever decodes it.
func scanSingleMember(b []byte) (string, json.RawMessage, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", nil, false
	}
	i = skipSpace(b, i+1)
	if i >= len(b) || b[i] != '"' {
		return "", nil, false
	}
	start := i + 1
	end := start
	for end < len(b) && b[end] != '"' {
		if b[end] == '\\' || b[end] < 0x20 {
			return "", nil, false
		}
		end++
	}
	if end >= len(b) {
		return "", nil, false
	}
	key := string(b[start:end])
	i = skipSpace(b, end+1)
	if i >= len(b) || b[i] != ':' {
		return "", nil, false
	}
	i = skipSpace(b, i+1)
	vstart := i
	// Walk the value to its end at depth 0, then expect the closing brace.
	depth, inString := 0, false
	for ; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				if c != '}' {
					return "", nil, false
				}
				val := trimSpace(b[vstart:i])
				if len(val) == 0 || skipSpace(b, i+1) != len(b) {
					return "", nil, false
				}
				return key, val, true
			}
			depth--
		case ',':
			if depth == 0 {
				return "", nil, false
			}
		}
	}
	return "", nil, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func trimSpace(b []byte) []byte {
	j := len(b)
	for j > 0 && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	return b[:j]
}

// decodeName reads a {"name": "..."} object, the most common value of all.
func decodeName(raw []byte) (string, error) {
	if key, val, ok := scanSingleMember(raw); ok && key == "name" && len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
		inner := val[1 : len(val)-1]
		if !bytes.ContainsAny(inner, "\\\"") && !hasControl(inner) {
			return string(inner), nil
		}
	}
	var r nameRef
	err := json.Unmarshal(raw, &r)
	return r.Name, err
}

func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// decodeInt reads a JSON integer.
func decodeInt(raw []byte) (int64, error) {
	if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return v, nil
	}
	var v int64
	err := json.Unmarshal(raw, &v)
	return v, err
}

func unknownMember(union, key string) error {
	return fmt.Errorf("unknown %s member %q", union, key)
}

// single encodes a one-member union object.
func single(key string, v any) ([]byte, error) {
	val, err := marshal(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(key) + len(val) + 6)
	buf.WriteString(`{"`)
	buf.WriteString(key)
	buf.WriteString(`":`)
	buf.Write(val)
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping, so text fields (stack
// traces with `<eval_with_key>`) stay as PyTorch wrote them.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

var argKindByName = func() map[string]ArgKind {
	m := make(map[string]ArgKind, numArgKinds)
	for k := ArgNone; k < numArgKinds; k++ {
		if k != ArgToken {
			m[argKindNames[k]] = k
		}
	}
	return m
}()

type nameRef struct {
	Name string `json:"name"`
}

type complexValue struct {
	Real pyFloat `json:"real"`
	Imag pyFloat `json:"imag"`
}

// UnmarshalJSON decodes one member of the Argument union.
func (a *Argument) UnmarshalJSON(b []byte) error {
	key, raw, err := unionMember(b, "Argument")
	if err != nil {
		return err
	}
	kind, ok := argKindByName[key]
	if !ok {
		return unknownMember("Argument", key)
	}
	*a = Argument{Kind: kind}
	switch kind {
	case ArgNone:
		var v any
		err = json.Unmarshal(raw, &v) // as_none: true (any value is accepted)
	case ArgTensor:
		a.Name, err = decodeName(raw)
	case ArgTensors:
		var rs []nameRef
		if err = json.Unmarshal(raw, &rs); err == nil {
			a.List = make([]Argument, len(rs))
			for i, r := range rs {
				a.List[i] = TensorArg(r.Name)
			}
		}
	case ArgInt, ArgScalarType, ArgMemoryFormat, ArgLayout:
		a.Int, err = decodeInt(raw)
	case ArgInts:
		err = json.Unmarshal(raw, &a.Ints)
	case ArgFloat:
		var f pyFloat
		err = json.Unmarshal(raw, &f)
		a.Float = float64(f)
	case ArgFloats:
		var fs []pyFloat
		if err = json.Unmarshal(raw, &fs); err == nil {
			a.Floats = make([]float64, len(fs))
			for i, f := range fs {
				a.Floats[i] = float64(f)
			}
		}
	case ArgString, ArgOperator:
		err = json.Unmarshal(raw, &a.Str)
	case ArgStrings:
		err = json.Unmarshal(raw, &a.Strings)
	case ArgBool:
		err = json.Unmarshal(raw, &a.Bool)
	case ArgBools:
		err = json.Unmarshal(raw, &a.Bools)
	case ArgSymInt, ArgSymFloat, ArgSymBool:
		err = a.decodeSymScalar(kind, raw)
	case ArgSymInts, ArgSymFloats, ArgSymBools:
		var elems []json.RawMessage
		if err = json.Unmarshal(raw, &elems); err == nil {
			ek := map[ArgKind]ArgKind{ArgSymInts: ArgSymInt, ArgSymFloats: ArgSymFloat, ArgSymBools: ArgSymBool}[kind]
			a.List = make([]Argument, len(elems))
			for i, e := range elems {
				a.List[i].Kind = ek
				if err = a.List[i].decodeSymScalar(ek, e); err != nil {
					break
				}
			}
		}
	case ArgOptionalTensor:
		err = a.decodeOptionalTensor(raw)
	case ArgOptionalTensors:
		var elems []json.RawMessage
		if err = json.Unmarshal(raw, &elems); err == nil {
			a.List = make([]Argument, len(elems))
			for i, e := range elems {
				a.List[i].Kind = ArgOptionalTensor
				if err = a.List[i].decodeOptionalTensor(e); err != nil {
					break
				}
			}
		}
	case ArgDevice:
		a.Device = new(Device)
		err = json.Unmarshal(raw, a.Device)
	case ArgGraph:
		a.Graph = new(GraphArgument)
		err = json.Unmarshal(raw, a.Graph)
		if err == nil && a.Graph.Graph == nil {
			err = fmt.Errorf("graph %q has no graph", a.Graph.Name)
		}
	case ArgCustomObj:
		var c CustomObj
		err = json.Unmarshal(raw, &c)
		a.Name, a.Str = c.Name, c.ClassFQN
	case ArgComplex:
		var c complexValue
		err = json.Unmarshal(raw, &c)
		a.Complex = complex(float64(c.Real), float64(c.Imag))
	case ArgNestedTensors:
		var ls [][]nameRef
		if err = json.Unmarshal(raw, &ls); err == nil {
			a.Nested = make([][]string, len(ls))
			for i, l := range ls {
				a.Nested[i] = make([]string, len(l))
				for j, r := range l {
					a.Nested[i][j] = r.Name
				}
			}
		}
	case ArgIntLists:
		err = json.Unmarshal(raw, &a.IntLists)
	case ArgStringToArgument:
		err = json.Unmarshal(raw, &a.Map)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

func (a *Argument) decodeSymScalar(kind ArgKind, raw json.RawMessage) error {
	union := map[ArgKind]string{ArgSymInt: "SymIntArgument", ArgSymFloat: "SymFloatArgument", ArgSymBool: "SymBoolArgument"}[kind]
	literal := map[ArgKind]string{ArgSymInt: "as_int", ArgSymFloat: "as_float", ArgSymBool: "as_bool"}[kind]
	key, v, err := unionMember(raw, union)
	if err != nil {
		return err
	}
	switch key {
	case "as_name":
		if err := json.Unmarshal(v, &a.Name); err != nil {
			return err
		}
		if a.Name == "" {
			return fmt.Errorf("%s: empty name", union)
		}
		return nil
	case literal:
		switch kind {
		case ArgSymInt:
			return json.Unmarshal(v, &a.Int)
		case ArgSymFloat:
			var f pyFloat
			err := json.Unmarshal(v, &f)
			a.Float = float64(f)
			return err
		default:
			return json.Unmarshal(v, &a.Bool)
		}
	}
	return unknownMember(union, key)
}

func (a *Argument) decodeOptionalTensor(raw json.RawMessage) error {
	key, v, err := unionMember(raw, "OptionalTensorArgument")
	if err != nil {
		return err
	}
	switch key {
	case "as_tensor":
		var r nameRef
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		if r.Name == "" {
			return fmt.Errorf("OptionalTensorArgument: empty tensor name")
		}
		a.Name = r.Name
		return nil
	case "as_none":
		return nil
	}
	return unknownMember("OptionalTensorArgument", key)
}

// MarshalJSON encodes the Argument as its union member.
func (a Argument) MarshalJSON() ([]byte, error) {
	key := a.Kind.String()
	var v any
	switch a.Kind {
	case ArgNone:
		v = true
	case ArgTensor:
		v = nameRef{a.Name}
	case ArgTensors:
		rs := make([]nameRef, len(a.List))
		for i, e := range a.List {
			rs[i] = nameRef{e.Name}
		}
		v = rs
	case ArgInt, ArgScalarType, ArgMemoryFormat, ArgLayout:
		v = a.Int
	case ArgInts:
		v = nonNil(a.Ints)
	case ArgFloat:
		v = pyFloat(a.Float)
	case ArgFloats:
		fs := make([]pyFloat, len(a.Floats))
		for i, f := range a.Floats {
			fs[i] = pyFloat(f)
		}
		v = fs
	case ArgString, ArgOperator:
		v = a.Str
	case ArgStrings:
		v = nonNil(a.Strings)
	case ArgBool:
		v = a.Bool
	case ArgBools:
		v = nonNil(a.Bools)
	case ArgSymInt, ArgSymFloat, ArgSymBool:
		v = elemMarshaler{a}
	case ArgSymInts, ArgSymFloats, ArgSymBools, ArgOptionalTensors:
		l := make([]json.Marshaler, len(a.List))
		for i := range a.List {
			l[i] = elemMarshaler{a.List[i]}
		}
		v = l
	case ArgOptionalTensor:
		v = elemMarshaler{a}
	case ArgDevice:
		if a.Device == nil {
			return nil, fmt.Errorf("as_device without a device")
		}
		v = a.Device
	case ArgGraph:
		if a.Graph == nil {
			return nil, fmt.Errorf("as_graph without a graph")
		}
		v = a.Graph
	case ArgCustomObj:
		v = CustomObj{Name: a.Name, ClassFQN: a.Str}
	case ArgComplex:
		v = complexValue{pyFloat(real(a.Complex)), pyFloat(imag(a.Complex))}
	case ArgNestedTensors:
		ls := make([][]nameRef, len(a.Nested))
		for i, l := range a.Nested {
			ls[i] = make([]nameRef, len(l))
			for j, n := range l {
				ls[i][j] = nameRef{n}
			}
		}
		v = ls
	case ArgIntLists:
		v = nonNil(a.IntLists)
	case ArgStringToArgument:
		if a.Map == nil {
			v = map[string]Argument{}
		} else {
			v = a.Map
		}
	default:
		return nil, fmt.Errorf("cannot encode Argument of kind %s", a.Kind)
	}
	return single(key, v)
}

type elemMarshaler struct{ a Argument }

func (e elemMarshaler) MarshalJSON() ([]byte, error) {
	if e.a.Kind == ArgOptionalTensor {
		return single(optionalTensor(e.a))
	}
	return single(symScalar(e.a))
}

func symScalar(a Argument) (string, any) {
	if a.Name != "" {
		return "as_name", a.Name
	}
	switch a.Kind {
	case ArgSymFloat:
		return "as_float", pyFloat(a.Float)
	case ArgSymBool:
		return "as_bool", a.Bool
	}
	return "as_int", a.Int
}

func optionalTensor(a Argument) (string, any) {
	if a.Name == "" {
		return "as_none", true
	}
	return "as_tensor", nameRef{a.Name}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Sym scalars of the value tables: SymInt = as_expr | as_int, and so on.

func (s *SymInt) UnmarshalJSON(b []byte) error {
	key, v, err := unionMember(b, "SymInt")
	if err != nil {
		return err
	}
	*s = SymInt{}
	switch key {
	case "as_expr":
		s.Expr = new(SymExpr)
		return json.Unmarshal(v, s.Expr)
	case "as_int":
		s.Int, err = decodeInt(v)
		return err
	}
	return unknownMember("SymInt", key)
}

func (s SymInt) MarshalJSON() ([]byte, error) {
	if s.Expr != nil {
		return single("as_expr", s.Expr)
	}
	return single("as_int", s.Int)
}

func (s *SymFloat) UnmarshalJSON(b []byte) error {
	key, v, err := unionMember(b, "SymFloat")
	if err != nil {
		return err
	}
	*s = SymFloat{}
	switch key {
	case "as_expr":
		s.Expr = new(SymExpr)
		return json.Unmarshal(v, s.Expr)
	case "as_float":
		var f pyFloat
		err := json.Unmarshal(v, &f)
		s.Float = float64(f)
		return err
	}
	return unknownMember("SymFloat", key)
}

func (s SymFloat) MarshalJSON() ([]byte, error) {
	if s.Expr != nil {
		return single("as_expr", s.Expr)
	}
	return single("as_float", pyFloat(s.Float))
}

func (s *SymBool) UnmarshalJSON(b []byte) error {
	key, v, err := unionMember(b, "SymBool")
	if err != nil {
		return err
	}
	*s = SymBool{}
	switch key {
	case "as_expr":
		s.Expr = new(SymExpr)
		return json.Unmarshal(v, s.Expr)
	case "as_bool":
		return json.Unmarshal(v, &s.Bool)
	}
	return unknownMember("SymBool", key)
}

func (s SymBool) MarshalJSON() ([]byte, error) {
	if s.Expr != nil {
		return single("as_expr", s.Expr)
	}
	return single("as_bool", s.Bool)
}

func (h *Hint) UnmarshalJSON(b []byte) error {
	key, v, err := unionMember(b, "SymExprHint")
	if err != nil {
		return err
	}
	*h = Hint{}
	switch key {
	case "as_int":
		h.Kind = HintInt
		return json.Unmarshal(v, &h.Int)
	case "as_float":
		h.Kind = HintFloat
		var f pyFloat
		err := json.Unmarshal(v, &f)
		h.Float = float64(f)
		return err
	case "as_bool":
		h.Kind = HintBool
		return json.Unmarshal(v, &h.Bool)
	}
	return unknownMember("SymExprHint", key)
}

func (h Hint) MarshalJSON() ([]byte, error) {
	switch h.Kind {
	case HintFloat:
		return single("as_float", pyFloat(h.Float))
	case HintBool:
		return single("as_bool", h.Bool)
	}
	return single("as_int", h.Int)
}

// Signature specs.

var inputKindByName = func() map[string]InputKind {
	m := map[string]InputKind{}
	for k := range inputKindNames {
		if inputKindNames[k] != "" {
			m[inputKindNames[k]] = InputKind(k)
		}
	}
	return m
}()

type tokenArg struct {
	Name string `json:"name"`
}

// inputSpecBody holds every field any InputSpec member has.
type inputSpecBody struct {
	Arg                json.RawMessage `json:"arg"`
	ParameterName      string          `json:"parameter_name"`
	BufferName         string          `json:"buffer_name"`
	Persistent         *bool           `json:"persistent"`
	TensorConstantName string          `json:"tensor_constant_name"`
	CustomObjName      string          `json:"custom_obj_name"`
	Name               string          `json:"name"`
	Value              json.RawMessage `json:"value"`
}

func (s *InputSpec) UnmarshalJSON(b []byte) error {
	key, raw, err := unionMember(b, "InputSpec")
	if err != nil {
		return err
	}
	kind, ok := inputKindByName[key]
	if !ok {
		return unknownMember("InputSpec", key)
	}
	var body inputSpecBody
	if err := json.Unmarshal(raw, &body); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	*s = InputSpec{Kind: kind}
	switch kind {
	case InputUser:
		err = decodeArg(body.Arg, &s.Arg)
	case InputParameter, InputBuffer, InputTensorConstant:
		var r nameRef
		err = json.Unmarshal(body.Arg, &r)
		s.Arg = TensorArg(r.Name)
		s.Target = map[InputKind]string{InputParameter: body.ParameterName, InputBuffer: body.BufferName, InputTensorConstant: body.TensorConstantName}[kind]
		if kind == InputBuffer {
			if body.Persistent == nil {
				err = fmt.Errorf("buffer %q has no persistent flag", s.Target)
			} else {
				s.Persistent = *body.Persistent
			}
		}
	case InputCustomObj:
		var c CustomObj
		err = json.Unmarshal(body.Arg, &c)
		s.Arg = Argument{Kind: ArgCustomObj, Name: c.Name, Str: c.ClassFQN}
		s.Target = body.CustomObjName
	case InputToken:
		var t tokenArg
		err = json.Unmarshal(body.Arg, &t)
		s.Arg = Argument{Kind: ArgToken, Name: t.Name}
	case InputConstant:
		s.Name = body.Name
		err = decodeConstantValue(body.Value, &s.Arg)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

func decodeArg(raw json.RawMessage, a *Argument) error {
	if len(raw) == 0 {
		return fmt.Errorf("missing arg")
	}
	return json.Unmarshal(raw, a)
}

var constantMembers = []ArgKind{ArgNone, ArgInt, ArgFloat, ArgString, ArgBool}

// decodeConstantValue reads the ConstantValue union (a subset of Argument).
func decodeConstantValue(raw json.RawMessage, a *Argument) error {
	if len(raw) == 0 {
		return fmt.Errorf("missing value")
	}
	if err := json.Unmarshal(raw, a); err != nil {
		return err
	}
	if !slices.Contains(constantMembers, a.Kind) {
		return unknownMember("ConstantValue", a.Kind.String())
	}
	return nil
}

func (s InputSpec) MarshalJSON() ([]byte, error) {
	key := s.Kind.String()
	switch s.Kind {
	case InputUser:
		return single(key, struct {
			Arg Argument `json:"arg"`
		}{s.Arg})
	case InputParameter:
		return single(key, struct {
			Arg  nameRef `json:"arg"`
			Name string  `json:"parameter_name"`
		}{nameRef{s.Arg.Name}, s.Target})
	case InputBuffer:
		return single(key, struct {
			Arg        nameRef `json:"arg"`
			Name       string  `json:"buffer_name"`
			Persistent bool    `json:"persistent"`
		}{nameRef{s.Arg.Name}, s.Target, s.Persistent})
	case InputTensorConstant:
		return single(key, struct {
			Arg  nameRef `json:"arg"`
			Name string  `json:"tensor_constant_name"`
		}{nameRef{s.Arg.Name}, s.Target})
	case InputCustomObj:
		return single(key, struct {
			Arg  CustomObj `json:"arg"`
			Name string    `json:"custom_obj_name"`
		}{CustomObj{s.Arg.Name, s.Arg.Str}, s.Target})
	case InputToken:
		return single(key, struct {
			Arg tokenArg `json:"arg"`
		}{tokenArg{s.Arg.Name}})
	case InputConstant:
		if !slices.Contains(constantMembers, s.Arg.Kind) {
			return nil, fmt.Errorf("constant_input %q: value of kind %s", s.Name, s.Arg.Kind)
		}
		return single(key, struct {
			Name  string   `json:"name"`
			Value Argument `json:"value"`
		}{s.Name, s.Arg})
	}
	return nil, fmt.Errorf("cannot encode InputSpec of kind %d", s.Kind)
}

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

func (s *OutputSpec) UnmarshalJSON(b []byte) error {
	key, raw, err := unionMember(b, "OutputSpec")
	if err != nil {
		return err
	}
	kind, ok := outputKindByName[key]
	if !ok {
		return unknownMember("OutputSpec", key)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	*s = OutputSpec{Kind: kind}
	switch kind {
	case OutputUser, OutputLoss:
		err = decodeArg(body["arg"], &s.Arg)
	case OutputToken:
		var t tokenArg
		err = json.Unmarshal(body["arg"], &t)
		s.Arg = Argument{Kind: ArgToken, Name: t.Name}
	default:
		var r nameRef
		if err = json.Unmarshal(body["arg"], &r); err == nil {
			s.Arg = TensorArg(r.Name)
			if t, ok := body[outputTargetKey[kind]]; ok {
				err = json.Unmarshal(t, &s.Target)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

func (s OutputSpec) MarshalJSON() ([]byte, error) {
	key := s.Kind.String()
	switch s.Kind {
	case OutputUser, OutputLoss:
		return single(key, struct {
			Arg Argument `json:"arg"`
		}{s.Arg})
	case OutputToken:
		return single(key, struct {
			Arg tokenArg `json:"arg"`
		}{tokenArg{s.Arg.Name}})
	case OutputInvalid:
		return nil, fmt.Errorf("cannot encode OutputSpec of kind %d", s.Kind)
	}
	tk, ok := outputTargetKey[s.Kind]
	if !ok {
		return nil, fmt.Errorf("cannot encode OutputSpec of kind %d", s.Kind)
	}
	// Field order as schema.py declares it: arg first, then the target.
	argJSON, err := marshal(nameRef{s.Arg.Name})
	if err != nil {
		return nil, err
	}
	nameJSON, _ := marshal(s.Target)
	body := []byte(`{"arg":` + string(argJSON) + `,"` + tk + `":` + string(nameJSON) + `}`)
	return single(key, json.RawMessage(body))
}

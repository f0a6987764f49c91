package ir

import (
	"encoding/json"
	"slices"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// everyArgument has one argument of each member of the union, with the
// value names it refers to.
func everyArgument() []struct {
	arg  Argument
	refs []string
} {
	idx := int64(1)
	g := &Graph{Inputs: []Argument{TensorArg("x")}, Outputs: []Argument{TensorArg("x")},
		TensorValues: map[string]*TensorMeta{"x": {DType: Float32, Sizes: []SymInt{IntSym(2)}, Strides: []SymInt{IntSym(1)}, Layout: Strided}}}
	return []struct {
		arg  Argument
		refs []string
	}{
		{NoneArg(), nil},
		{TensorArg("a"), []string{"a"}},
		{TensorsArg("a", "b"), []string{"a", "b"}},
		{IntArg(-3), nil},
		{IntsArg([]int64{1, -1}), nil},
		{FloatArg(0.25), nil},
		{FloatsArg([]float64{1.5, -2}), nil},
		{StringArg("tanh"), nil},
		{StringsArg([]string{"a", "b"}), nil},
		{SymIntRef("s"), []string{"s"}},
		{SymIntLit(7), nil},
		{Argument{Kind: ArgSymInts, List: []Argument{SymIntLit(1), SymIntRef("s")}}, []string{"s"}},
		{ScalarTypeArg(BFloat16), nil},
		{Argument{Kind: ArgMemoryFormat, Int: int64(ChannelsLast)}, nil},
		{Argument{Kind: ArgLayout, Int: int64(Strided)}, nil},
		{DeviceArg(&Device{Type: "cuda", Index: &idx}), nil},
		{BoolArg(true), nil},
		{BoolsArg([]bool{true, false}), nil},
		{SymBoolRef("b"), []string{"b"}},
		{Argument{Kind: ArgSymBool, Bool: true}, nil},
		{Argument{Kind: ArgSymBools, List: []Argument{{Kind: ArgSymBool, Bool: false}, SymBoolRef("b")}}, []string{"b"}},
		{Argument{Kind: ArgOptionalTensors, List: []Argument{{Kind: ArgOptionalTensor, Name: "a"}, {Kind: ArgOptionalTensor}}}, []string{"a"}},
		{GraphArg(&GraphArgument{Name: "true_graph_0", Graph: g}), nil},
		{Argument{Kind: ArgCustomObj, Name: "obj", Str: "__torch__.torch.classes.Foo"}, []string{"obj"}},
		{Argument{Kind: ArgOperator, Str: "aten.add.Tensor"}, nil},
		{SymFloatRef("f"), []string{"f"}},
		{Argument{Kind: ArgSymFloat, Float: 0.5}, nil},
		{Argument{Kind: ArgSymFloats, List: []Argument{{Kind: ArgSymFloat, Float: 2}, SymFloatRef("f")}}, []string{"f"}},
		{Argument{Kind: ArgOptionalTensor, Name: "a"}, []string{"a"}},
		{Argument{Kind: ArgOptionalTensor}, nil},
		{ComplexArg(complex(1, -2)), nil},
		{NestedTensorsArg([][]string{{"a"}, {"b", "c"}}), []string{"a", "b", "c"}},
		{IntListsArg([][]int64{{1}, {2, 3}}), nil},
		{StringToArgumentArg(map[string]Argument{"y": TensorArg("b"), "x": TensorArg("a")}), []string{"a", "b"}},
	}
}

// TestEveryArgumentKind: each union member encodes as the schema writes it
// (one key, the member's name), decodes to itself, clones deeply, and
// reports and renames the values it refers to.
func TestEveryArgumentKind(t *testing.T) {
	seen := map[ArgKind]bool{}
	for _, c := range everyArgument() {
		a := c.arg
		seen[a.Kind] = true
		data, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("%s: %v", a.Kind, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil || len(m) != 1 || m[a.Kind.String()] == nil {
			t.Errorf("%s encodes as %s", a.Kind, data)
		}
		var back Argument
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: decoding %s: %v", a.Kind, data, err)
		}
		if diff := cmp.Diff(a, back, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: round trip differs:\n%s", a.Kind, diff)
		}
		if got := a.Refs(); !slices.Equal(got, c.refs) {
			t.Errorf("%s: refs %v, want %v", a.Kind, got, c.refs)
		}
		clone := a.Clone()
		clone.Rename(func(s string) string { return s + "_2" })
		if got := a.Refs(); !slices.Equal(got, c.refs) {
			t.Errorf("%s: renaming the clone renamed the original: %v", a.Kind, got)
		}
		var want []string
		for _, r := range c.refs {
			want = append(want, r+"_2")
		}
		if got := clone.Refs(); !slices.Equal(got, want) {
			t.Errorf("%s: renamed refs %v, want %v", a.Kind, got, want)
		}
	}
	for k := ArgNone; k < ArgToken; k++ {
		if !seen[k] {
			t.Errorf("no case for %s", k)
		}
	}
}

func TestSpecsRoundTrip(t *testing.T) {
	ins := []InputSpec{
		{Kind: InputUser, Arg: TensorArg("x")},
		{Kind: InputParameter, Arg: TensorArg("p"), Target: "l.weight"},
		{Kind: InputBuffer, Arg: TensorArg("b"), Target: "l.count", Persistent: true},
		{Kind: InputTensorConstant, Arg: TensorArg("c"), Target: "lifted_tensor_0"},
		{Kind: InputCustomObj, Arg: Argument{Kind: ArgCustomObj, Name: "o", Str: "Foo"}, Target: "obj"},
		{Kind: InputToken, Arg: Argument{Kind: ArgToken, Name: "tok"}},
		{Kind: InputConstant, Name: "flag", Arg: BoolArg(true)},
	}
	outs := []OutputSpec{
		{Kind: OutputToken, Arg: Argument{Kind: ArgToken, Name: "tok"}},
		{Kind: OutputBufferMutation, Arg: TensorArg("b2"), Target: "l.count"},
		{Kind: OutputUserInputMutation, Arg: TensorArg("x2"), Target: "x"},
		{Kind: OutputParameterMutation, Arg: TensorArg("p2"), Target: "l.weight"},
		{Kind: OutputUser, Arg: TensorArg("y")},
		{Kind: OutputLoss, Arg: TensorArg("loss")},
		{Kind: OutputGradientToParameter, Arg: TensorArg("g"), Target: "l.weight"},
		{Kind: OutputGradientToUserInput, Arg: TensorArg("gx"), Target: "x"},
	}
	for _, s := range ins {
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back InputSpec
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if diff := cmp.Diff(s, back, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: %s", s.Kind, diff)
		}
	}
	for _, s := range outs {
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back OutputSpec
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if diff := cmp.Diff(s, back, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: %s", s.Kind, diff)
		}
	}
	var s InputSpec
	if err := json.Unmarshal([]byte(`{"constant_input": {"name": "t", "value": {"as_tensor": {"name": "x"}}}}`), &s); err == nil {
		t.Error("a constant_input holding a tensor was accepted")
	}
	if err := json.Unmarshal([]byte(`{"buffer": {"arg": {"name": "b"}, "buffer_name": "c"}}`), &s); err == nil {
		t.Error("a buffer without its persistent flag was accepted")
	}
}

// TestArgumentSize: a program holds one Argument per node input and
// output, so a member added inline costs every node. The rare members
// belong in ArgExtra (272 bytes with all of them inline).
func TestArgumentSize(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("sizes are for 64-bit platforms")
	}
	if got := unsafe.Sizeof(Argument{}); got > 112 {
		t.Errorf("Argument is %d bytes, want at most 112: put rarely used members in ArgExtra", got)
	}
}

// TestArgExtraAbsent: the readers of the rare members return zero values
// on an argument of another kind, whose Extra is nil.
func TestArgExtraAbsent(t *testing.T) {
	a := TensorArg("x")
	if a.Extra != nil || a.Floats() != nil || a.Bools() != nil || a.Strings() != nil || a.Device() != nil ||
		a.Graph() != nil || a.Complex() != 0 || a.IntLists() != nil || a.Nested() != nil || a.Map() != nil {
		t.Errorf("TensorArg has rare members: %+v", a)
	}
	if got := FloatsArg([]float64{1}).Floats(); len(got) != 1 || got[0] != 1 {
		t.Errorf("FloatsArg(1).Floats() = %v", got)
	}
}

func TestIntList(t *testing.T) {
	for _, c := range []struct {
		a             Argument
		want          []int64
		symbolic, bad bool
	}{
		{IntsArg([]int64{2, -1}), []int64{2, -1}, false, false},
		{IntArg(3), []int64{3}, false, false},
		{Argument{Kind: ArgSymInts, List: []Argument{SymIntLit(4), SymIntLit(5)}}, []int64{4, 5}, false, false},
		{Argument{Kind: ArgSymInts, List: []Argument{SymIntLit(4), SymIntRef("s0")}}, nil, true, false},
		{FloatArg(1), nil, false, true},
	} {
		v, symbolic, ok := c.a.IntList()
		if symbolic != c.symbolic || ok == c.bad || !slices.Equal(v, c.want) {
			t.Errorf("%s: got %v, symbolic %v, ok %v", c.a.Kind, v, symbolic, ok)
		}
	}
}

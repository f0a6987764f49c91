package ir

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/seam-rt/seam/limits"
)

// slowForm writes data so that none of the decoder's whole-value fast
// paths applies (a space after every '{', before every ':' and after
// every '"' that opens a name), leaving its meaning alone: what it
// decodes to must be what data decodes to.
func slowForm(data []byte) []byte {
	data = bytes.ReplaceAll(data, []byte(`{"`), []byte(`{ "`))
	return bytes.ReplaceAll(data, []byte(`": `), []byte(`" : `))
}

var byteOffset = regexp.MustCompile(`at byte \d+`)

// TestFastPathsDecodeAsTokens: the fast paths (plain strings, keys,
// integers, {"name": ...}, {"as_tensor": ...}, {"as_int": N}, devices)
// decode what reading token by token decodes, for every argument kind,
// escaped and non-ASCII names, and at the edges of the depth and string
// limits, where they must refuse what the tokens refuse.
func TestFastPathsDecodeAsTokens(t *testing.T) {
	g := &Graph{Inputs: []Argument{TensorArg("x")}, Outputs: []Argument{TensorArg("é\"x\\")}}
	n := &Node{Target: "torch.ops.aten.t.default", Name: "n\u00e9\U0001F600",
		Outputs:  []Argument{TensorArg("é\"x\\"), TensorArg(""), TensorArg("plain_name_longer_than_eight")},
		Metadata: MetadataOf(map[string]string{"stack_trace": "a\nb", "k": "v"})}
	for _, c := range everyArgument() {
		n.Inputs = append(n.Inputs, NamedArgument{Name: c.arg.Kind.String(), Arg: c.arg, Kind: KindKeyword})
	}
	n.Inputs = append(n.Inputs, NamedArgument{Name: "i", Arg: IntArg(-123456789012345678)},
		NamedArgument{Name: "j", Arg: IntArg(1234567890123456789)}, NamedArgument{Name: "z", Arg: IntArg(0)})
	g.Nodes = []*Node{n}
	g.TensorValues = map[string]*TensorMeta{"x": {DType: Float32, Sizes: []SymInt{IntSym(6), IntSym(-1)},
		Device: Device{Type: "cpu"}, Strides: []SymInt{IntSym(1 << 40)}, StorageOffset: IntSym(0)}}
	data, err := EncodeProgram(&Program{Graph: g, SchemaVersion: CurrentSchema})
	if err != nil {
		t.Fatal(err)
	}
	same := func(label string, in []byte) {
		t.Helper()
		fast, ferr := DecodeProgram(in)
		slow, serr := DecodeProgram(slowForm(in))
		// The same error, but for its offset (the slow form is longer).
		if (ferr == nil) != (serr == nil) || ferr != nil && byteOffset.ReplaceAllString(ferr.Error(), "") != byteOffset.ReplaceAllString(serr.Error(), "") {
			t.Fatalf("%s: fast paths %v, tokens %v", label, ferr, serr)
		}
		if ferr != nil {
			return
		}
		a, _ := EncodeProgram(fast)
		b, _ := EncodeProgram(slow)
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: fast paths and tokens decode differently:\n%s\n%s", label, a, b)
		}
	}
	same("program", data)
	defer limits.Reset()
	for depth := 1; depth <= 12; depth++ {
		if err := limits.Set("json-depth", fmt.Sprint(depth)); err != nil {
			t.Fatal(err)
		}
		same(fmt.Sprintf("depth %d", depth), data)
	}
	limits.Reset()
	for size := 0; size <= 30; size++ {
		if err := limits.Set("string-bytes", fmt.Sprint(size)); err != nil {
			t.Fatal(err)
		}
		same(fmt.Sprintf("strings of %d bytes", size), data)
	}
	limits.Reset()
	// Near misses of each fast path's pattern.
	for _, v := range []string{
		`{"as_tensor": {"name": "x" }}`, `{"as_tensor": {"name": "x"}, "as_int": 1}`, `{"as_tensor": {"name": "x", "k": 1}}`,
		`{"as_tensor": {"name": "x\u0041"}}`, `{"as_tensor": {"name": "x`, `{"as_tensor": {"name": 1}}`,
		`{"as_ints": [1, -0, 2]}`, `{"as_ints": [01]}`, `{"as_ints": [1.0]}`, `{"as_ints": [12345678901234567890]}`,
		`{"as_ints": [-9223372036854775808, 9223372036854775807]}`, `{"as_ints": [1e3]}`, `{"as_ints": [-]}`,
	} {
		in := strings.Replace(string(data), `{"as_tensor": {"name": "x"}}`, v, 1)
		same(v, []byte(in))
	}
	// Near misses of the sizes read in one loop.
	const sizes = `"sizes": [{"as_int": 6}, {"as_int": -1}]`
	if !bytes.Contains(data, []byte(sizes)) {
		t.Fatalf("no %s in the program", sizes)
	}
	for _, v := range []string{
		`[]`, `[{"as_int": 1}]`, `[{"as_int": 1},{"as_int": 2}]`, `[{"as_int": 1}, {"as_int": 2} ]`, `[ {"as_int": 1}]`,
		`[{"as_int": 01}]`, `[{"as_int": 1.0}]`, `[{"as_int": 1e3}]`, `[{"as_int": -}]`, `[{"as_int": 12345678901234567890}]`,
		`[{"as_int": -9223372036854775808}, {"as_int": 9223372036854775807}]`, `[{"as_int": 1, "as_int": 2}]`,
		`[{"as_int": 1}, {"as_expr": {"expr_str": "s0", "hint": {"as_int": 4}}}]`, `[{"as_int": 1}, null]`, `[{"as_int": 1}, ]`,
		`[{"as_int": 1}, {"as_int": 2}, {"as_int": 3}, {"as_int": 4}, {"as_int": 5}, {"as_int": 6}, {"as_int": 7}, {"as_int": 8}]`,
		`[{"as_int": 1}, {"as_int": 2}, {"as_int": 3}, {"as_int": 4}, {"as_int": 5}, {"as_int": 6}, {"as_int": 7}, {"as_int": 8}, {"as_int": 9}]`,
		`[{"as_int": 1}`, `[{"as_int": 1}}`, `[{"as_int": 1}]]`,
	} {
		in := strings.Replace(string(data), sizes, `"sizes": `+v, 1)
		same(v, []byte(in))
	}
	// At the edges of the depth and value limits, with the sizes the
	// deepest value and the last values of the program.
	sized := []byte(`{"graph_module": {"graph": {"tensor_values": {"x": {"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 3}]}}}}, "schema_version": {"major": 8, "minor": 17}}`)
	for _, limit := range []struct {
		name string
		max  int
	}{{"json-depth", 8}, {"values", 6}} {
		for n := 1; n <= limit.max; n++ {
			if err := limits.Set(limit.name, fmt.Sprint(n)); err != nil {
				t.Fatal(err)
			}
			_, fast := DecodeProgram(sized)
			_, slow := DecodeProgram(slowForm(sized))
			if byteOffset.ReplaceAllString(fmt.Sprint(fast), "") != byteOffset.ReplaceAllString(fmt.Sprint(slow), "") {
				t.Errorf("%s %d: %v, token by token %v", limit.name, n, fast, slow)
			}
		}
		limits.Reset()
	}
}

// TestFieldsInAnyOrder: the keys of nodes, their arguments and tensor
// metadata are expected in the schema's order, but read in any: keys
// reversed, left out, unknown or given twice decode as they would token
// by token, the last of a key given twice taking effect.
func TestFieldsInAnyOrder(t *testing.T) {
	meta := func(fields string) string {
		return `{"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [], "tensor_values": {"x": ` + fields +
			`}}}, "schema_version": {"major": 8, "minor": 17}}`
	}
	node := func(fields string) string { return minimal(fields) }
	inOrder := map[string]string{
		"node":     node(`{"target": "t", "inputs": [{"name": "a", "arg": {"as_int": 1}, "kind": 2}], "outputs": [], "metadata": {"k": "v"}, "is_hop_single_tensor_return": true, "name": "n"}`),
		"argument": node(`{"target": "t", "inputs": [{"name": "a", "arg": {"as_int": 1}, "kind": 2}], "name": "n"}`),
		"meta":     meta(`{"dtype": 7, "sizes": [{"as_int": 2}], "requires_grad": true, "device": {"type": "cpu", "index": 1}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 3}, "layout": 2}`),
	}
	// Metadata keys are expected as the last node's: keys that change,
	// move, repeat or are written with escapes read as tokens read them.
	var nodes []string
	for i, md := range []string{
		`{"stack_trace": "a", "nn_module_stack": "m", "torch_fn": "f"}`,
		`{"stack_trace": "b", "nn_module_stack": "m", "torch_fn": "g"}`,
		`{"nn_module_stack": "m", "stack_trace": "c"}`,
		`{"stack_trace": "d", "stack_trace": "e", "nn_module_stack": "m", "from_node": "x", "torch_fn": "h"}`,
		`{"stack\u005ftrace": "f", "a\"b": "1", "nn_module_stack": "m"}`,
		`{"stack_trace": "g", "a\"b": "2", "a\\": "3", "nn_module_stack": "m"}`,
		`{}`, `{"stack_trace": "h"}`, `{"k0": "", "k1": "", "k2": "", "k3": "", "k4": "", "k5": "", "k6": "", "k7": "", "k8": "", "k9": ""}`,
		`{"k0": "", "k1": "", "k2": "", "k3": "", "k4": "", "k5": "", "k6": "", "k7": "", "k8": "", "k9": "", "k10": ""}`,
		`{"stack_trace": "i", "nn_module_stack": "m", "torch_fn": "f"}`,
	} {
		nodes = append(nodes, fmt.Sprintf(`{"target": "t", "metadata": %s, "name": "n%d"}`, md, i))
	}
	in := []byte(minimal(strings.Join(nodes, ", ")))
	fast, ferr := DecodeProgram(in)
	slow, serr := DecodeProgram(slowForm(in))
	if ferr != nil || serr != nil {
		t.Fatalf("metadata: %v, token by token %v", ferr, serr)
	}
	if a, b := encodeOrErr(fast), encodeOrErr(slow); a != b {
		t.Errorf("metadata: decodes as\n%s\ntoken by token\n%s", a, b)
	}

	// A key learnt is matched as it reads, never as the text it unescapes to.
	learnt := fmt.Sprintf(`{"target": "t", "metadata": %s, "name": "a"}`, `{"stack_trace": "s", "a\"b": "1"}`)
	bad := fmt.Sprintf(`{"target": "t", "metadata": %s, "name": "b"}`, `{"stack_trace": "s", "a"b": "1"}`)
	if _, err := DecodeProgram([]byte(minimal(learnt + ", " + bad))); err == nil {
		t.Errorf("metadata: %s read after %s", bad, learnt)
	}

	// Keys expected are refused past the string limit, as any key is.
	defer limits.Reset()
	for label, in := range inOrder {
		for size := 0; size <= 30; size++ {
			if err := limits.Set("string-bytes", fmt.Sprint(size)); err != nil {
				t.Fatal(err)
			}
			_, fast := DecodeProgram([]byte(in))
			_, slow := DecodeProgram(slowForm([]byte(in)))
			if label == "node" && size < len("is_hop_single_tensor_return") && fast == nil || byteOffset.ReplaceAllString(fmt.Sprint(fast), "") != byteOffset.ReplaceAllString(fmt.Sprint(slow), "") {
				t.Fatalf("%s, strings of %d bytes: %v, token by token %v", label, size, fast, slow)
			}
		}
	}
	limits.Reset()
	for label, c := range map[string]struct{ in, same string }{
		"node reversed":  {node(`{"name": "n", "is_hop_single_tensor_return": true, "metadata": {"k": "v"}, "outputs": [], "inputs": [{"name": "a", "arg": {"as_int": 1}, "kind": 2}], "target": "t"}`), "node"},
		"node twice":     {node(`{"target": "u", "inputs": [], "target": "t", "inputs": [{"name": "a", "arg": {"as_int": 1}, "kind": 2}], "outputs": [], "metadata": {"k": "v"}, "is_hop_single_tensor_return": true, "name": "n"}`), "node"},
		"node unknown":   {node(`{"target": "t", "future": [1, {"name": 2}], "inputs": [{"name": "a", "arg": {"as_int": 1}, "kind": 2}], "name": "n", "outputs": [], "metadata": {"k": "v"}, "is_hop_single_tensor_return": true}`), "node"},
		"argument skips": {node(`{"target": "t", "inputs": [{"kind": 2, "arg": {"as_int": 1}, "name": "a"}], "name": "n"}`), "argument"},
		"argument twice": {node(`{"target": "t", "inputs": [{"name": "b", "arg": {"as_int": 5}, "name": "a", "kind": 1, "arg": {"as_int": 1}, "kind": 2}], "name": "n"}`), "argument"},
		"meta shuffled":  {meta(`{"layout": 2, "storage_offset": {"as_int": 3}, "dtype": 7, "strides": [{"as_int": 1}], "requires_grad": true, "sizes": [{"as_int": 2}], "device": {"type": "cpu", "index": 1}}`), "meta"},
		"meta twice":     {meta(`{"dtype": 6, "sizes": [], "dtype": 7, "sizes": [{"as_int": 2}], "requires_grad": true, "device": {"type": "cpu", "index": 1}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 3}, "layout": 2}`), "meta"},
	} {
		got, err := DecodeProgram([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		want, err := DecodeProgram([]byte(inOrder[c.same]))
		if err != nil {
			t.Fatalf("%s in order: %v", label, err)
		}
		a, _ := EncodeProgram(got)
		b, _ := EncodeProgram(want)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: decodes as\n%s\nwant\n%s", label, a, b)
		}
	}
}

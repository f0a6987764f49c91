package ir

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"strings"
	"testing"

	"github.com/seam-rt/seam/limits"
)

// minimal is the smallest program the decoder accepts, with a hole for
// one node.
func minimal(node string) string {
	return `{"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [` + node +
		`]}}, "schema_version": {"major": 8, "minor": 17}}`
}

// decodeErrorCases are malformed programs and what their errors say.
func decodeErrorCases() []struct {
	in   string
	want []string
} {
	return []struct {
		in   string
		want []string
	}{
		{minimal(`{"target": "t", "name": "a` + "\xff" + `b"}`), []string{"invalid UTF-8", "byte 0xff", "at byte 93", "name"}},
		{minimal(`{"target": "t", "name": "a\ud800"}`), []string{"half of a surrogate pair", "at byte 93"}},
		{minimal(`{"target": "t", "inputs": [{"name": "x", "arg": {"as_int": 1.5}}]}`), []string{"want an integer", "as_int", "inputs[0]"}},
		{minimal(`{"target": "t", "inputs": [{"name": "x", "arg": {"as_int": 1, "as_float": 2.0}}]}`), []string{"exactly one member", "got several"}},
		{minimal(`{"target": "t", "inputs": [{"name": "x", "arg": {"as_quaternion": 1}}]}`), []string{`unknown Argument member "as_quaternion"`, "node #0 (t)"}},
		{minimal(`{"target": "t", "outputs": [{"as_int": 99999999999999999999}]}`), []string{"does not fit in 64 bits"}},
		{minimal(`{"name": "n"}`), []string{"node n", "no target"}},
		{minimal(`{"target": "t"}`) + " x", []string{"data after the end"}},
		{minimal(`{"target": "t",}`), []string{"want a key"}},
		{`{"graph_module": {"graph": {"nodes": "x"}}}`, []string{"want an array, got a string", "nodes"}},
		{`{"graph_module": {}, "schema_version": {"major": 8}}`, []string{"no graph"}},
		{`{"graph_module": {"graph": {}}}`, []string{"no schema_version"}},
		{`{"graph_module": {"graph": {"tensor_values": {"t": {"dtype": "f32"}}}}}`, []string{"tensor_values: t: dtype", "want a number"}},
		{`{"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "x"}]}}}`, []string{"want '}' closing Argument"}},
		{`{"a": "unterminated`, []string{"string never ends"}},
	}
}

func TestDecodeErrorsSayWhere(t *testing.T) {
	for _, c := range decodeErrorCases() {
		_, err := DecodeProgram([]byte(c.in))
		if err == nil {
			t.Errorf("%s: decoded", c.in)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s:\n  error %q\n  does not say %q", c.in, err, w)
			}
		}
	}
}

func TestDecodeLimits(t *testing.T) {
	defer limits.Reset()
	deep := strings.Repeat(`{"as_string_to_argument": {"k": `, 50) + `{"as_int": 1}` + strings.Repeat(`}}`, 50)
	for _, c := range []struct {
		limit, value, in string
	}{
		{"json-depth", "40", minimal(`{"target": "t", "outputs": [` + deep + `]}`)},
		{"nodes", "2", minimal(`{"target": "a"}, {"target": "b"}, {"target": "c"}`)},
		{"values", "5", minimal(`{"target": "a", "inputs": [{"name": "x", "arg": {"as_ints": [1, 2, 3, 4, 5, 6]}}]}`)},
		{"string-bytes", "10", minimal(`{"target": "a", "name": "a_name_longer_than_ten"}`)},
		{"string-bytes", "10", minimal(`{"target": "a", "name": "a_name\nwith_escapes_longer_than_ten"}`)},
	} {
		limits.Reset()
		if err := limits.Set(c.limit, c.value); err != nil {
			t.Fatal(err)
		}
		_, err := DecodeProgram([]byte(c.in))
		var le *limits.Error
		if !errors.As(err, &le) || le.Limit.Name != c.limit {
			t.Errorf("limit %s=%s: got %v", c.limit, c.value, err)
			continue
		}
		for _, w := range []string{"--limit " + c.limit + "=N", le.Limit.Env(), "at byte"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not say %q", err, w)
			}
		}
	}
	limits.Reset()
	if _, err := DecodeProgram([]byte(minimal(`{"target": "t", "outputs": [` + deep + `]}`))); err != nil {
		t.Errorf("at the default limits: %v", err)
	}
}

func TestDecodeAcceptsWhatPythonWrites(t *testing.T) {
	// Escapes, a surrogate pair, keys out of order or repeated, unknown
	// keys, nulls for optional fields, and free text with half a pair.
	in := `{"schema_version": {"major": 8, "minor": 3}, "future": [1, {"x": null}], "graph_module": {"graph": {"nodes": [
	  {"name": "n\u00e9\ud83d\ude00", "target": "t", "metadata": {"stack_trace": "line\n\t\"x\" \ud800"}, "is_hop_single_tensor_return": null,
	   "outputs": [{"as_tensor": {"name": "old"}}], "outputs": [{"as_tensor": {"name": "o"}}]}],
	  "tensor_values": {"o": null}}, "graph_module_extra": true}, "torch_version": null}`
	p, err := DecodeProgram([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	n := p.Graph.Nodes[0]
	if n.Name != "né😀" || n.Metadata.Get("stack_trace") != "line\n\t\"x\" \ufffd" || n.Outputs[0].Name != "o" || p.TorchVersion != "<=2.4" {
		t.Errorf("decoded %+v, %q", n, p.TorchVersion)
	}
	if m, ok := p.Graph.TensorValues["o"]; !ok || m != nil {
		t.Errorf("null tensor meta: %v %v", m, ok)
	}
}

// An error deep down reads in time linear in the depth, and says where
// it is from both ends.
func TestDeepErrorStaysSmall(t *testing.T) {
	const depth = 3000
	in := strings.Repeat(`{"as_string_to_argument": {"k": `, depth) + `{"as_int": 1.5}` + strings.Repeat(`}}`, depth)
	defer limits.Reset()
	limits.Set("json-depth", "100000")
	_, err := DecodeProgram([]byte(minimal(`{"target": "t", "outputs": [` + in + `]}`)))
	if err == nil || len(err.Error()) > 2000 {
		t.Fatalf("error of %d bytes: %.300v", len(err.Error()), err)
	}
	for _, w := range []string{"graph_module: graph: node #0 (t): outputs[0]: as_string_to_argument: k: ", "as_string_to_argument: ... (", "levels) ...: as_string_to_argument", "k: as_int: at byte", "want an integer"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
}

// TestSpecial8: the lowest mark of special8 is the first byte that needs
// a look, whatever the bytes around it (a borrow from one mark must not
// put a false one below it), and a word of plain bytes has none.
func TestSpecial8(t *testing.T) {
	special := func(b byte) bool { return b < 0x20 || b >= 0x80 || b == '"' || b == '\\' }
	word := func(w []byte) uint64 { return binary.LittleEndian.Uint64(w) }
	for b := 0; b < 256; b++ {
		for pos := 0; pos < 8; pos++ {
			for _, after := range []byte{'a', 0, 0x1f, '"', '\\', 0x80, 0xff, ' ', '!', '#', '[', ']'} {
				w := []byte("abcdefgh")
				w[pos] = byte(b)
				for k := pos + 1; k < 8; k++ {
					w[k] = after
				}
				want := 8
				for k := range w {
					if special(w[k]) {
						want = k
						break
					}
				}
				got := 8
				if m := special8(word(w)); m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				if got != want {
					t.Fatalf("%q: first special byte %d, special8 says %d", w, want, got)
				}
			}
		}
	}
}

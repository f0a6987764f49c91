package onnx_test

import (
	"bytes"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/onnx"
)

// FuzzUnmarshal: any bytes decode to a model or an error, never a panic
// or an allocation sized by the input's claims; what decodes encodes and
// decodes again to the same bytes.
func FuzzUnmarshal(f *testing.F) {
	for _, m := range []string{"cond", "symint_input", "sym_float"} { // small: no weights
		tr, err := onnx.Translate(load(f, fixtures.Model(m)))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(tr.Model.Marshal())
	}
	f.Add([]byte{})
	f.Add([]byte{0x3a, 0x80, 0x80, 0x80, 0x80, 0x08}) // a graph claiming 2 GiB
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := onnx.Unmarshal(data)
		if _, _, ioErr := onnx.GraphIO(data); err == nil && ioErr != nil && m.Graph != nil {
			t.Errorf("Unmarshal accepts what GraphIO refuses: %v", ioErr)
		}
		if err != nil {
			return
		}
		again := m.Marshal()
		m2, err := onnx.Unmarshal(again)
		if err != nil {
			t.Fatalf("re-encoded model does not decode: %v", err)
		}
		if !bytes.Equal(m2.Marshal(), again) {
			t.Error("encoding is not stable across a round trip")
		}
	})
}

// TestDecodeErrors: malformed files are errors that name the message.
func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated tag", []byte{0x80}, "ModelProto"},
		{"length past the end", []byte{0x3a, 0x10, 0x00}, "ModelProto field 7"},
		{"graph with a bad node", []byte{0x3a, 0x02, 0x0a, 0x05}, "GraphProto field 1"},
		{"ir_version as bytes", []byte{0x0a, 0x00}, "want a varint"},
		{"group", []byte{0x0b}, "groups"},
	} {
		_, err := onnx.Unmarshal(c.data)
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	// Nesting deeper than the limit is refused, not recursed into.
	deep := &onnx.Graph{Name: "leaf"}
	for i := 0; i < 70; i++ {
		deep = &onnx.Graph{Name: "g", Nodes: []*onnx.Node{{OpType: "If", Attrs: []*onnx.Attribute{{Name: "then_branch", Type: onnx.AttrGraph, G: deep}}}}}
	}
	data := (&onnx.Model{IRVersion: 10, Graph: deep}).Marshal()
	if _, err := onnx.Unmarshal(data); err == nil || !bytes.Contains([]byte(err.Error()), []byte("nested deeper")) {
		t.Errorf("70 nested graphs: %v", err)
	}
}

// FuzzCheckIO: whatever bytes a lowered archive stores as a module's
// compiled form, checking them against the module is an answer, never a
// panic; what it accepts is a model whose inputs GraphIO reads as the
// module's.
func FuzzCheckIO(f *testing.F) {
	p := load(f, fixtures.Model("symint_input"))
	tr, err := onnx.Translate(p)
	if err != nil {
		f.Fatal(err)
	}
	good := tr.Model.Marshal()
	if err := onnx.CheckIO(p, good); err != nil {
		f.Fatalf("the program's own translation does not check: %v", err)
	}
	f.Add(good)
	f.Add([]byte{})
	f.Add([]byte{0x3a, 0x00}) // an empty graph
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := onnx.CheckIO(p, data); err != nil {
			return
		}
		ins, _, err := onnx.GraphIO(data)
		if err != nil {
			t.Fatalf("CheckIO accepts what GraphIO refuses: %v", err)
		}
		if len(ins) != len(tr.Inputs) {
			t.Fatalf("CheckIO accepts %d inputs, the program has %d", len(ins), len(tr.Inputs))
		}
	})
}

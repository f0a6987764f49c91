package ir

import (
	"strings"
	"testing"
)

// TestMetadataDecode: a node's metadata decodes sorted by key whatever
// order the file gives, a key given twice keeps its last value (as
// json.loads does), and it encodes back in that order.
func TestMetadataDecode(t *testing.T) {
	in := minimal(`{"target": "t", "metadata": {"torch_fn": "f", "stack_trace": "s1", "nn_module_stack": "m", "stack_trace": "s2", "a": ""}}`)
	p, err := DecodeProgram([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	md := p.Graph.Nodes[0].Metadata
	want := Metadata{{"a", ""}, {"nn_module_stack", "m"}, {"stack_trace", "s2"}, {"torch_fn", "f"}}
	if len(md) != len(want) {
		t.Fatalf("metadata %v, want %v", md, want)
	}
	for i := range want {
		if md[i] != want[i] {
			t.Fatalf("metadata %v, want %v", md, want)
		}
	}
	if v, ok := md.Lookup("a"); !ok || v != "" {
		t.Errorf("Lookup(a) = %q, %v", v, ok)
	}
	if _, ok := md.Lookup("b"); ok || md.Get("stack_trace") != "s2" {
		t.Errorf("Lookup(b) found, or Get(stack_trace) = %q", md.Get("stack_trace"))
	}
	out, err := EncodeProgram(p)
	if err != nil {
		t.Fatal(err)
	}
	if w := `"metadata": {"a": "", "nn_module_stack": "m", "stack_trace": "s2", "torch_fn": "f"}`; !strings.Contains(string(out), w) {
		t.Errorf("encoded %s, want it to hold %s", out, w)
	}
}

// TestMetadataEncodeCanonical: metadata built out of order, or with a key
// twice, encodes as decoded metadata would, and Set, Delete and Clone
// keep it sorted and apart.
func TestMetadataEncodeCanonical(t *testing.T) {
	n := &Node{Target: "t", Metadata: Metadata{{"z", "1"}, {"b", "2"}, {"z", "3"}}}
	out, err := n.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if w := `"metadata": {"b": "2", "z": "3"}`; !strings.Contains(string(out), w) {
		t.Errorf("encoded %s, want it to hold %s", out, w)
	}
	var m Metadata
	m.Set("c", "1")
	m.Set("a", "2")
	m.Set("b", "3")
	m.Set("a", "4")
	c := m.Clone()
	m.Delete("b")
	m.Delete("x")
	if got := len(m); got != 2 || m[0] != (MetadataEntry{"a", "4"}) || m[1] != (MetadataEntry{"c", "1"}) {
		t.Errorf("after Set and Delete: %v", m)
	}
	if len(c) != 3 || c[1] != (MetadataEntry{"b", "3"}) {
		t.Errorf("clone changed with the original: %v", c)
	}
	if mm := MetadataOf(c.Map()); len(mm) != 3 || mm[0].Key != "a" || mm[2].Key != "c" {
		t.Errorf("MetadataOf(Map()) = %v", mm)
	}
}

package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The JSON shape is an interface for scripts: check keys and their types,
// not just that it decodes.
func TestJSONShape(t *testing.T) {
	var buf bytes.Buffer
	if err := build(t, "gpt2_tiny", "tensor-only").WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["backend"] != "tensor-only" {
		t.Errorf("backend = %v", doc["backend"])
	}
	parts := asList(t, doc, "partitions")
	if len(parts) != 2 {
		t.Fatalf("%d partitions, want 2", len(parts))
	}
	symbolic := 0
	for i, raw := range parts {
		p := asObject(t, raw, "partition")
		if id, ok := p["id"].(float64); !ok || int(id) != i {
			t.Errorf("partition %d: id = %v", i, p["id"])
		}
		for _, n := range asList(t, p, "nodes") {
			if _, ok := n.(string); !ok {
				t.Errorf("partition %d: node %v is not a name", i, n)
			}
		}
		for _, key := range []string{"inputs", "outputs"} {
			for _, rv := range asList(t, p, key) {
				v := asObject(t, rv, key)
				for _, field := range []string{"name", "type", "annotation"} {
					if s, ok := v[field].(string); !ok || (field != "annotation" && s == "") {
						t.Errorf("partition %d %s: %s = %v, want a string", i, key, field, v[field])
					}
				}
				if key == "inputs" {
					if _, ok := v["from"].(string); !ok {
						t.Errorf("partition %d input %v has no from", i, v["name"])
					}
				} else if len(asList(t, v, "to")) == 0 {
					t.Errorf("partition %d output %v has no to", i, v["name"])
				}
				if v["type"] == "sym_int" {
					symbolic++
					if v["annotation"] != "Sym(s53)" || v["symbolic"] != true {
						t.Errorf("symbolic value %v", v)
					}
				}
			}
		}
	}
	if symbolic != 2 {
		t.Errorf("%d sym_int boundary values, want 2", symbolic)
	}
	unsupported := asList(t, doc, "unsupported")
	if len(unsupported) != 4 {
		t.Fatalf("%d unsupported nodes, want 4", len(unsupported))
	}
	for _, raw := range unsupported {
		u := asObject(t, raw, "unsupported")
		for _, field := range []string{"node", "target", "reason"} {
			if s, ok := u[field].(string); !ok || s == "" {
				t.Errorf("unsupported %v: %s = %v", u, field, u[field])
			}
		}
		if u["reason"] != "op excluded" {
			t.Errorf("%v: reason %v, want op excluded", u["node"], u["reason"])
		}
	}
	sum := asObject(t, doc["summary"], "summary")
	if sum["symbolic_inputs"] != 2.0 || sum["delegated"] != 149.0 {
		t.Errorf("summary = %v", sum)
	}
}

func TestJSONGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := build(t, "seed_like", "tensor-only").WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	golden(t, "seed_like-tensor-only.json", buf.Bytes())
}

// An empty report still has lists, never null: scripts iterate them.
func TestJSONEmptyListsAreLists(t *testing.T) {
	var buf bytes.Buffer
	if err := build(t, "seed_like", "matmul-only").WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	asList(t, doc, "partitions")
	asList(t, doc, "unsupported")
}

func asList(t *testing.T, obj map[string]any, key string) []any {
	t.Helper()
	l, ok := obj[key].([]any)
	if !ok {
		t.Fatalf("%s = %v (%T), want a list", key, obj[key], obj[key])
	}
	return l
}

func asObject(t *testing.T, v any, what string) map[string]any {
	t.Helper()
	o, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s = %v (%T), want an object", what, v, v)
	}
	return o
}

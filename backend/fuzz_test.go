package backend

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// FuzzParse: no profile file makes Parse panic, and every profile it
// accepts writes back to a file that parses to the same contract.
func FuzzParse(f *testing.F) {
	for _, name := range BuiltinNames() {
		p, _ := Builtin(name)
		var sb strings.Builder
		_ = p.WriteJSON(&sb)
		f.Add([]byte(sb.String()))
	}
	f.Add([]byte(`{"name": "my-npu", "ops": {"include": ["aten.*"], "exclude": ["aten.embedding.*", "aten.index*"]},
	 "exclude_nodes": ["node_name"], "placeholders": {"sym_int": "refuse", "sym_bool": "tensor", "sym_float": "int"},
	 "dtypes": ["f32", "i64", "bool"], "dynamic_shapes": true, "single_node_partitions": true, "full_graph": false}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		var sb strings.Builder
		if err := p.WriteJSON(&sb); err != nil {
			t.Fatal(err)
		}
		q, err := Parse([]byte(sb.String()))
		if err != nil {
			t.Fatalf("a written profile does not parse: %v\n%s", err, sb.String())
		}
		var again strings.Builder
		if err := q.WriteJSON(&again); err != nil {
			t.Fatal(err)
		}
		if d := q.Differences(p); len(d) > 0 || again.String() != sb.String() {
			t.Fatalf("round trip changed the profile: %v\n%s\n%s", d, sb.String(), again.String())
		}
		for _, op := range []string{"aten.add.Tensor", "_operator.gt", p.Name} {
			p.include.first(op)
			p.exclude.first(op)
		}
	})
}

// FuzzParseYAML: a YAML profile file is read as Load reads one (through
// its JSON form): no input panics, and what parses writes back and
// parses to the same profile.
func FuzzParseYAML(f *testing.F) {
	for _, name := range BuiltinNames() {
		p, _ := Builtin(name)
		var sb strings.Builder
		_ = p.WriteJSON(&sb)
		y, err := yaml.JSONToYAML([]byte(sb.String()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(y)
	}
	f.Add([]byte("name: my-npu\nops:\n  include: [\"aten.*\"]\n  exclude: [aten.embedding.*]\nplaceholders: {sym_int: tensor}\ndtypes: [f32, i64]\n"))
	f.Add([]byte("a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nname: n\nops: {include: ['*']}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		js, err := yamlToJSON(data)
		if err != nil {
			return
		}
		p, err := Parse(js)
		if err != nil {
			return
		}
		var sb strings.Builder
		if err := p.WriteJSON(&sb); err != nil {
			t.Fatal(err)
		}
		q, err := Parse([]byte(sb.String()))
		if err != nil {
			t.Fatalf("a written profile does not parse: %v\n%s", err, sb.String())
		}
		if d := q.Differences(p); len(d) > 0 {
			t.Fatalf("round trip changed the profile: %v", d)
		}
	})
}

package inspect_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/pt2"
)

type meta struct {
	Signature        string            `json:"signature"`
	RangeConstraints map[string]string `json:"range_constraints"`
	Nodes            map[string]int    `json:"nodes"`
}

var (
	specLine = regexp.MustCompile(`^(\w+): ([A-Z_]+)`)
	vrText   = regexp.MustCompile(`^VR\[(-?\w+), (-?\w+)\]$`)
)

// TestSummaryAgreesWithMeta checks inspect against what PyTorch recorded
// in each fixture's meta.json: the inputs and outputs in order with their
// kinds, and the range constraints.
func TestSummaryAgreesWithMeta(t *testing.T) {
	for _, name := range fixtures.Models() {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(fixtures.ModelDir(name), "meta.json"))
			if err != nil {
				t.Fatal(err)
			}
			var m meta
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			a, err := pt2.Open(fixtures.Model(name))
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			p, _ := a.Program()
			s := inspect.Summarize(p, inspect.Options{})

			// meta.json's signature lists "# inputs" then "# outputs".
			var ins, outs []string
			cur := &ins
			for _, line := range strings.Split(m.Signature, "\n") {
				if strings.HasPrefix(line, "# outputs") {
					cur = &outs
				}
				if mm := specLine.FindStringSubmatch(line); mm != nil {
					kind := strings.ToLower(mm[2])
					if kind == "constant_tensor" { // Python's InputKind name
						kind = "tensor_constant"
					}
					*cur = append(*cur, mm[1]+" "+kind)
				}
			}
			check := func(what string, want []string, got []inspect.Value) {
				if len(want) != len(got) {
					t.Fatalf("%s: %d in meta.json, %d from inspect", what, len(want), len(got))
				}
				for i := range want {
					if g := got[i].Name + " " + got[i].Kind; g != want[i] {
						t.Errorf("%s %d: got %q, meta.json says %q", what, i, g, want[i])
					}
				}
			}
			check("input", ins, s.Inputs)
			check("output", outs, s.Outputs)

			if len(s.Symbols) != len(m.RangeConstraints) {
				t.Errorf("%d symbols, meta.json has %d", len(s.Symbols), len(m.RangeConstraints))
			}
			for sym, vr := range m.RangeConstraints {
				mm := vrText.FindStringSubmatch(vr)
				got, ok := s.Symbols[sym]
				if mm == nil || !ok {
					t.Errorf("symbol %s (%s) missing", sym, vr)
					continue
				}
				bound := func(text string, b *int64) {
					if strings.Contains(text, "oo") {
						if b != nil {
							t.Errorf("%s: bound %d, want unbounded", sym, *b)
						}
						return
					}
					v, _ := strconv.ParseInt(text, 10, 64)
					if b == nil || *b != v {
						t.Errorf("%s: bound %v, want %d", sym, b, v)
					}
				}
				bound(mm[1], got.Min)
				bound(mm[2], got.Max)
			}
			if top := len(p.Graph.Nodes); top == 0 || top > m.Nodes["call_function"] || s.Nodes < top {
				t.Errorf("%d top-level nodes (%d in all); FX counted %d call_function nodes (getitems included)", top, s.Nodes, m.Nodes["call_function"])
			}
		})
	}
}

func TestSummaryJSONShape(t *testing.T) {
	a, err := pt2.Open(fixtures.Model("seed_like"))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	p, _ := a.Program()
	out, err := json.Marshal(inspect.Summarize(p, inspect.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	json.Unmarshal(out, &got)
	for _, key := range []string{"schema_version", "torch_version", "inputs", "outputs", "symbols", "ops", "nodes", "weight_bytes"} {
		if _, ok := got[key]; !ok {
			t.Errorf("no %q key", key)
		}
	}
	if got["nodes"].(float64) != 15 || got["weight_bytes"].(float64) != 118848 {
		t.Errorf("nodes %v, weight_bytes %v; want 15 and 118848", got["nodes"], got["weight_bytes"])
	}
	in := got["inputs"].([]any)[3].(map[string]any)
	if in["name"] != "input_ids" || in["kind"] != "user_input" || in["type"] != "tensor" {
		t.Errorf("input 3 = %v", in)
	}
	if got["symbols"].(map[string]any)["s53"].(map[string]any)["max"].(float64) != 200 {
		t.Errorf("s53 = %v", got["symbols"])
	}
}

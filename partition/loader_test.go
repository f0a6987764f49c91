package partition

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// A small test-only reader of PT2 model.json, enough to build the top-level
// DAG the way /work/shared/tools/graph.py's nodes() does. The real reader
// lives elsewhere; this one must not depend on it.

type fxNode struct {
	Name    string // the node's name field (or its first output)
	Target  string // without the "torch.ops." prefix
	Inputs  []string
	Outputs []string
}

type fxModel struct {
	Nodes  []fxNode
	Nested map[string]bool // names of nodes (and their outputs) inside nested graphs
}

type jsonGraph struct {
	Nodes []struct {
		Name   string `json:"name"`
		Target string `json:"target"`
		Inputs []struct {
			Arg map[string]json.RawMessage `json:"arg"`
		} `json:"inputs"`
		Outputs []map[string]json.RawMessage `json:"outputs"`
	} `json:"nodes"`
}

func loadModel(path string) (*fxModel, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	for _, f := range z.File {
		parts := strings.Split(f.Name, "/")
		if len(parts) != 3 || parts[1] != "models" || parts[2] != "model.json" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		var doc struct {
			GraphModule struct {
				Graph json.RawMessage `json:"graph"`
			} `json:"graph_module"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		m := &fxModel{Nested: map[string]bool{}}
		if err := m.walk(doc.GraphModule.Graph, true); err != nil {
			return nil, err
		}
		return m, nil
	}
	return nil, fmt.Errorf("%s: no models/model.json", path)
}

func (m *fxModel) walk(raw json.RawMessage, top bool) error {
	var g jsonGraph
	if err := json.Unmarshal(raw, &g); err != nil {
		return err
	}
	for _, n := range g.Nodes {
		var ins, outs []string
		for _, in := range n.Inputs {
			if sub, ok := in.Arg["as_graph"]; ok {
				var ag struct {
					Graph json.RawMessage `json:"graph"`
				}
				if err := json.Unmarshal(sub, &ag); err != nil {
					return err
				}
				if err := m.walk(ag.Graph, false); err != nil {
					return err
				}
				continue
			}
			if err := argNames(in.Arg, &ins); err != nil {
				return err
			}
		}
		for _, o := range n.Outputs {
			if err := argNames(o, &outs); err != nil {
				return err
			}
		}
		name := n.Name
		if name == "" && len(outs) > 0 {
			name = outs[0]
		}
		if !top {
			m.Nested[name] = true
			for _, o := range outs {
				m.Nested[o] = true
			}
			continue
		}
		m.Nodes = append(m.Nodes, fxNode{Name: name, Target: strings.TrimPrefix(n.Target, "torch.ops."), Inputs: ins, Outputs: outs})
	}
	return nil
}

// argNames collects the value names an argument refers to, as graph.py's
// arg_names does.
func argNames(arg map[string]json.RawMessage, out *[]string) error {
	type named struct {
		Name   string `json:"name"`
		AsName string `json:"as_name"`
	}
	for k, v := range arg {
		switch k {
		case "as_tensor", "as_custom_obj":
			var t named
			if err := json.Unmarshal(v, &t); err != nil {
				return err
			}
			*out = append(*out, t.Name)
		case "as_tensors":
			var ts []named
			if err := json.Unmarshal(v, &ts); err != nil {
				return err
			}
			for _, t := range ts {
				*out = append(*out, t.Name)
			}
		case "as_sym_int", "as_sym_bool", "as_sym_float":
			var s named
			if err := json.Unmarshal(v, &s); err != nil {
				return err
			}
			if s.AsName != "" {
				*out = append(*out, s.AsName)
			}
		case "as_sym_ints", "as_sym_bools", "as_sym_floats":
			var ss []named
			if err := json.Unmarshal(v, &ss); err != nil {
				return err
			}
			for _, s := range ss {
				if s.AsName != "" {
					*out = append(*out, s.AsName)
				}
			}
		case "as_optional_tensor":
			var o struct {
				AsTensor *named `json:"as_tensor"`
			}
			if err := json.Unmarshal(v, &o); err != nil {
				return err
			}
			if o.AsTensor != nil {
				*out = append(*out, o.AsTensor.Name)
			}
		case "as_optional_tensors":
			var opts []struct {
				AsTensor *named `json:"as_tensor"`
			}
			if err := json.Unmarshal(v, &opts); err != nil {
				return err
			}
			for _, o := range opts {
				if o.AsTensor != nil {
					*out = append(*out, o.AsTensor.Name)
				}
			}
		}
	}
	return nil
}

// dag builds the partitioner's DAG: nodes in file order, a predecessor for
// every input value some earlier node produced (graph inputs are not nodes).
func (m *fxModel) dag() *DAG {
	producer := map[string]int32{}
	d := &DAG{Preds: make([][]int32, len(m.Nodes))}
	for i, n := range m.Nodes {
		seen := map[int32]bool{}
		for _, in := range n.Inputs {
			if q, ok := producer[in]; ok && !seen[q] {
				seen[q] = true
				d.Preds[i] = append(d.Preds[i], q)
			}
		}
		for _, o := range n.Outputs {
			producer[o] = int32(i)
		}
	}
	return d
}

// torchPartitions maps torch.fx partitions (FX names, getitems included)
// onto node indices as graph.py's top_level_partitions + torch_as_nodes do:
// nested-graph names are dropped, getitem names become their producer.
func (m *fxModel) torchPartitions(parts [][]string) [][]int32 {
	index := map[string]int32{}
	producer := map[string]int32{}
	for i, n := range m.Nodes {
		index[n.Name] = int32(i)
		for _, o := range n.Outputs {
			producer[o] = int32(i)
		}
	}
	var res [][]int32
	for _, p := range parts {
		seen := map[int32]bool{}
		var q []int32
		for _, name := range p {
			i, ok := index[name]
			if !ok {
				if m.Nested[name] {
					continue
				}
				if i, ok = producer[name]; !ok {
					continue
				}
			}
			if !seen[i] {
				seen[i] = true
				q = append(q, i)
			}
		}
		if len(q) > 0 {
			res = append(res, q)
		}
	}
	return res
}

// The support rules of fixtures/README.md, as graph.py's supported().
var fixtureRules = []string{"no_embedding", "no_sym_ops", "matmul_only", "stress_mod5"}

func supportedBy(rule, name, target string) bool {
	switch rule {
	case "no_embedding":
		return !strings.Contains(target, "embedding") && !strings.Contains(target, "index")
	case "no_sym_ops":
		return !(strings.Contains(target, "sym_size") || strings.Contains(target, "sym_numel") ||
			strings.Contains(target, "sym_stride") || strings.HasPrefix(target, "_operator.") ||
			strings.HasPrefix(target, "math."))
	case "matmul_only":
		for _, p := range []string{"aten.mm.", "aten.addmm.", "aten.bmm.", "aten.linear.", "aten.matmul.", "aten.convolution."} {
			if strings.HasPrefix(target, p) {
				return true
			}
		}
		return false
	case "stress_mod5":
		return !stressExcluded(name)
	}
	panic("unknown rule " + rule)
}

func stressExcluded(name string) bool {
	sum := 0
	for _, r := range name {
		sum += int(r)
	}
	return sum%5 == 0
}

// viewTargets and scalarTargets do no arithmetic a backend would be called
// for, so they do not count towards MinCompute.
var (
	viewTargets = []string{"aten.view.", "aten._unsafe_view.", "aten.reshape.", "aten.permute.",
		"aten.expand.", "aten.unsqueeze.", "aten.squeeze.", "aten.alias.", "aten.slice.Tensor",
		"aten.select.int", "aten.t.", "aten.transpose.int", "aten.detach."}
	scalarTargets = []string{"aten.sym_size.int", "aten.sym_numel", "aten.sym_stride",
		"_operator.", "math.", "torch.sym_", "aten._assert_tensor_metadata"}
)

func isCompute(target string) bool {
	for _, lists := range [][]string{viewTargets, scalarTargets} {
		for _, p := range lists {
			if strings.HasPrefix(target, p) {
				return false
			}
		}
	}
	return true
}

func (m *fxModel) request(rule string, single bool) *Request {
	// single_node_partitions: true keeps every partition; false drops those
	// with fewer than two compute nodes (views do not count).
	r := &Request{Supported: make([]bool, len(m.Nodes)), Compute: make([]bool, len(m.Nodes)), MinCompute: 0}
	if !single {
		r.MinCompute = 2
	}
	for i, n := range m.Nodes {
		r.Supported[i] = supportedBy(rule, n.Name, n.Target)
		r.Compute[i] = isCompute(n.Target)
	}
	return r
}

// synthetic is a fixtures/synthetic/dag_N.json graph.
type synthetic struct {
	Names []string
	DAG   *DAG
}

func loadSynthetic(path string) (*synthetic, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Nodes [][]json.RawMessage `json:"nodes"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	s := &synthetic{DAG: &DAG{Preds: make([][]int32, len(doc.Nodes))}}
	index := map[string]int32{}
	for i, n := range doc.Nodes {
		if len(n) != 3 {
			return nil, fmt.Errorf("%s: node %d has %d fields", path, i, len(n))
		}
		var name string
		var ins []string
		if err := json.Unmarshal(n[0], &name); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(n[2], &ins); err != nil {
			return nil, err
		}
		for _, in := range ins {
			if q, ok := index[in]; ok && !contains(s.DAG.Preds[i], q) {
				s.DAG.Preds[i] = append(s.DAG.Preds[i], q)
			}
		}
		index[name] = int32(i)
		s.Names = append(s.Names, name)
	}
	return s, nil
}

func contains(s []int32, x int32) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func (s *synthetic) request() *Request {
	r := &Request{Supported: make([]bool, len(s.Names)), MinCompute: 1}
	for i, name := range s.Names {
		r.Supported[i] = !stressExcluded(name)
	}
	return r
}

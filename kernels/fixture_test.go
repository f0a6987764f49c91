package kernels_test

// A small test-only interpreter for the fixture programs: it reads the PT2
// archive's graph and weights, runs every node through ops.Bind and the
// kernels (scalar ops inline), and compares with PyTorch's outputs. It is
// the end-to-end check of the kernels' semantics, not the project's
// executor.

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

type jArg map[string]json.RawMessage

type jNode struct {
	Target string
	Inputs []struct {
		Name string
		Arg  jArg
	}
	Outputs []jArg
}

type jGraph struct {
	Inputs  []jArg
	Outputs []jArg
	Nodes   []jNode
}

type program struct {
	graph   jGraph
	specs   []map[string]json.RawMessage
	outs    []map[string]json.RawMessage
	weights map[string]*tensor.Tensor
}

func loadProgram(t testing.TB, path string) *program {
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := map[string][]byte{}
	for _, f := range zr.File {
		name := f.Name[strings.IndexByte(f.Name, '/')+1:]
		r, _ := f.Open()
		b, _ := io.ReadAll(r)
		r.Close()
		files[name] = b
	}
	var ep struct {
		GraphModule struct {
			Graph     jGraph
			Signature struct {
				InputSpecs  []map[string]json.RawMessage `json:"input_specs"`
				OutputSpecs []map[string]json.RawMessage `json:"output_specs"`
			}
		} `json:"graph_module"`
	}
	if err := json.Unmarshal(files["models/model.json"], &ep); err != nil {
		t.Fatal(err)
	}
	p := &program{graph: ep.GraphModule.Graph, specs: ep.GraphModule.Signature.InputSpecs,
		outs: ep.GraphModule.Signature.OutputSpecs, weights: map[string]*tensor.Tensor{}}
	for _, dir := range []string{"data/weights/model_weights_config.json", "data/constants/model_constants_config.json"} {
		var cfg struct {
			Config map[string]struct {
				PathName   string `json:"path_name"`
				TensorMeta struct {
					Dtype int
					Sizes []struct {
						AsInt int `json:"as_int"`
					}
					Strides []struct {
						AsInt int `json:"as_int"`
					}
					StorageOffset struct {
						AsInt int `json:"as_int"`
					} `json:"storage_offset"`
				} `json:"tensor_meta"`
			}
		}
		if b, ok := files[dir]; ok {
			if err := json.Unmarshal(b, &cfg); err != nil {
				t.Fatal(err)
			}
		}
		for fqn, m := range cfg.Config {
			var sizes, strides []int
			for _, s := range m.TensorMeta.Sizes {
				sizes = append(sizes, s.AsInt)
			}
			for _, s := range m.TensorMeta.Strides {
				strides = append(strides, s.AsInt)
			}
			if sizes == nil {
				sizes, strides = []int{}, []int{}
			}
			raw := files[filepath.Dir(dir)+"/"+m.PathName]
			w, err := tensor.FromBytes(tensor.DType(m.TensorMeta.Dtype), sizes, strides, m.TensorMeta.StorageOffset.AsInt, raw)
			if err != nil {
				t.Fatalf("%s: %v", fqn, err)
			}
			p.weights[fqn] = w
		}
	}
	return p
}

// argRecipe is a decoded argument: a literal, or names to look up.
type argRecipe struct {
	name    string
	lit     value.Value
	names   []string // as_tensors / as_optional_tensors ("" = None)
	syms    []json.RawMessage
	kind    string
	sub     *jGraph
	list    []*tensor.Tensor // reused backing slice for tensor lists
	symInts []int64
}

type interp struct {
	cache map[*jNode][]argRecipe
	ctx   *kernels.Context
	env   map[string]value.Value
	args  []value.Value
	out   []value.Value
	// free releases each node's values after their last use, as an
	// executor would, so that repeated runs reuse pooled memory.
	free bool
}

// argNames lists the value names an argument refers to.
func argNames(a jArg) []string {
	var names []string
	for k, raw := range a {
		switch k {
		case "as_tensor":
			var n struct{ Name string }
			_ = json.Unmarshal(raw, &n)
			names = append(names, n.Name)
		case "as_tensors":
			var l []struct{ Name string }
			_ = json.Unmarshal(raw, &l)
			for _, x := range l {
				names = append(names, x.Name)
			}
		case "as_optional_tensors":
			var l []map[string]struct{ Name string }
			_ = json.Unmarshal(raw, &l)
			for _, x := range l {
				if t, ok := x["as_tensor"]; ok {
					names = append(names, t.Name)
				}
			}
		}
	}
	return names
}

// deaths maps node index to the names whose last use (or definition, if
// unused) is that node, excluding graph inputs and outputs.
func deaths(g *jGraph) map[int][]string {
	keep := map[string]bool{}
	for _, a := range g.Inputs {
		for _, n := range argNames(a) {
			keep[n] = true
		}
	}
	for _, a := range g.Outputs {
		for _, n := range argNames(a) {
			keep[n] = true
		}
	}
	last := map[string]int{}
	for i, n := range g.Nodes {
		for _, o := range n.Outputs {
			for _, name := range argNames(o) {
				last[name] = i
			}
		}
		for _, x := range n.Inputs {
			for _, name := range argNames(x.Arg) {
				last[name] = i
			}
		}
	}
	d := map[int][]string{}
	for name, i := range last {
		if !keep[name] {
			d[i] = append(d[i], name)
		}
	}
	return d
}

func (in *interp) name(raw json.RawMessage) string {
	var n struct{ Name string }
	_ = json.Unmarshal(raw, &n)
	return n.Name
}

func (in *interp) symValue(raw json.RawMessage) value.Value {
	var s map[string]json.RawMessage
	_ = json.Unmarshal(raw, &s)
	if n, ok := s["as_name"]; ok {
		var name string
		_ = json.Unmarshal(n, &name)
		return in.env[name]
	}
	for k, v := range s {
		switch k {
		case "as_int":
			var i int64
			_ = json.Unmarshal(v, &i)
			return value.FromInt(i)
		case "as_float":
			var f float64
			_ = json.Unmarshal(v, &f)
			return value.FromDouble(f)
		case "as_bool":
			var b bool
			_ = json.Unmarshal(v, &b)
			return value.FromBool(b)
		}
	}
	return value.NoneValue()
}

func (in *interp) arg(a jArg) (value.Value, *jGraph, error) {
	for k, raw := range a {
		switch k {
		case "as_none":
			return value.NoneValue(), nil, nil
		case "as_tensor":
			v, ok := in.env[in.name(raw)]
			if !ok {
				return v, nil, fmt.Errorf("undefined %s", in.name(raw))
			}
			return v, nil, nil
		case "as_tensors":
			var l []struct{ Name string }
			_ = json.Unmarshal(raw, &l)
			ts := make([]*tensor.Tensor, len(l))
			for i, x := range l {
				ts[i] = in.env[x.Name].Tensor()
			}
			return value.FromTensors(ts), nil, nil
		case "as_optional_tensors":
			var l []map[string]json.RawMessage
			_ = json.Unmarshal(raw, &l)
			ts := make([]*tensor.Tensor, len(l))
			for i, x := range l {
				if r, ok := x["as_tensor"]; ok {
					ts[i] = in.env[in.name(r)].Tensor()
				}
			}
			return value.FromOptTensors(ts), nil, nil
		case "as_int", "as_float", "as_bool":
			return in.symValue(json.RawMessage(`{"` + k + `":` + string(raw) + `}`)), nil, nil
		case "as_ints":
			var l []int64
			_ = json.Unmarshal(raw, &l)
			return value.FromInts(l), nil, nil
		case "as_floats":
			var l []float64
			_ = json.Unmarshal(raw, &l)
			return value.FromDoubles(l), nil, nil
		case "as_bools":
			var l []bool
			_ = json.Unmarshal(raw, &l)
			return value.FromBools(l), nil, nil
		case "as_string":
			var s string
			_ = json.Unmarshal(raw, &s)
			return value.FromString(s), nil, nil
		case "as_sym_int", "as_sym_float", "as_sym_bool":
			return in.symValue(raw), nil, nil
		case "as_sym_ints":
			var l []json.RawMessage
			_ = json.Unmarshal(raw, &l)
			ints := make([]int64, len(l))
			for i, x := range l {
				ints[i] = in.symValue(x).Int()
			}
			return value.FromInts(ints), nil, nil
		case "as_scalar_type":
			var d int
			_ = json.Unmarshal(raw, &d)
			return value.FromScalarType(tensor.DType(d)), nil, nil
		case "as_memory_format":
			var d int
			_ = json.Unmarshal(raw, &d)
			return value.FromMemoryFormat(d), nil, nil
		case "as_layout":
			var d int
			_ = json.Unmarshal(raw, &d)
			return value.FromLayout(d), nil, nil
		case "as_device":
			var d struct{ Type string }
			_ = json.Unmarshal(raw, &d)
			if d.Type != "cpu" {
				return value.FromDevice(value.DeviceCUDA, 0), nil, nil
			}
			return value.FromDevice(value.DeviceCPU, -1), nil, nil
		case "as_graph":
			var g struct{ Graph jGraph }
			_ = json.Unmarshal(raw, &g)
			return value.NoneValue(), &g.Graph, nil
		}
		return value.Value{}, nil, fmt.Errorf("unsupported argument kind %s", k)
	}
	return value.Value{}, nil, fmt.Errorf("empty argument")
}

// decode resolves a node's arguments, decoding its JSON only on first use.
func (in *interp) decode(n *jNode) ([]ops.NamedArg, []*jGraph, error) {
	if in.cache == nil {
		in.cache = map[*jNode][]argRecipe{}
	}
	recipes, ok := in.cache[n]
	if !ok {
		for _, x := range n.Inputs {
			r := argRecipe{}
			for k, raw := range x.Arg {
				r.kind = k
				switch k {
				case "as_tensor":
					r.name = in.name(raw)
				case "as_tensors":
					var l []struct{ Name string }
					_ = json.Unmarshal(raw, &l)
					for _, e := range l {
						r.names = append(r.names, e.Name)
					}
				case "as_optional_tensors":
					var l []map[string]json.RawMessage
					_ = json.Unmarshal(raw, &l)
					for _, e := range l {
						name := ""
						if t, ok := e["as_tensor"]; ok {
							name = in.name(t)
						}
						r.names = append(r.names, name)
					}
				case "as_sym_int", "as_sym_float", "as_sym_bool":
					r.syms = []json.RawMessage{raw}
				case "as_sym_ints":
					_ = json.Unmarshal(raw, &r.syms)
				default:
					v, sub, err := in.arg(x.Arg)
					if err != nil {
						return nil, nil, err
					}
					r.lit, r.sub = v, sub
				}
			}
			recipes = append(recipes, r)
		}
		in.cache[n] = recipes
	}
	var named []ops.NamedArg
	var subs []*jGraph
	for i := range recipes {
		r := &recipes[i]
		var v value.Value
		switch r.kind {
		case "as_tensor":
			var ok bool
			if v, ok = in.env[r.name]; !ok {
				return nil, nil, fmt.Errorf("undefined %s", r.name)
			}
		case "as_tensors", "as_optional_tensors":
			r.list = r.list[:0]
			for _, name := range r.names {
				var t *tensor.Tensor
				if name != "" {
					t = in.env[name].Tensor()
				}
				r.list = append(r.list, t)
			}
			if r.kind == "as_tensors" {
				v = value.FromTensors(r.list)
			} else {
				v = value.FromOptTensors(r.list)
			}
		case "as_sym_int", "as_sym_float", "as_sym_bool":
			v = in.symValue(r.syms[0])
		case "as_sym_ints":
			r.symInts = r.symInts[:0]
			for _, x := range r.syms {
				r.symInts = append(r.symInts, in.symValue(x).Int())
			}
			v = value.FromInts(r.symInts)
		default:
			if r.sub != nil {
				subs = append(subs, r.sub)
				continue
			}
			v = r.lit
		}
		named = append(named, ops.NamedArg{Name: n.Inputs[i].Name, Value: v})
	}
	return named, subs, nil
}

func (in *interp) bindOutputs(outs []jArg, vals []value.Value) {
	for i, o := range outs {
		if i >= len(vals) {
			break
		}
		for k, raw := range o {
			switch k {
			case "as_tensor":
				in.env[in.name(raw)] = vals[i]
			case "as_tensors":
				var l []struct{ Name string }
				_ = json.Unmarshal(raw, &l)
				for j, x := range l {
					in.env[x.Name] = value.FromTensor(vals[i].Tensors()[j])
				}
			case "as_sym_int", "as_sym_float", "as_sym_bool":
				var s struct {
					AsName string `json:"as_name"`
				}
				_ = json.Unmarshal(raw, &s)
				in.env[s.AsName] = vals[i]
			}
		}
	}
}

func scalarOp(target string, a []value.Value) (value.Value, error) {
	fl := func(v value.Value) float64 { return v.Double() }
	isF := len(a) > 0 && (a[0].Kind() == value.Double || len(a) > 1 && a[1].Kind() == value.Double)
	arith := func(fi func(x, y int64) int64, ff func(x, y float64) float64) value.Value {
		if isF {
			return value.FromDouble(ff(fl(a[0]), fl(a[1])))
		}
		return value.FromInt(fi(a[0].Int(), a[1].Int()))
	}
	switch target {
	case "aten.sym_size.int":
		t := a[0].Tensor()
		return value.FromInt(int64(t.Size(int(a[1].Int())))), nil
	case "torch.sym_float":
		return value.FromDouble(fl(a[0])), nil
	case "_operator.add":
		return arith(func(x, y int64) int64 { return x + y }, func(x, y float64) float64 { return x + y }), nil
	case "_operator.sub":
		return arith(func(x, y int64) int64 { return x - y }, func(x, y float64) float64 { return x - y }), nil
	case "_operator.mul":
		return arith(func(x, y int64) int64 { return x * y }, func(x, y float64) float64 { return x * y }), nil
	case "_operator.truediv":
		return value.FromDouble(fl(a[0]) / fl(a[1])), nil
	case "_operator.floordiv":
		return arith(func(x, y int64) int64 { return int64(math.Floor(float64(x) / float64(y))) }, func(x, y float64) float64 { return math.Floor(x / y) }), nil
	case "_operator.gt":
		return value.FromBool(fl(a[0]) > fl(a[1])), nil
	case "_operator.ge":
		return value.FromBool(fl(a[0]) >= fl(a[1])), nil
	case "_operator.lt":
		return value.FromBool(fl(a[0]) < fl(a[1])), nil
	case "_operator.eq":
		return value.FromBool(fl(a[0]) == fl(a[1])), nil
	}
	return value.Value{}, fmt.Errorf("scalar op %s not in the test interpreter", target)
}

func (in *interp) run(g *jGraph, inputs []value.Value) ([]value.Value, error) {
	for i, a := range g.Inputs {
		for k, raw := range a {
			switch k {
			case "as_tensor":
				in.env[in.name(raw)] = inputs[i]
			case "as_sym_int":
				var s struct {
					AsName string `json:"as_name"`
				}
				_ = json.Unmarshal(raw, &s)
				in.env[s.AsName] = inputs[i]
			}
		}
	}
	var dead map[int][]string
	if in.free {
		dead = deaths(g)
	}
	for ni := range g.Nodes {
		n := &g.Nodes[ni]
		target := strings.TrimPrefix(n.Target, "torch.ops.")
		schema, ok := ops.Lookup(target)
		if !ok {
			return nil, fmt.Errorf("no schema for %s", target)
		}
		named, subs, err := in.decode(&g.Nodes[ni])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", target, err)
		}
		if target == "higher_order.cond" {
			branch := subs[1]
			if named[0].Value.Bool() {
				branch = subs[0]
			}
			var ops []value.Value
			for _, x := range named[1].Value.Tensors() {
				ops = append(ops, value.FromTensor(x))
			}
			res, err := in.run(branch, ops)
			if err != nil {
				return nil, err
			}
			in.bindOutputs(n.Outputs, res)
			continue
		}
		args, err := schema.Bind(in.args, named)
		if err != nil {
			return nil, err
		}
		in.args = args
		if kernels.ExecutorOwned(target) {
			v, err := scalarOp(target, args)
			if err != nil {
				return nil, err
			}
			in.bindOutputs(n.Outputs, []value.Value{v})
			continue
		}
		k, ok := kernels.Lookup(target)
		if !ok {
			return nil, fmt.Errorf("no kernel for %s", target)
		}
		if cap(in.out) < len(schema.Returns) {
			in.out = make([]value.Value, len(schema.Returns))
		}
		out := in.out[:len(schema.Returns)]
		if err := k(in.ctx, args, out); err != nil {
			return nil, err
		}
		in.bindOutputs(n.Outputs, out)
		for _, name := range dead[ni] {
			if v, ok := in.env[name]; ok {
				in.ctx.Release(v)
				delete(in.env, name)
			}
		}
	}
	var res []value.Value
	for _, o := range g.Outputs {
		v, _, err := in.arg(o)
		if err != nil {
			return nil, err
		}
		res = append(res, v)
	}
	return res, nil
}

func (p *program) inputs(t testing.TB, user []value.Value, state map[string]*tensor.Tensor) []value.Value {
	var vals []value.Value
	u := 0
	for _, spec := range p.specs {
		for kind, raw := range spec {
			var s struct {
				ParameterName      string `json:"parameter_name"`
				BufferName         string `json:"buffer_name"`
				TensorConstantName string `json:"tensor_constant_name"`
			}
			_ = json.Unmarshal(raw, &s)
			switch kind {
			case "parameter":
				vals = append(vals, value.FromTensor(p.weights[s.ParameterName]))
			case "buffer":
				w := p.weights[s.BufferName]
				if st, ok := state[s.BufferName]; ok {
					w = st
				}
				vals = append(vals, value.FromTensor(w))
			case "tensor_constant":
				vals = append(vals, value.FromTensor(p.weights[s.TensorConstantName]))
			case "user_input":
				vals = append(vals, user[u])
				u++
			default:
				t.Fatalf("input kind %s", kind)
			}
		}
	}
	return vals
}

func readCase(t testing.TB, dir string) (ins, outs []value.Value) {
	c, err := npy.ReadCase(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range c.Inputs {
		if x.Dim() == 0 && x.DType() == tensor.Int64 {
			ins = append(ins, value.FromInt(x.Int()))
		} else {
			ins = append(ins, value.FromTensor(x))
		}
	}
	for _, x := range c.Outputs {
		outs = append(outs, value.FromTensor(x))
	}
	return ins, outs
}

// runFixture executes every reference case of a model and compares with
// PyTorch's outputs (rtol 1e-4, atol 1e-5), each one; it returns how many
// cases it compared.
func runFixture(t *testing.T, model string) int {
	p := loadProgram(t, fixtures.Model(model))
	cases := fixtures.Cases(model)
	state := map[string]*tensor.Tensor{}
	in := &interp{ctx: kernels.NewContext(), env: map[string]value.Value{}}
	for _, c := range cases {
		user, want := readCase(t, c)
		got, err := in.run(&p.graph, p.inputs(t, user, state))
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(c), err)
		}
		u := 0
		for i, spec := range p.outs {
			for kind, raw := range spec {
				switch kind {
				case "user_output":
					if u >= len(want) {
						t.Fatalf("more outputs than references")
					}
					if _, err := tensor.AllClose(got[i].Tensor(), want[u].Tensor(), 1e-4, 1e-5); err != nil {
						t.Errorf("%s output %d: %v", filepath.Base(c), u, err)
					}
					u++
				case "buffer_mutation":
					var s struct {
						BufferName string `json:"buffer_name"`
					}
					_ = json.Unmarshal(raw, &s)
					state[s.BufferName] = got[i].Tensor()
				}
			}
		}
		if u != len(want) {
			t.Errorf("%s: compared %d outputs of the %d references", filepath.Base(c), u, len(want))
		}
	}
	return len(cases)
}

func TestFixturesMatchPyTorch(t *testing.T) {
	models, cases, skipped := 0, 0, 0
	for _, m := range fixtures.Models() {
		if testing.Short() && m == "gpt2_l12" {
			skipped += len(fixtures.Cases(m))
			continue
		}
		t.Run(m, func(t *testing.T) { cases += runFixture(t, m) })
		models++
	}
	if models < fixtures.MinModels-1 || cases+skipped < fixtures.MinCases {
		t.Errorf("ran %d models and %d cases (%d skipped); the fixtures have %d and %d", models, cases, skipped, fixtures.MinModels, fixtures.MinCases)
	}
}

func TestFixtureOpsHaveKernels(t *testing.T) {
	var targets []string
	for _, m := range fixtures.Models() {
		p := loadProgram(t, fixtures.Model(m))
		var walk func(g jGraph)
		walk = func(g jGraph) {
			for _, n := range g.Nodes {
				targets = append(targets, n.Target)
				for _, x := range n.Inputs {
					if raw, ok := x.Arg["as_graph"]; ok {
						var sub struct{ Graph jGraph }
						_ = json.Unmarshal(raw, &sub)
						walk(sub.Graph)
					}
				}
			}
		}
		walk(p.graph)
	}
	if missing := kernels.Missing(targets); len(missing) != 0 {
		t.Errorf("ops without kernels: %v", missing)
	}
	if got := kernels.Missing([]string{"aten.nonexistent.default", "torch.ops.aten.foo.bar", "aten.add.Tensor", "_operator.add", "aten.nonexistent.default"}); len(got) != 2 {
		t.Errorf("Missing = %v", got)
	}
}

package lower_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/lower"
)

// loadLlama reads the Llama-style decoder of fixtures/extra (see
// make_llama.py there): rotary embeddings computed in the graph,
// grouped-query attention whose repeat_kv is expand + clone + view,
// symbolic sequence length s0.
func loadLlama(t testing.TB) *ir.Program {
	return fixtures.Load(t, filepath.Join(fixtures.ExtraDir("llama_tiny"), "model.pt2"))
}

// moduleOf maps each original node to the lowered module that took it.
func moduleOf(res *lower.Result) map[string]string {
	m := map[string]string{}
	for _, mod := range res.Modules {
		for _, n := range mod.Nodes {
			m[n] = mod.Name
		}
	}
	return m
}

// tensorInputs lists the tensor arguments of a node, in order.
func tensorInputs(n *ir.Node) []string {
	var out []string
	for _, in := range n.Inputs {
		switch in.Arg.Kind {
		case ir.ArgTensor:
			out = append(out, in.Arg.Name)
		case ir.ArgTensors:
			for _, e := range in.Arg.List {
				out = append(out, e.Name)
			}
		}
	}
	return out
}

// TestLlamaTensorOnlyModules: for tensor-only under the default policy the
// embedding stays on the CPU and the rest goes to the backend, rotary's
// rotate_half (slice, slice, neg, cat) and GQA's repeat_kv (unsqueeze,
// expand, clone, view) each inside one module; the symbolic length is
// recomputed inside from the tensor that crosses, so no module has a
// symbolic placeholder; the module owns the layer weights and the
// non-persistent inv_freq buffer.
func TestLlamaTensorOnlyModules(t *testing.T) {
	p := loadLlama(t)
	prof, _ := backend.Builtin("tensor-only")
	res, err := delegate.Program(p, prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	where := moduleOf(res)
	uses := p.Graph.DefUse()
	prod := func(v string) *ir.Node {
		if i, ok := uses.Producer(v); ok && i >= 0 {
			return p.Graph.Nodes[i]
		}
		return nil
	}
	users := map[string][]*ir.Node{}
	for _, n := range p.Graph.Nodes {
		for _, in := range tensorInputs(n) {
			users[in] = append(users[in], n)
		}
	}
	op := func(n *ir.Node) string { return n.Target }
	const (
		slice     = "torch.ops.aten.slice.Tensor"
		neg       = "torch.ops.aten.neg.default"
		cat       = "torch.ops.aten.cat.default"
		unsqueeze = "torch.ops.aten.unsqueeze.default"
		expand    = "torch.ops.aten.expand.default"
		clone     = "torch.ops.aten.clone.default"
		view      = "torch.ops.aten.view.default"
	)
	together := func(what string, names ...string) {
		t.Helper()
		m := where[names[0]]
		for _, n := range names {
			if where[n] == "" || where[n] != m {
				mods := make([]string, len(names))
				for i, x := range names {
					mods[i] = x + "@" + where[x]
				}
				t.Errorf("%s is not inside one module: %v", what, mods)
				return
			}
		}
	}
	rotary, gqa := 0, 0
	for _, n := range p.Graph.Nodes {
		switch op(n) {
		case neg: // rotate_half: cat(-x[..., h:], x[..., :h])
			x2 := prod(tensorInputs(n)[0])
			if x2 == nil || op(x2) != slice || len(users[n.Name]) != 1 || op(users[n.Name][0]) != cat {
				t.Errorf("%s is not rotate_half's neg", n.Name)
				continue
			}
			c := users[n.Name][0]
			x1 := prod(tensorInputs(c)[1])
			if x1 == nil || op(x1) != slice {
				t.Errorf("%s is not rotate_half's cat", c.Name)
				continue
			}
			together("rotate_half", x2.Name, x1.Name, n.Name, c.Name)
			rotary++
		case clone: // repeat_kv: x[:, :, None].expand(...).reshape(...)
			e := prod(tensorInputs(n)[0])
			if e == nil || op(e) != expand {
				continue // transpose(1, 2).contiguous()
			}
			u := prod(tensorInputs(e)[0])
			if u == nil || op(u) != unsqueeze || len(users[n.Name]) != 1 || op(users[n.Name][0]) != view {
				t.Errorf("%s is not repeat_kv's clone", n.Name)
				continue
			}
			together("repeat_kv", u.Name, e.Name, n.Name, users[n.Name][0].Name)
			gqa++
		}
	}
	if rotary != 4 || gqa != 4 {
		t.Errorf("found %d rotate_half and %d repeat_kv, want 4 and 4 (q and k, k and v, in 2 layers)", rotary, gqa)
	}
	for _, n := range p.Graph.Nodes {
		switch n.Target {
		case "torch.ops.aten.embedding.default":
			if where[n.Name] != "" {
				t.Errorf("%s went to %s: tensor-only keeps embedding on the CPU", n.Name, where[n.Name])
			}
		case "torch.ops.aten.sym_size.int":
		default:
			if where[n.Name] == "" {
				t.Errorf("%s (%s) stayed in the parent", n.Name, n.OpName())
			}
		}
	}
	for _, m := range res.Modules {
		for _, in := range m.Program.Graph.InputNames() {
			if m.Program.Graph.TypeOf(in) != ir.ValueTensor {
				t.Errorf("%s: input %s is not a tensor", m.Name, in)
			}
		}
	}
	if len(res.Crossings) == 0 {
		t.Error("no crossing: the length s0 must cross into the module")
	}
	for _, c := range res.Crossings {
		if c.Value != "sym_size_int" || c.Expr != "s0" || c.Policy != "rederive" {
			t.Errorf("unexpected crossing %+v", c)
		}
	}
	owner := ""
	for _, m := range res.Modules {
		if _, ok := m.Program.Constants["model.rotary_emb.inv_freq"]; ok {
			owner = m.Name
		}
	}
	if owner == "" {
		t.Error("no module owns model.rotary_emb.inv_freq")
	}
	if _, ok := res.Lowered.Main.Constants["model.rotary_emb.inv_freq"]; ok {
		t.Error("the parent still holds model.rotary_emb.inv_freq")
	}
	if ws := ir.SortedKeys(res.Lowered.Main.Weights); !slices.Equal(ws, []string{"model.embed_tokens.weight"}) {
		t.Errorf("parent weights %v, want only the embedding table", ws)
	}
}

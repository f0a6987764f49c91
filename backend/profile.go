package backend

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/limits"
)

// Acceptance is what a backend accepts for one kind of symbolic placeholder.
type Acceptance int

const (
	// Refuse: the value may not reach the backend as a placeholder of its
	// own; lowering must rederive, hoist, box it into a tensor the backend
	// accepts, or exclude its consumers.
	Refuse Acceptance = iota
	// Scalar: accepted as a plain scalar value (an int, double or bool at
	// run time), labelled as the symbolic user input it is.
	Scalar
	// Tensor: accepted boxed in a rank-0 tensor (i64 for SymInt, b8 for
	// SymBool, f64 for SymFloat).
	Tensor
)

var acceptanceNames = map[Acceptance]string{Refuse: "refuse", Scalar: "int", Tensor: "tensor"}

func (a Acceptance) String() string { return acceptanceNames[a] }

func (a Acceptance) MarshalJSON() ([]byte, error) { return json.Marshal(a.String()) }

func (a *Acceptance) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want one of \"refuse\", \"int\", \"tensor\"")
	}
	for k, v := range acceptanceNames {
		if v == s {
			*a = k
			return nil
		}
	}
	return fmt.Errorf("%q is not one of \"refuse\", \"int\", \"tensor\"", s)
}

// Placeholders is a backend's contract for symbolic graph inputs.
type Placeholders struct {
	SymInt   Acceptance `json:"sym_int"`
	SymBool  Acceptance `json:"sym_bool"`
	SymFloat Acceptance `json:"sym_float"`
}

// For returns the acceptance for a symbolic value type.
func (p Placeholders) For(t ir.ValueType) Acceptance {
	switch t {
	case ir.ValueSymInt:
		return p.SymInt
	case ir.ValueSymBool:
		return p.SymBool
	case ir.ValueSymFloat:
		return p.SymFloat
	}
	return Refuse
}

// BoxDType is the dtype of the rank-0 tensor a boxed symbolic value travels in.
func BoxDType(t ir.ValueType) ir.ScalarType {
	switch t {
	case ir.ValueSymBool:
		return ir.Bool
	case ir.ValueSymFloat:
		return ir.Float64
	}
	return ir.Int64
}

// OpSet selects ops by glob over their names without `torch.ops.`
// (`aten.add.Tensor`, `_operator.gt`, `higher_order.cond`).
type OpSet struct {
	Include []string `json:"include"`
	Exclude []string `json:"exclude,omitempty"`
}

// Profile is a backend's declared contract.
type Profile struct {
	Name string `json:"name"`
	// Description says in a line what kind of backend this is.
	Description string `json:"description,omitempty"`
	Ops         OpSet  `json:"ops"`
	// ExcludeNodes lists node names the backend must not take.
	ExcludeNodes []string     `json:"exclude_nodes,omitempty"`
	Placeholders Placeholders `json:"placeholders"`
	// DTypes lists the tensor dtypes accepted; empty accepts all.
	DTypes DTypeList `json:"dtypes,omitempty"`
	// DynamicShapes: tensors may have symbolic sizes.
	DynamicShapes bool `json:"dynamic_shapes"`
	// SingleNodePartitions: keep partitions of one compute node (views do
	// not count); when false such partitions are left to the CPU.
	SingleNodePartitions bool `json:"single_node_partitions"`
	// FullGraph: the whole graph must go to this backend; any unsupported
	// node, or symbolic value no allowed policy can handle, is an error.
	FullGraph bool `json:"full_graph"`
	// OwnsWeights: weights used by a partition move into its lowered
	// module (copied into each when shared); when false they stay in the
	// parent and arrive as tensor inputs.
	OwnsWeights bool `json:"owns_weights"`
	// OwnsBuffers: a buffer mutated inside a partition is taken over by the
	// lowered module, which keeps its state.
	OwnsBuffers bool `json:"owns_buffers"`
	// CompileOptions are handed to the backend when it compiles a module.
	CompileOptions map[string]string `json:"compile_options,omitempty"`
	// NodeCheck, set by a backend written in Go, refuses a node whose op
	// the list admits but whose arguments the backend cannot take (a
	// boolean mask index, a training-mode batch norm). It is not part of
	// the file form.
	NodeCheck func(g *ir.Graph, n *ir.Node) error `json:"-"`
	// PolicyOrder is the order in which lowering's default policy tries
	// its ways of taking a symbolic value across a cut (PolicySteps);
	// empty is DefaultPolicyOrder.
	PolicyOrder []string `json:"policy_order,omitempty"`

	include, exclude globSet
	excludeNodes     map[string]bool
}

// PolicySteps are the ways lowering can take a symbolic value across a
// cut, as a profile's policy_order names them.
var PolicySteps = []string{"rederive", "hoist", "pass", "box", "exclude"}

// DefaultPolicyOrder is the order lowering's default policy tries them in
// when a profile states none.
var DefaultPolicyOrder = []string{"rederive", "hoist", "pass", "box", "exclude"}

// DTypeList is a list of dtypes written by their short names ("f32",
// "i64", "b8"; "bool" is taken for "b8").
type DTypeList []ir.ScalarType

func (l DTypeList) MarshalJSON() ([]byte, error) {
	names := make([]string, len(l))
	for i, t := range l {
		names[i] = t.Short()
	}
	return json.Marshal(names)
}

func (l *DTypeList) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return fmt.Errorf("want a list of dtype names")
	}
	out := make(DTypeList, 0, len(names))
	for _, n := range names {
		t, ok := ParseDType(n)
		if !ok {
			return fmt.Errorf("unknown dtype %q (%s)", n, dtypeChoices)
		}
		out = append(out, t)
	}
	*l = out
	return nil
}

// ParseDType reads a dtype name: the annotation form (f32, b8), "bool", or
// the torch name (float32, torch.float32).
func ParseDType(s string) (ir.ScalarType, bool) {
	s = strings.TrimPrefix(s, "torch.")
	if s == "bool" {
		return ir.Bool, true
	}
	if t, ok := ir.ParseShortDType(s); ok {
		return t, true
	}
	for _, t := range []ir.ScalarType{ir.Uint8, ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.Float16, ir.Float32, ir.Float64, ir.BFloat16} {
		if strings.TrimPrefix(t.Torch(), "torch.") == s {
			return t, true
		}
	}
	return ir.Unknown, false
}

// AcceptsDType reports whether tensors of dtype t may reach the backend.
func (p *Profile) AcceptsDType(t ir.ScalarType) bool {
	return len(p.DTypes) == 0 || slices.Contains(p.DTypes, t)
}

// AcceptsTensor reports whether a tensor of dtype t and the given rank may
// reach the backend: a dtype it lists, or a rank-0 box of a symbolic kind
// it declared it takes as "tensor" (an f64[] for "sym_float": "tensor"
// even when f64 is not among its dtypes).
func (p *Profile) AcceptsTensor(t ir.ScalarType, rank int) bool {
	if p.AcceptsDType(t) {
		return true
	}
	if rank != 0 {
		return false
	}
	for _, k := range []ir.ValueType{ir.ValueSymInt, ir.ValueSymBool, ir.ValueSymFloat} {
		if p.Placeholders.For(k) == Tensor && BoxDType(k) == t {
			return true
		}
	}
	return false
}

func (p *Profile) compile() error {
	if p.PolicyOrder != nil && len(p.PolicyOrder) == 0 {
		return fmt.Errorf("field \"policy_order\": empty (name some of %s, or leave it out)", strings.Join(PolicySteps, ", "))
	}
	seen := map[string]bool{}
	for _, s := range p.PolicyOrder {
		if !slices.Contains(PolicySteps, s) {
			return fmt.Errorf("field \"policy_order\": %q is not one of %s", s, strings.Join(PolicySteps, ", "))
		}
		if seen[s] {
			return fmt.Errorf("field \"policy_order\": %q is named twice", s)
		}
		seen[s] = true
	}
	for i, g := range append(append([]string{}, p.Ops.Include...), p.Ops.Exclude...) {
		if g == "" {
			return fmt.Errorf("field \"ops\": empty pattern at %d", i)
		}
	}
	p.include = compileGlobs(p.Ops.Include)
	p.exclude = compileGlobs(p.Ops.Exclude)
	p.excludeNodes = make(map[string]bool, len(p.ExcludeNodes))
	for _, n := range p.ExcludeNodes {
		p.excludeNodes[n] = true
	}
	return nil
}

func readProfileFile(path string) ([]byte, error) {
	// Stat first: opening a FIFO would wait for a writer.
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := limits.RegularFile(st); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := limits.ProfileBytes.Check(st.Size()); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, st.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n, _ := f.Read(make([]byte, 1)); n > 0 {
		return nil, fmt.Errorf("%s: the file grew while it was read", path)
	}
	return data, nil
}

// Resolve finds a built-in profile by name, or reads a profile file.
func Resolve(nameOrFile string) (*Profile, error) {
	if p, ok := Builtin(nameOrFile); ok {
		return p, nil
	}
	if _, err := os.Stat(nameOrFile); err != nil {
		return nil, fmt.Errorf("backend %q: neither a built-in profile (%s) nor a readable file", nameOrFile, strings.Join(BuiltinNames(), ", "))
	}
	return Load(nameOrFile)
}

// ResolveList resolves backends in priority order, separated by commas
// (`onnxruntime,reference`), each a built-in name or a profile file. A
// backend named twice is refused: the second would get nothing.
func ResolveList(spec string) ([]*Profile, error) {
	if _, err := os.Stat(spec); err == nil || !strings.Contains(spec, ",") {
		p, err := Resolve(spec)
		if err != nil {
			return nil, err
		}
		return []*Profile{p}, nil
	}
	var out []*Profile
	seen := map[string]bool{}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("backends %q: an empty name in the list", spec)
		}
		p, err := Resolve(item)
		if err != nil {
			return nil, err
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("backends %q: %s is listed twice", spec, p.Name)
		}
		seen[p.Name] = true
		out = append(out, p)
	}
	return out, nil
}

// WriteJSON writes the profile in its file form.
func (p *Profile) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

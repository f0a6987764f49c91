package ir

// SchemaVersion is the export schema version a program was written with.
// seam reads major 8, any minor.
type SchemaVersion struct {
	Major int `json:"major"`
	Minor int `json:"minor"`
}

// CurrentSchema is the version seam writes (PyTorch 2.11's).
var CurrentSchema = SchemaVersion{Major: 8, Minor: 17}

// ModuleCallEntry records one module's calling convention.
type ModuleCallEntry struct {
	FQN       string               `json:"fqn"`
	Signature *ModuleCallSignature `json:"signature"`
}

// ModuleCallSignature is the pytree structure of a module's inputs and
// outputs (in_spec/out_spec are treespec JSON text).
type ModuleCallSignature struct {
	Inputs          []Argument `json:"inputs"`
	Outputs         []Argument `json:"outputs"`
	InSpec          string     `json:"in_spec"`
	OutSpec         string     `json:"out_spec"`
	ForwardArgNames []string   `json:"forward_arg_names"`
}

// Program is an ExportedProgram: the graph module (graph, signature, module
// call graph, metadata) plus range constraints, versions, and its weights.
type Program struct {
	Graph                    *Graph
	Signature                Signature
	ModuleCallGraph          []ModuleCallEntry
	Metadata                 map[string]string
	TreespecNamedtupleFields map[string][]string
	OpsetVersion             map[string]int64
	RangeConstraints         map[string]RangeConstraint
	SchemaVersion            SchemaVersion
	Verifiers                []string
	TorchVersion             string
	GuardsCode               []string

	// Weights is the state dict (parameters and persistent buffers) and
	// Constants the tensor constants, non-persistent buffers and custom
	// objects, keyed by FQN. They are not part of the JSON: the archive
	// stores them beside it.
	Weights   map[string]*Weight
	Constants map[string]*Weight
}

// Weight looks a state-dict or constant FQN up in both tables.
func (p *Program) Weight(fqn string) (*Weight, bool) {
	if w, ok := p.Weights[fqn]; ok {
		return w, true
	}
	w, ok := p.Constants[fqn]
	return w, ok
}

// UserInputs returns the specs of the user inputs, in order.
func (p *Program) UserInputs() []*InputSpec {
	var out []*InputSpec
	for i := range p.Signature.Inputs {
		if s := &p.Signature.Inputs[i]; s.Kind == InputUser {
			out = append(out, s)
		}
	}
	return out
}

// UserOutputs returns the specs of the user outputs, in order.
func (p *Program) UserOutputs() []*OutputSpec {
	var out []*OutputSpec
	for i := range p.Signature.Outputs {
		if s := &p.Signature.Outputs[i]; s.Kind == OutputUser {
			out = append(out, s)
		}
	}
	return out
}

package ir

import (
	"bytes"
	"encoding/json"
	"fmt"
)

type programJSON struct {
	GraphModule      graphModuleJSON            `json:"graph_module"`
	OpsetVersion     map[string]int64           `json:"opset_version"`
	RangeConstraints map[string]RangeConstraint `json:"range_constraints"`
	SchemaVersion    *SchemaVersion             `json:"schema_version"`
	Verifiers        []string                   `json:"verifiers"`
	TorchVersion     *string                    `json:"torch_version"`
	GuardsCode       []string                   `json:"guards_code"`
}

type graphModuleJSON struct {
	Graph                    *Graph                   `json:"graph"`
	Signature                signatureJSON            `json:"signature"`
	ModuleCallGraph          []ModuleCallEntry        `json:"module_call_graph"`
	Metadata                 map[string]string        `json:"metadata"`
	TreespecNamedtupleFields map[string]namedTupleDef `json:"treespec_namedtuple_fields"`
}

type signatureJSON struct {
	InputSpecs  []InputSpec  `json:"input_specs"`
	OutputSpecs []OutputSpec `json:"output_specs"`
}

type namedTupleDef struct {
	FieldNames []string `json:"field_names"`
}

// DecodeProgram reads an ExportedProgram from its schema JSON
// (models/<name>.json). Missing fields take the schema's defaults, unknown
// struct keys are ignored, and unknown union members are errors. Weights
// are not part of the JSON; the archive reader attaches them.
func DecodeProgram(data []byte) (*Program, error) {
	var pj programJSON
	if err := json.Unmarshal(data, &pj); err != nil {
		return nil, err
	}
	gm := pj.GraphModule
	if gm.Graph == nil {
		return nil, fmt.Errorf("graph_module has no graph")
	}
	if pj.SchemaVersion == nil {
		return nil, fmt.Errorf("no schema_version")
	}
	p := &Program{
		Graph:            gm.Graph,
		Signature:        Signature{Inputs: gm.Signature.InputSpecs, Outputs: gm.Signature.OutputSpecs},
		ModuleCallGraph:  gm.ModuleCallGraph,
		Metadata:         gm.Metadata,
		OpsetVersion:     pj.OpsetVersion,
		RangeConstraints: pj.RangeConstraints,
		SchemaVersion:    *pj.SchemaVersion,
		Verifiers:        pj.Verifiers,
		TorchVersion:     "<=2.4",
		GuardsCode:       pj.GuardsCode,
	}
	if pj.TorchVersion != nil {
		p.TorchVersion = *pj.TorchVersion
	}
	if gm.TreespecNamedtupleFields != nil {
		p.TreespecNamedtupleFields = make(map[string][]string, len(gm.TreespecNamedtupleFields))
		for k, v := range gm.TreespecNamedtupleFields {
			p.TreespecNamedtupleFields[k] = v.FieldNames
		}
	}
	return p, nil
}

// EncodeProgram writes the program's schema JSON, every field present as
// PyTorch 2.11 writes it.
func EncodeProgram(p *Program) ([]byte, error) {
	if p.Graph == nil {
		return nil, fmt.Errorf("program has no graph")
	}
	sv, tv := p.SchemaVersion, p.TorchVersion
	pj := programJSON{
		GraphModule: graphModuleJSON{
			Graph:           p.Graph,
			Signature:       signatureJSON{InputSpecs: nonNil(p.Signature.Inputs), OutputSpecs: nonNil(p.Signature.Outputs)},
			ModuleCallGraph: nonNil(p.ModuleCallGraph),
			Metadata:        nonNilMap(p.Metadata),
		},
		OpsetVersion:     nonNilMap(p.OpsetVersion),
		RangeConstraints: nonNilMap(p.RangeConstraints),
		SchemaVersion:    &sv,
		Verifiers:        nonNil(p.Verifiers),
		TorchVersion:     &tv,
		GuardsCode:       nonNil(p.GuardsCode),
	}
	pj.GraphModule.TreespecNamedtupleFields = make(map[string]namedTupleDef, len(p.TreespecNamedtupleFields))
	for k, v := range p.TreespecNamedtupleFields {
		pj.GraphModule.TreespecNamedtupleFields[k] = namedTupleDef{nonNil(v)}
	}
	return marshal(pj)
}

func nonNilMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return m
}

// graphJSON has Graph's fields without its methods, so the codec below can
// use the plain struct encoding.
type graphJSON Graph

func (g *Graph) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return fmt.Errorf("graph is null")
	}
	return json.Unmarshal(b, (*graphJSON)(g))
}

func (g *Graph) MarshalJSON() ([]byte, error) {
	c := *g
	c.Inputs, c.Outputs, c.Nodes = nonNil(c.Inputs), nonNil(c.Outputs), nonNil(c.Nodes)
	c.TensorValues, c.SymIntValues = nonNilMap(c.TensorValues), nonNilMap(c.SymIntValues)
	c.SymBoolValues, c.SymFloatValues = nonNilMap(c.SymBoolValues), nonNilMap(c.SymFloatValues)
	c.CustomObjValues = nonNilMap(c.CustomObjValues)
	return marshal((*graphJSON)(&c))
}

type nodeJSON struct {
	Target                  string            `json:"target"`
	Inputs                  []NamedArgument   `json:"inputs"`
	Outputs                 []Argument        `json:"outputs"`
	Metadata                map[string]string `json:"metadata"`
	IsHOPSingleTensorReturn *bool             `json:"is_hop_single_tensor_return"`
	Name                    *string           `json:"name"`
}

// UnmarshalJSON reads a node, naming it in any error. A node without a name
// (files older than schema 8.16) takes its first output's name, as FX named
// it.
func (n *Node) UnmarshalJSON(b []byte) error {
	var nj nodeJSON
	if err := json.Unmarshal(b, &nj); err != nil {
		// Find the node's identity so the error can name it.
		var id struct {
			Target string  `json:"target"`
			Name   *string `json:"name"`
		}
		_ = json.Unmarshal(b, &id)
		who := id.Target
		if id.Name != nil {
			who = *id.Name + " (" + id.Target + ")"
		}
		return fmt.Errorf("node %s: %w", who, err)
	}
	*n = Node{
		Target:                  nj.Target,
		Inputs:                  nj.Inputs,
		Outputs:                 nj.Outputs,
		Metadata:                nj.Metadata,
		IsHOPSingleTensorReturn: nj.IsHOPSingleTensorReturn,
	}
	if nj.Name != nil {
		n.Name = *nj.Name
	} else if outs := n.OutputNames(); len(outs) > 0 {
		n.Name = outs[0]
	}
	if n.Target == "" {
		return fmt.Errorf("node %s: no target", n.Name)
	}
	return nil
}

func (n *Node) MarshalJSON() ([]byte, error) {
	name := n.Name
	return marshal(nodeJSON{
		Target:                  n.Target,
		Inputs:                  nonNil(n.Inputs),
		Outputs:                 nonNil(n.Outputs),
		Metadata:                nonNilMap(n.Metadata),
		IsHOPSingleTensorReturn: n.IsHOPSingleTensorReturn,
		Name:                    &name,
	})
}

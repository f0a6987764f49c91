package verify

import "fmt"

// Rule identifies one check.
type Rule string

// The rules. Their names appear in every violation.
const (
	InputCount        Rule = "input-count"         // graph inputs and input specs differ in number
	InputName         Rule = "input-name"          // a placeholder's name differs from its spec's
	InputKind         Rule = "input-kind"          // a spec's argument has the wrong kind (a parameter that is not a tensor)
	OutputCount       Rule = "output-count"        // graph outputs and output specs differ in number
	OutputName        Rule = "output-name"         // an output differs from its spec's argument
	OutputOrder       Rule = "output-order"        // tokens, then mutations, then user outputs
	UniqueName        Rule = "unique-name"         // a value or node name is defined twice
	DefinedBeforeUse  Rule = "defined-before-use"  // a value is used before (or without) its definition
	WeightMissing     Rule = "weight-missing"      // a parameter, buffer or constant has no stored weight
	WeightMismatch    Rule = "weight-mismatch"     // a weight's dtype or shape differs from its placeholder's
	BufferMutation    Rule = "buffer-mutation"     // a buffer mutation names no buffer input
	UserInputMutation Rule = "user-input-mutation" // a user input mutation names no user input
	MissingMeta       Rule = "missing-meta"        // a value has no metadata in the graph's tables
	UnboundSymbol     Rule = "unbound-symbol"      // a symbol in a size has no range and no input binds it
	NeedsSymbol       Rule = "needs-symbol"        // a size needs a symbol the inputs carry only inside sizes known as wholes
	BadRange          Rule = "bad-range"           // a range constraint whose min exceeds its max
	UnknownOp         Rule = "unknown-op"          // a target the op table does not know (a warning)
	DisallowedOp      Rule = "disallowed-op"       // a Python function export does not allow
	NotFunctional     Rule = "not-functional"      // an op that mutates its inputs
	OpArguments       Rule = "op-arguments"        // unknown, duplicate or missing arguments
	OpArgumentKind    Rule = "op-argument-kind"    // an argument of the wrong kind for its schema type
	OpReturns         Rule = "op-returns"          // outputs that do not match the schema's returns
	NestedGraph       Rule = "nested-graph"        // a nested graph that disagrees with the call using it
	DelegateCall      Rule = "delegate-call"       // a delegate call naming no module, or with the wrong arguments
	ModuleRange       Rule = "module-range"        // a module's range for a symbol leaves out values the program admits
	Specialization    Rule = "specialization"      // a specialization the runtime could not dispatch to, or that takes other inputs than the program
	ContractSymbolic  Rule = "contract-symbolic"   // a symbolic placeholder the backend refuses
	ContractDType     Rule = "contract-dtype"      // a tensor placeholder of a dtype the backend refuses
	ContractDynamic   Rule = "contract-dynamic"    // a dynamic size given to a static-shape backend
	ContractRecorded  Rule = "contract-recorded"   // a recorded contract that differs from its registered backend's
	Compiled          Rule = "compiled"            // a module's compiled form its backend needs: missing, unreadable, or not the module's
)

// Violation is one broken rule.
type Violation struct {
	Rule Rule
	// Graph is the nested graph's path ("" for the top level); Node names
	// the node, input, output or weight concerned.
	Graph, Node string
	Msg         string
	// Warning marks a violation that does not make the program invalid.
	Warning bool
}

func (v Violation) String() string {
	where := v.Node
	if v.Graph != "" {
		where = v.Graph + ": " + where
	}
	sev := ""
	if v.Warning {
		sev = "warning: "
	}
	return fmt.Sprintf("%s%s: %s: %s", sev, v.Rule, where, v.Msg)
}

// Errors keeps the violations that are not warnings.
func Errors(vs []Violation) []Violation {
	var out []Violation
	for _, v := range vs {
		if !v.Warning {
			out = append(out, v)
		}
	}
	return out
}

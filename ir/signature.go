package ir

// InputKind is the member of the schema's InputSpec union.
type InputKind uint8

// Input spec kinds, named as the schema names them.
const (
	InputInvalid InputKind = iota
	InputUser
	InputParameter
	InputBuffer
	InputTensorConstant
	InputCustomObj
	InputToken
	InputConstant
)

var inputKindNames = [...]string{
	InputUser: "user_input", InputParameter: "parameter", InputBuffer: "buffer",
	InputTensorConstant: "tensor_constant", InputCustomObj: "custom_obj", InputToken: "token",
	InputConstant: "constant_input",
}

func (k InputKind) String() string {
	if int(k) < len(inputKindNames) && inputKindNames[k] != "" {
		return inputKindNames[k]
	}
	return "invalid"
}

// InputSpec says what one graph input is. Arg is the placeholder (a tensor
// for parameters, buffers and constants; any argument for user inputs; the
// constant's value for constant_input). Target is the state-dict or constant
// FQN (parameter_name, buffer_name, tensor_constant_name, custom_obj_name).
// Name is the placeholder name of a constant_input.
type InputSpec struct {
	Kind       InputKind
	Arg        Argument
	Target     string
	Persistent bool
	Name       string
}

// PlaceholderName is the graph-level name of the input.
func (s *InputSpec) PlaceholderName() string {
	if s.Kind == InputConstant {
		return s.Name
	}
	return s.Arg.Name
}

// OutputKind is the member of the schema's OutputSpec union.
type OutputKind uint8

// Output spec kinds.
const (
	OutputInvalid OutputKind = iota
	OutputUser
	OutputLoss
	OutputBufferMutation
	OutputGradientToParameter
	OutputGradientToUserInput
	OutputUserInputMutation
	OutputToken
	OutputParameterMutation
)

var outputKindNames = [...]string{
	OutputUser: "user_output", OutputLoss: "loss_output", OutputBufferMutation: "buffer_mutation",
	OutputGradientToParameter: "gradient_to_parameter", OutputGradientToUserInput: "gradient_to_user_input",
	OutputUserInputMutation: "user_input_mutation", OutputToken: "token",
	OutputParameterMutation: "parameter_mutation",
}

func (k OutputKind) String() string {
	if int(k) < len(outputKindNames) && outputKindNames[k] != "" {
		return outputKindNames[k]
	}
	return "invalid"
}

// OutputSpec says what one graph output is. Target is the buffer, parameter
// or user input it updates, where the kind has one.
type OutputSpec struct {
	Kind   OutputKind
	Arg    Argument
	Target string
}

// Signature pairs graph inputs and outputs with their specs, index by index.
type Signature struct {
	Inputs  []InputSpec
	Outputs []OutputSpec
}

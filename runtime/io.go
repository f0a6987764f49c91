package runtime

import (
	"fmt"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// InputValue turns an array read from a file into the value a user input
// takes: a 0-d int64 array is a SymInt user input's plain int, anything
// else a tensor.
func InputValue(t *tensor.Tensor) value.Value {
	if t.Dim() == 0 && t.DType() == tensor.Int64 {
		return value.FromInt(t.Int())
	}
	return value.FromTensor(t)
}

// OutputTensor turns an output into a tensor for writing or comparing:
// scalars become 0-d tensors, as torch.export's outputs would.
func OutputTensor(v value.Value) (*tensor.Tensor, error) {
	switch v.Kind() {
	case value.Tensor:
		return v.Tensor(), nil
	case value.Int:
		return tensor.Scalar(v.Int()), nil
	case value.Double:
		return tensor.Scalar(v.Double()), nil
	case value.Bool:
		return tensor.Scalar(v.Bool()), nil
	}
	return nil, fmt.Errorf("output is %s, not a tensor or scalar", v.Kind())
}

package kernels

import (
	"fmt"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// DefaultFloat is torch.get_default_dtype(): the dtype of float Python
// scalars and of int-to-float results.
const DefaultFloat = tensor.Float32

// PromoteTypes is c10::promoteTypes for the supported dtypes.
func PromoteTypes(a, b tensor.DType) tensor.DType {
	if a == b {
		return a
	}
	if a == tensor.Invalid {
		return b
	}
	if b == tensor.Invalid {
		return a
	}
	if a == tensor.Bool {
		return b
	}
	if b == tensor.Bool {
		return a
	}
	af, bf := a.IsFloat(), b.IsFloat()
	switch {
	case af && bf:
		if (a == tensor.Float16 && b == tensor.BFloat16) || (a == tensor.BFloat16 && b == tensor.Float16) {
			return tensor.Float32
		}
		if floatRank(a) > floatRank(b) {
			return a
		}
		return b
	case af:
		return a
	case bf:
		return b
	}
	// Both integral: uint8 with a signed type needs a wider signed type.
	if a == tensor.Uint8 || b == tensor.Uint8 {
		other := a
		if a == tensor.Uint8 {
			other = b
		}
		if other == tensor.Int8 {
			return tensor.Int16
		}
		return other
	}
	if intRank(a) > intRank(b) {
		return a
	}
	return b
}

func floatRank(d tensor.DType) int {
	switch d {
	case tensor.Float16, tensor.BFloat16:
		return 1
	case tensor.Float32:
		return 2
	}
	return 3
}

func intRank(d tensor.DType) int {
	switch d {
	case tensor.Int8:
		return 1
	case tensor.Int16:
		return 2
	case tensor.Int32:
		return 3
	}
	return 4
}

// resultState is ATen's ResultTypeState: dimensioned tensors outrank 0-d
// tensors, which outrank wrapped Python scalars, unless a lower tier has a
// higher category (bool < integer < float).
type resultState struct {
	dim, zero, wrapped tensor.DType
}

func (s *resultState) add(v value.Value) {
	switch v.Kind() {
	case value.Tensor:
		t := v.Tensor()
		if t.Dim() == 0 {
			s.zero = PromoteTypes(s.zero, t.DType())
		} else {
			s.dim = PromoteTypes(s.dim, t.DType())
		}
	case value.Int:
		s.wrapped = PromoteTypes(s.wrapped, tensor.Int64)
	case value.Double:
		s.wrapped = PromoteTypes(s.wrapped, DefaultFloat)
	case value.Bool:
		s.wrapped = PromoteTypes(s.wrapped, tensor.Bool)
	}
}

func combineCategories(higher, lower tensor.DType) tensor.DType {
	if higher.IsFloat() {
		return higher
	}
	if higher == tensor.Bool || lower.IsFloat() {
		return PromoteTypes(higher, lower)
	}
	if higher != tensor.Invalid {
		return higher
	}
	return lower
}

func (s *resultState) result() tensor.DType {
	return combineCategories(s.dim, combineCategories(s.zero, s.wrapped))
}

// ResultType is torch.result_type over tensors and scalars.
func ResultType(vals ...value.Value) tensor.DType {
	var s resultState
	for _, v := range vals {
		s.add(v)
	}
	return s.result()
}

func resultType2(a, b value.Value) tensor.DType {
	var s resultState
	s.add(a)
	s.add(b)
	return s.result()
}

func dtypeErr(op string, d tensor.DType) error {
	return fmt.Errorf("%s is not implemented for %v", op, d)
}

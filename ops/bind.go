package ops

import (
	"fmt"

	"github.com/seam-rt/seam/value"
)

// NamedArg is one argument of a call node: a schema argument name (empty
// for a positional argument, as higher-order ops serialize theirs) and its
// value.
type NamedArg struct {
	Name  string
	Value value.Value
}

// Bind puts a node's arguments into schema order with defaults filled, the
// form kernels take. Arguments may come by name (in any order) or
// positionally (empty name, before any named one); omitted arguments take
// their defaults. Unknown, duplicate and missing arguments are errors, as
// is a positional argument past the positional parameters. The result
// reuses dst's storage when it is large enough. A variadic last parameter
// (Any...) collects the remaining positional arguments.
func (s *Schema) Bind(dst []value.Value, args []NamedArg) ([]value.Value, error) {
	n := len(s.Args)
	variadic := n > 0 && s.Args[n-1].Type.Variadic
	if variadic {
		n--
	}
	if cap(dst) < n {
		dst = make([]value.Value, n)
	}
	dst = dst[:n]
	// bound tracks which slots are filled; 64 covers every ATen schema.
	var bound uint64
	if n > 64 {
		return nil, fmt.Errorf("%s: too many parameters", s.Target())
	}
	pos := 0
	sawNamed := false
	for _, a := range args {
		if a.Name == "" {
			if sawNamed {
				return nil, fmt.Errorf("%s: positional argument after named arguments", s.Target())
			}
			if pos < n && !s.Args[pos].KwargOnly {
				dst[pos] = a.Value
				bound |= 1 << pos
				pos++
				continue
			}
			if variadic {
				dst = append(dst, a.Value)
				continue
			}
			return nil, fmt.Errorf("%s: too many positional arguments (takes %d)", s.Target(), positional(s))
		}
		sawNamed = true
		i, ok := s.ArgIndex(a.Name)
		if !ok || i >= n {
			return nil, fmt.Errorf("%s: unknown argument %q", s.Target(), a.Name)
		}
		if bound&(1<<i) != 0 {
			return nil, fmt.Errorf("%s: duplicate argument %q", s.Target(), a.Name)
		}
		dst[i] = a.Value
		bound |= 1 << i
	}
	for i := 0; i < n; i++ {
		if bound&(1<<i) != 0 {
			continue
		}
		if !s.Args[i].HasDefault {
			return nil, fmt.Errorf("%s: missing argument %q", s.Target(), s.Args[i].Name)
		}
		dst[i] = s.Args[i].Default
	}
	return dst, nil
}

func positional(s *Schema) int {
	n := 0
	for _, a := range s.Args {
		if !a.KwargOnly && !a.Type.Variadic {
			n++
		}
	}
	return n
}

// Accepts reports whether a run-time value fits a type, as PyTorch's
// argument parser would take it: an int where a float or Scalar is
// expected, a single int for a sized int list (int[1] dim), None for
// optionals, and a Tensor[] for a Tensor?[].
func (t Type) Accepts(v value.Value) bool {
	k := v.Kind()
	if k == value.None {
		return t.Optional || t.Base == AnyT
	}
	if t.Variadic || t.Base == AnyT {
		return true
	}
	if t.List {
		switch t.Base {
		case IntT, SymIntT:
			return k == value.IntList || (k == value.Int && t.Len > 0)
		case FloatT:
			return k == value.DoubleList
		case BoolT:
			return k == value.BoolList
		case TensorT:
			return k == value.TensorList || (t.ElemOptional && k == value.OptTensorList)
		}
		return false
	}
	switch t.Base {
	case TensorT:
		return k == value.Tensor
	case IntT, SymIntT:
		return k == value.Int
	case FloatT:
		return k == value.Double || k == value.Int
	case ScalarT:
		return k == value.Int || k == value.Double || k == value.Bool
	case BoolT:
		return k == value.Bool
	case StrT:
		return k == value.String
	case ScalarTypeT:
		return k == value.ScalarType
	case LayoutT:
		return k == value.Layout
	case DeviceT:
		return k == value.Device
	case MemoryFormatT:
		return k == value.MemoryFormat
	}
	return false
}

// Check verifies that bound arguments (in schema order) fit their types,
// naming the first that does not.
func (s *Schema) Check(args []value.Value) error {
	for i, a := range s.Args {
		if a.Type.Variadic {
			break
		}
		if i >= len(args) {
			return fmt.Errorf("%s: missing argument %q", s.Target(), a.Name)
		}
		if !a.Type.Accepts(args[i]) {
			return fmt.Errorf("%s: argument %q must be %v, not %s", s.Target(), a.Name, a.Type, args[i].Describe())
		}
	}
	return nil
}

// Package value is the runtime's tagged value, as ExecuTorch's EValue: None,
// Int, Double, Bool, String, Tensor, lists of those, and the enum-like
// arguments (ScalarType, Layout, MemoryFormat, Device) kept as ints.
//
// A Value is 32 bytes and holds no interface: scalars live in one word,
// and a tensor, string or list is one pointer plus a length, so []Value
// argument slices can be reused without allocation.
package value

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/seam-rt/seam/tensor"
)

// Kind tags a Value.
type Kind uint8

// The kinds of Value. The zero Value is None.
const (
	None Kind = iota
	Int
	Double
	Bool
	String
	Tensor
	IntList
	DoubleList
	BoolList
	TensorList
	OptTensorList // Tensor?[]: a nil entry is None
	ScalarType
	Layout
	MemoryFormat
	Device
)

var kindNames = [...]string{"None", "Int", "Double", "Bool", "String", "Tensor", "int[]", "float[]",
	"bool[]", "Tensor[]", "Tensor?[]", "ScalarType", "Layout", "MemoryFormat", "Device"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is a tagged value. Build it with the constructors; read it with the
// accessors, which return zero values for the wrong kind (check Kind first,
// or use the As... forms that report a mismatch).
type Value struct {
	kind Kind
	n    int            // list or string length
	bits uint64         // Int, Double (IEEE bits), Bool, enum values
	p    unsafe.Pointer // *tensor.Tensor, string bytes, or a list's first element
}

// Layout values (export schema numbering).
const (
	LayoutStrided = 7
)

// MemoryFormat values (export schema numbering).
const (
	MemoryFormatContiguous   = 1
	MemoryFormatChannelsLast = 2
	MemoryFormatPreserve     = 4
)

// Device types (c10::DeviceType numbering).
const (
	DeviceCPU  = 0
	DeviceCUDA = 1
	DeviceMPS  = 13
	DeviceMeta = 9
)

// Constructors.

// NoneValue is None.
func NoneValue() Value { return Value{} }

// FromInt makes an Int.
func FromInt(i int64) Value { return Value{kind: Int, bits: uint64(i)} }

// FromDouble makes a Double.
func FromDouble(f float64) Value { return Value{kind: Double, bits: math.Float64bits(f)} }

// FromBool makes a Bool.
func FromBool(b bool) Value {
	v := Value{kind: Bool}
	if b {
		v.bits = 1
	}
	return v
}

// FromString makes a String (no copy).
func FromString(s string) Value {
	return Value{kind: String, n: len(s), p: unsafe.Pointer(unsafe.StringData(s))}
}

// FromTensor makes a Tensor; a nil tensor makes None.
func FromTensor(t *tensor.Tensor) Value {
	if t == nil {
		return Value{}
	}
	return Value{kind: Tensor, p: unsafe.Pointer(t)}
}

// FromInts makes an int list that shares l.
func FromInts(l []int64) Value {
	return Value{kind: IntList, n: len(l), p: unsafe.Pointer(unsafe.SliceData(l))}
}

// FromDoubles makes a float list that shares l.
func FromDoubles(l []float64) Value {
	return Value{kind: DoubleList, n: len(l), p: unsafe.Pointer(unsafe.SliceData(l))}
}

// FromBools makes a bool list that shares l.
func FromBools(l []bool) Value {
	return Value{kind: BoolList, n: len(l), p: unsafe.Pointer(unsafe.SliceData(l))}
}

// FromTensors makes a Tensor[] that shares l.
func FromTensors(l []*tensor.Tensor) Value {
	return Value{kind: TensorList, n: len(l), p: unsafe.Pointer(unsafe.SliceData(l))}
}

// FromOptTensors makes a Tensor?[] that shares l; nil entries are None.
func FromOptTensors(l []*tensor.Tensor) Value {
	return Value{kind: OptTensorList, n: len(l), p: unsafe.Pointer(unsafe.SliceData(l))}
}

// FromScalarType makes a ScalarType (a dtype).
func FromScalarType(d tensor.DType) Value { return Value{kind: ScalarType, bits: uint64(d)} }

// FromLayout makes a Layout (export schema numbering; 7 is strided).
func FromLayout(l int) Value { return Value{kind: Layout, bits: uint64(l)} }

// FromMemoryFormat makes a MemoryFormat (export schema numbering).
func FromMemoryFormat(m int) Value { return Value{kind: MemoryFormat, bits: uint64(m)} }

// FromDevice makes a Device of a type (DeviceCPU, ...) and index (-1: none).
func FromDevice(typ, index int) Value {
	return Value{kind: Device, bits: uint64(uint32(typ)) | uint64(uint32(int32(index)))<<32}
}

// Accessors.

// Kind is the tag.
func (v Value) Kind() Kind { return v.kind }

// IsNone reports None.
func (v Value) IsNone() bool { return v.kind == None }

// Int is an Int's value (a Bool reads as 0/1, as Python's int(bool)).
func (v Value) Int() int64 {
	if v.kind == Int || v.kind == Bool {
		return int64(v.bits)
	}
	return 0
}

// Double is a Double's value; an Int or Bool converts.
func (v Value) Double() float64 {
	switch v.kind {
	case Double:
		return math.Float64frombits(v.bits)
	case Int, Bool:
		return float64(int64(v.bits))
	}
	return 0
}

// Bool is a Bool's value.
func (v Value) Bool() bool { return v.kind == Bool && v.bits != 0 }

// Str is a String's value.
func (v Value) Str() string {
	if v.kind != String || v.n == 0 {
		return ""
	}
	return unsafe.String((*byte)(v.p), v.n)
}

// Tensor is a Tensor's tensor, nil for any other kind.
func (v Value) Tensor() *tensor.Tensor {
	if v.kind != Tensor {
		return nil
	}
	return (*tensor.Tensor)(v.p)
}

// Ints is an int list (shared, do not modify).
func (v Value) Ints() []int64 {
	if v.kind != IntList || v.n == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(v.p), v.n)
}

// Doubles is a float list.
func (v Value) Doubles() []float64 {
	if v.kind != DoubleList || v.n == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(v.p), v.n)
}

// Bools is a bool list.
func (v Value) Bools() []bool {
	if v.kind != BoolList || v.n == 0 {
		return nil
	}
	return unsafe.Slice((*bool)(v.p), v.n)
}

// Tensors is a Tensor[] or Tensor?[] list (nil entries are None).
func (v Value) Tensors() []*tensor.Tensor {
	if (v.kind != TensorList && v.kind != OptTensorList) || v.n == 0 {
		return nil
	}
	return unsafe.Slice((**tensor.Tensor)(v.p), v.n)
}

// Len is the length of a list or string.
func (v Value) Len() int { return v.n }

// ScalarType is a ScalarType's dtype.
func (v Value) ScalarType() tensor.DType {
	if v.kind != ScalarType {
		return tensor.Invalid
	}
	return tensor.DType(v.bits)
}

// Enum is the number held by a ScalarType, Layout or MemoryFormat.
func (v Value) Enum() int { return int(v.bits) }

// DeviceType and DeviceIndex unpack a Device.
func (v Value) DeviceType() int  { return int(uint32(v.bits)) }
func (v Value) DeviceIndex() int { return int(int32(uint32(v.bits >> 32))) }

// IsScalar reports an Int, Double or Bool: what a Scalar argument may be.
func (v Value) IsScalar() bool { return v.kind == Int || v.kind == Double || v.kind == Bool }

// Checked accessors for error reporting.

// AsInt is Int, with an error naming the kind when v is not an Int.
func (v Value) AsInt() (int64, error) {
	if v.kind != Int {
		return 0, mismatch("Int", v)
	}
	return int64(v.bits), nil
}

// AsTensor is Tensor, with an error when v is not a Tensor.
func (v Value) AsTensor() (*tensor.Tensor, error) {
	if v.kind != Tensor {
		return nil, mismatch("Tensor", v)
	}
	return (*tensor.Tensor)(v.p), nil
}

func mismatch(want string, v Value) error {
	return fmt.Errorf("expected %s but got %s", want, v.Describe())
}

// Describe is the kind and, for tensors, the type: "Tensor f32[2, 3]".
func (v Value) Describe() string {
	if t := v.Tensor(); t != nil {
		return "Tensor " + t.Type()
	}
	return v.kind.String() + " " + v.String()
}

var deviceNames = map[int]string{DeviceCPU: "cpu", DeviceCUDA: "cuda", DeviceMPS: "mps", DeviceMeta: "meta"}

var layoutNames = map[int]string{0: "unknown", 1: "sparse_coo", 2: "sparse_csr", 3: "sparse_csc",
	4: "sparse_bsr", 5: "sparse_bsc", 6: "_mkldnn", 7: "strided"}

var memoryFormatNames = map[int]string{0: "unknown", 1: "contiguous_format", 2: "channels_last",
	3: "channels_last_3d", 4: "preserve_format"}

// String prints v as graph.txt would: 3, 0.5, True, "s", f32[2, 3],
// [1, 2], torch.float32, device(type='cpu').
func (v Value) String() string {
	switch v.kind {
	case None:
		return "None"
	case Int:
		return strconv.FormatInt(v.Int(), 10)
	case Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64)
	case Bool:
		if v.Bool() {
			return "True"
		}
		return "False"
	case String:
		return strconv.Quote(v.Str())
	case Tensor:
		return v.Tensor().Type()
	case IntList:
		return joinList(v.Ints(), func(x int64) string { return strconv.FormatInt(x, 10) })
	case DoubleList:
		return joinList(v.Doubles(), func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) })
	case BoolList:
		return joinList(v.Bools(), func(x bool) string {
			if x {
				return "True"
			}
			return "False"
		})
	case TensorList, OptTensorList:
		return joinList(v.Tensors(), func(t *tensor.Tensor) string {
			if t == nil {
				return "None"
			}
			return t.Type()
		})
	case ScalarType:
		return "torch." + v.ScalarType().Name()
	case Layout:
		return "torch." + nameOr(layoutNames, v.Enum())
	case MemoryFormat:
		return "torch." + nameOr(memoryFormatNames, v.Enum())
	case Device:
		s := "device(type='" + nameOr(deviceNames, v.DeviceType()) + "'"
		if i := v.DeviceIndex(); i >= 0 {
			s += ", index=" + strconv.Itoa(i)
		}
		return s + ")"
	}
	return v.kind.String()
}

func nameOr(m map[int]string, k int) string {
	if s, ok := m[k]; ok {
		return s
	}
	return strconv.Itoa(k)
}

func joinList[T any](l []T, f func(T) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range l {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f(x))
	}
	b.WriteByte(']')
	return b.String()
}

package tensor

import (
	"fmt"
	"strings"
)

// DType is an element type. Its numeric values are the export schema's
// ScalarType numbers (torch/_export/serde/schema.py), not c10's, so a dtype
// read from a .pt2 converts with a plain cast.
type DType uint8

// The dtypes of the export schema that this package stores.
const (
	Invalid  DType = 0
	Uint8    DType = 1
	Int8     DType = 2
	Int16    DType = 3
	Int32    DType = 4
	Int64    DType = 5
	Float16  DType = 6
	Float32  DType = 7
	Float64  DType = 8
	Bool     DType = 12
	BFloat16 DType = 13
)

type dtypeInfo struct {
	short, long string
	size        int
}

var dtypeInfos = [...]dtypeInfo{
	Uint8:    {"u8", "uint8", 1},
	Int8:     {"i8", "int8", 1},
	Int16:    {"i16", "int16", 2},
	Int32:    {"i32", "int32", 4},
	Int64:    {"i64", "int64", 8},
	Float16:  {"f16", "float16", 2},
	Float32:  {"f32", "float32", 4},
	Float64:  {"f64", "float64", 8},
	Bool:     {"b8", "bool", 1},
	BFloat16: {"bf16", "bfloat16", 2},
}

// Valid reports whether d is one of the dtypes above.
func (d DType) Valid() bool { return int(d) < len(dtypeInfos) && dtypeInfos[d].size != 0 }

// String is the short name graph.txt prints ("f32", "i64", "b8").
func (d DType) String() string {
	if d.Valid() {
		return dtypeInfos[d].short
	}
	return fmt.Sprintf("dtype(%d)", uint8(d))
}

// Name is the torch name without the "torch." prefix ("float32").
func (d DType) Name() string {
	if d.Valid() {
		return dtypeInfos[d].long
	}
	return d.String()
}

// Size is the element size in bytes; 0 for an invalid dtype.
func (d DType) Size() int {
	if d.Valid() {
		return dtypeInfos[d].size
	}
	return 0
}

// IsFloat reports a floating-point dtype.
func (d DType) IsFloat() bool {
	return d == Float16 || d == Float32 || d == Float64 || d == BFloat16
}

// IsInt reports an integral dtype other than bool.
func (d DType) IsInt() bool {
	return d == Uint8 || d == Int8 || d == Int16 || d == Int32 || d == Int64
}

// ParseDType accepts the short names ("f32", "b8"), torch names ("float32",
// "torch.float32") and common aliases ("float", "long", "half").
func ParseDType(s string) (DType, error) {
	name := strings.TrimPrefix(s, "torch.")
	for d, info := range dtypeInfos {
		if info.size != 0 && (name == info.short || name == info.long) {
			return DType(d), nil
		}
	}
	switch name {
	case "float":
		return Float32, nil
	case "double":
		return Float64, nil
	case "half":
		return Float16, nil
	case "long":
		return Int64, nil
	case "int":
		return Int32, nil
	case "short":
		return Int16, nil
	case "bool_":
		return Bool, nil
	}
	return Invalid, fmt.Errorf("tensor: unknown dtype %q", s)
}

package onnx

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/tensor"
)

// Constants are initializers of the top-level graph (visible inside every
// branch), made once per distinct value.

// constant returns the name of a constant tensor with these contents.
func (t *translator) constant(dt DataType, dims []int64, raw []byte) string {
	key := fmt.Sprintf("%d%v%x", dt, dims, raw)
	if n, ok := t.consts[key]; ok {
		return n
	}
	name := t.fresh(fmt.Sprintf("const_%s", dataTypeNames[dt]))
	t.consts[key] = name
	t.top.Initializers = append(t.top.Initializers, &Tensor{Name: name, DataType: dt, Dims: append([]int64{}, dims...), RawData: raw})
	return name
}

// i64s is a 1-D INT64 constant.
func (t *translator) i64s(vs ...int64) string {
	raw := make([]byte, 0, 8*len(vs))
	for _, v := range vs {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
	}
	return t.constant(Int64, []int64{int64(len(vs))}, raw)
}

// i64 is a rank-0 INT64 constant.
func (t *translator) i64(v int64) string { return t.scalar(Int64, float64(v), v) }

// scalar is a rank-0 constant of element type dt holding f (or i, for
// integer types, exactly).
func (t *translator) scalar(dt DataType, f float64, i int64) string {
	return t.constant(dt, nil, encodeScalar(dt, f, i))
}

func encodeScalar(dt DataType, f float64, i int64) []byte {
	var b []byte
	switch dt {
	case Float:
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(f)))
	case Double:
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
	case Float16:
		b = binary.LittleEndian.AppendUint16(b, uint16(tensor.ToFloat16(float32(f))))
	case BFloat16:
		b = binary.LittleEndian.AppendUint16(b, uint16(tensor.ToBFloat16(float32(f))))
	case Int64, Uint64:
		b = binary.LittleEndian.AppendUint64(b, uint64(i))
	case Int32, Uint32:
		b = binary.LittleEndian.AppendUint32(b, uint32(i))
	case Int16, Uint16:
		b = binary.LittleEndian.AppendUint16(b, uint16(i))
	case Int8, Uint8:
		b = append(b, byte(i))
	case Bool:
		if i != 0 || f != 0 {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return b
}

// literal makes a constant of a literal argument (as a graph value: an int
// is a rank-0 INT64, a float a rank-0 FLOAT, a bool a rank-0 BOOL).
func (t *translator) literal(a *ir.Argument) (string, error) {
	switch a.Kind {
	case ir.ArgInt, ir.ArgSymInt:
		return t.i64(a.Int), nil
	case ir.ArgFloat, ir.ArgSymFloat:
		return t.scalar(Float, a.Float, 0), nil
	case ir.ArgBool, ir.ArgSymBool:
		return t.scalar(Bool, 0, boolInt(a.Bool)), nil
	case ir.ArgInts:
		return t.i64s(a.Ints...), nil
	}
	return "", fmt.Errorf("a %s constant has no ONNX form", a.Kind)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

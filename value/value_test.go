package value

import (
	"math"
	"testing"
	"unsafe"

	"github.com/seam-rt/seam/tensor"
)

func TestValueKindsAndStrings(t *testing.T) {
	x, _ := tensor.New(tensor.Float32, 2, 3)
	cases := []struct {
		v    Value
		kind Kind
		str  string
	}{
		{Value{}, None, "None"},
		{FromInt(-3), Int, "-3"},
		{FromDouble(0.5), Double, "0.5"},
		{FromDouble(math.Inf(-1)), Double, "-Inf"},
		{FromBool(true), Bool, "True"},
		{FromString("tanh"), String, `"tanh"`},
		{FromTensor(x), Tensor, "f32[2, 3]"},
		{FromTensor(nil), None, "None"},
		{FromInts([]int64{1, -1}), IntList, "[1, -1]"},
		{FromInts(nil), IntList, "[]"},
		{FromDoubles([]float64{1.5}), DoubleList, "[1.5]"},
		{FromBools([]bool{true, false}), BoolList, "[True, False]"},
		{FromTensors([]*tensor.Tensor{x}), TensorList, "[f32[2, 3]]"},
		{FromOptTensors([]*tensor.Tensor{nil, x}), OptTensorList, "[None, f32[2, 3]]"},
		{FromScalarType(tensor.Float32), ScalarType, "torch.float32"},
		{FromLayout(LayoutStrided), Layout, "torch.strided"},
		{FromMemoryFormat(MemoryFormatContiguous), MemoryFormat, "torch.contiguous_format"},
		{FromDevice(DeviceCPU, -1), Device, "device(type='cpu')"},
		{FromDevice(DeviceCUDA, 1), Device, "device(type='cuda', index=1)"},
	}
	for _, c := range cases {
		if c.v.Kind() != c.kind || c.v.String() != c.str {
			t.Errorf("got %v %q, want %v %q", c.v.Kind(), c.v.String(), c.kind, c.str)
		}
	}
}

func TestAccessorsAreSafeOnWrongKinds(t *testing.T) {
	v := FromString("x")
	if v.Int() != 0 || v.Tensor() != nil || v.Ints() != nil || v.Tensors() != nil || v.Bool() || v.ScalarType() != tensor.Invalid {
		t.Error("wrong-kind accessor returned data")
	}
	if _, err := v.AsInt(); err == nil {
		t.Error("AsInt on a string")
	}
	if _, err := FromInt(1).AsTensor(); err == nil {
		t.Error("AsTensor on an int")
	}
	if FromInt(3).Double() != 3 || FromBool(true).Int() != 1 || !FromDouble(1).IsScalar() {
		t.Error("scalar conversions")
	}
	l := []int64{4, 5}
	iv := FromInts(l)
	if got := iv.Ints(); len(got) != 2 || &got[0] != &l[0] {
		t.Error("list not shared")
	}
	if unsafe.Sizeof(Value{}) != 32 {
		t.Errorf("Value is %d bytes", unsafe.Sizeof(Value{}))
	}
	if d := FromDevice(DeviceCUDA, 3); d.DeviceType() != DeviceCUDA || d.DeviceIndex() != 3 {
		t.Error("device")
	}
}

func TestBuildingValuesDoesNotAllocate(t *testing.T) {
	x, _ := tensor.New(tensor.Float32, 2)
	args := make([]Value, 4)
	ints := []int64{1, 2}
	if n := testing.AllocsPerRun(100, func() {
		args[0] = FromTensor(x)
		args[1] = FromInts(ints)
		args[2] = FromDouble(1e-5)
		args[3] = FromBool(true)
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

package kernels_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/kernels/gemm"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// An argument a kernel refuses is an *kernels.ArgError naming the op, the
// argument by its schema name and position, and the reason, whichever
// overload of a shared kernel was called.
func TestArgErrorNamesOpArgumentAndReason(t *testing.T) {
	x, _ := tensor.New(tensor.Float32, 2, 3)
	tx := value.FromTensor(x)
	img, _ := tensor.New(tensor.Float32, 1, 2, 4, 4)
	w, _ := tensor.New(tensor.Float32, 3, 2, 1, 1)
	ti, tw := value.FromTensor(img), value.FromTensor(w)
	ints := func(v ...int64) ops.NamedArg { return ops.NamedArg{Value: value.FromInts(v)} }
	// conv is a 2-D convolution's arguments with stride, groups replaced.
	conv := func(stride, groups value.Value) []ops.NamedArg {
		return []ops.NamedArg{{Value: ti}, {Value: tw}, {Value: value.NoneValue()}, {Value: stride}, ints(0), ints(1),
			{Value: value.FromBool(false)}, ints(0), {Value: groups}}
	}
	one, ones := value.FromInt(1), value.FromInts([]int64{1, 1})
	for _, c := range []struct {
		target string
		args   []ops.NamedArg
		arg    string
		index  int
		reason string
	}{
		{"aten.add.Tensor", []ops.NamedArg{{Value: tx}, {Value: tx}, {Name: "alpha", Value: tx}}, "alpha", 2, "must be a Scalar, not Tensor f32[2, 3]"},
		{"aten.slice.Tensor", []ops.NamedArg{{Value: tx}, {Value: value.FromInt(0)}, {Value: value.FromString("one")}}, "start", 2, "must be an int, not String"},
		{"aten.sum.dim_IntList", []ops.NamedArg{{Value: tx}, {Value: value.FromInts([]int64{1})}, {Value: value.FromInt(1)}}, "keepdim", 2, "must be a bool, not Int 1"},
		{"aten.sum.dim_IntList", []ops.NamedArg{{Value: tx}, {Value: value.FromInts([]int64{1})}, {Name: "dtype", Value: value.FromString("f32")}}, "dtype", 3, "must be a ScalarType"},
		{"aten.sum.default", []ops.NamedArg{{Value: tx}, {Name: "dtype", Value: value.FromString("f32")}}, "dtype", 1, "must be a ScalarType"},
		{"aten.view.default", []ops.NamedArg{{Value: tx}, {Value: value.FromInts([]int64{1 << 60})}}, "size", 1, "has an out-of-range entry"},
		{"aten.permute.default", []ops.NamedArg{{Value: tx}, {Value: value.FromDouble(1)}}, "dims", 1, "must be an int list, not Double 1"},
		{"aten.zeros.default", []ops.NamedArg{{Value: value.FromInts([]int64{2})}, {Name: "device", Value: value.FromDevice(value.DeviceCUDA, 0)}}, "device", 3, "must be the CPU, where kernels run, not device(type='cuda', index=0)"},
		{"aten.native_layer_norm.default", []ops.NamedArg{{Value: tx}, {Value: value.FromInts([]int64{3})}, {Value: value.FromInt(1)}, {Value: value.NoneValue()}, {Value: value.FromDouble(1e-5)}}, "weight", 2, "must be a Tensor, not Int 1"},
		{"aten.native_group_norm.default", []ops.NamedArg{{Value: tx}, {Value: value.NoneValue()}, {Value: value.NoneValue()}, {Value: value.FromInt(2)}, {Value: value.FromInt(3)}, {Value: value.FromInt(1)}, {Value: value.FromDouble(1)}, {Value: value.FromDouble(1e-5)}}, "group", 6, "must be an int, not Double 1"},
		{"aten.convolution.default", conv(value.FromString("2"), one), "stride", 3, "must be an int list, not String"},
		{"aten.convolution.default", conv(value.FromInts([]int64{1, 1, 1}), one), "stride", 3, "must have 2 elements, got [1 1 1]"},
		{"aten.convolution.default", conv(ones, value.FromDouble(1)), "groups", 8, "must be an int, not Double 1"},
		{"aten.max_pool2d_with_indices.default", []ops.NamedArg{{Value: ti}, {Value: value.FromDouble(2)}}, "kernel_size", 1, "must be an int list, not Double 2"},
		{"aten.max_pool2d_with_indices.default", []ops.NamedArg{{Value: ti}, ints(2), ints(2), ints(0), ints(1, 1, 1)}, "dilation", 4, "must have 2 elements, got [1 1 1]"},
		{"aten.max_pool2d_with_indices.default", []ops.NamedArg{{Value: ti}, ints(2), ints(2), ints(0), ints(1), {Value: one}}, "ceil_mode", 5, "must be a bool, not Int 1"},
		{"aten.avg_pool2d.default", []ops.NamedArg{{Value: ti}, ints(2), {Value: value.FromString("2")}}, "stride", 2, "must be an int list, not String"},
		{"aten.avg_pool2d.default", []ops.NamedArg{{Value: ti}, ints(2), {Name: "divisor_override", Value: value.FromBool(true)}}, "divisor_override", 6, "must be an int, not Bool"},
		{"aten._adaptive_avg_pool2d.default", []ops.NamedArg{{Value: ti}, ints(1, 2, 3)}, "output_size", 1, "must have 2 elements, got [1 2 3]"},
		{"aten.adaptive_avg_pool2d.default", []ops.NamedArg{{Value: ti}, {Value: tx}}, "output_size", 1, "must be an int list, not Tensor"},
	} {
		s, ok := ops.Lookup(c.target)
		if !ok {
			t.Fatalf("no schema %s", c.target)
		}
		args, err := s.Bind(nil, c.args)
		if err != nil {
			t.Fatalf("%s: %v", c.target, err)
		}
		k, _ := kernels.Lookup(c.target)
		err = k(kernels.NewContext(), args, make([]value.Value, len(s.Returns)))
		var ae *kernels.ArgError
		if !errors.As(err, &ae) {
			t.Errorf("%s: err = %v, want an ArgError", c.target, err)
			continue
		}
		if ae.Op != c.target || ae.Arg != c.arg || ae.Index != c.index || !strings.Contains(ae.Reason, c.reason) {
			t.Errorf("%s: %+v, want argument %q (%d) %q", c.target, *ae, c.arg, c.index, c.reason)
		}
		if want := c.target + `: argument "` + c.arg + `" ` + c.reason; !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %q does not say %q", c.target, err, want)
		}
	}
	// A kernel a runtime rewrite calls, with no schema, names its own.
	k := kernels.PackedMatmul(gemm.PackB(false, 3, 2, make([]float32, 6), 2), true)
	err := k(kernels.NewContext(), []value.Value{tx, value.FromInt(1)}, make([]value.Value, 1))
	if want := `argument "mat1" must be a Tensor, not Int 1`; err == nil || err.Error() != want {
		t.Errorf("packed matmul: %v, want %q", err, want)
	}
	// The fused convolution names its arguments as the convolution does.
	k, _ = kernels.ConvolutionAct("aten.relu.default")
	args := make([]value.Value, 9)
	for i, a := range conv(value.FromInts([]int64{1, 1, 1}), one) {
		args[i] = a.Value
	}
	err = k(kernels.NewContext(), args, make([]value.Value, 1))
	if want := `argument "stride" must have 2 elements, got [1 1 1]`; err == nil || err.Error() != want {
		t.Errorf("convolution with relu: %v, want %q", err, want)
	}
	args[3], args[6] = ones, ones
	err = k(kernels.NewContext(), args, make([]value.Value, 1))
	if want := `argument "transposed" must be a bool, not int[] [1, 1]`; err == nil || err.Error() != want {
		t.Errorf("convolution with relu: %v, want %q", err, want)
	}
}

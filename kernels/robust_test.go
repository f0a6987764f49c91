package kernels_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/seam-rt/seam/kernels"
	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
	"pgregory.net/rapid"
)

var robustDTypes = []tensor.DType{tensor.Float32, tensor.Int64, tensor.Bool, tensor.Float64, tensor.Int32, tensor.Float16, tensor.Uint8}

func genTensor(t *rapid.T, label string) *tensor.Tensor {
	dt := rapid.SampledFrom(robustDTypes).Draw(t, label+"_dtype")
	shape := rapid.SliceOfN(rapid.IntRange(0, 3), 0, 4).Draw(t, label+"_shape")
	x, err := tensor.New(dt, shape...)
	if err != nil {
		t.Fatal(err)
	}
	vals := rapid.SliceOfN(rapid.IntRange(-3, 3), x.Numel(), x.Numel()).Draw(t, label+"_vals")
	idx := make([]int, len(shape))
	for _, v := range vals {
		x.SetFloat(float64(v), idx...)
		for d := len(idx) - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return x
}

// genArg draws a value that fits the type most of the time and is wrong
// (another kind, None) sometimes.
func genArg(t *rapid.T, ty ops.Type, label string) value.Value {
	if rapid.IntRange(0, 9).Draw(t, label+"_wrong") == 0 {
		return rapid.SampledFrom([]value.Value{value.NoneValue(), value.FromInt(2), value.FromDouble(0.5),
			value.FromString("x"), value.FromInts([]int64{1, -1})}).Draw(t, label+"_junk")
	}
	if ty.Optional && rapid.Bool().Draw(t, label+"_none") {
		return value.NoneValue()
	}
	small := func(l string) int64 { return int64(rapid.IntRange(-3, 4).Draw(t, l)) }
	if ty.List {
		n := rapid.IntRange(0, 4).Draw(t, label+"_n")
		switch ty.Base {
		case ops.TensorT:
			ts := make([]*tensor.Tensor, n)
			for i := range ts {
				ts[i] = genTensor(t, label)
			}
			if ty.ElemOptional {
				return value.FromOptTensors(ts)
			}
			return value.FromTensors(ts)
		case ops.BoolT:
			return value.FromBools(make([]bool, n))
		case ops.FloatT:
			return value.FromDoubles(make([]float64, n))
		}
		l := make([]int64, n)
		for i := range l {
			l[i] = small(label)
		}
		return value.FromInts(l)
	}
	switch ty.Base {
	case ops.TensorT:
		return value.FromTensor(genTensor(t, label))
	case ops.IntT, ops.SymIntT:
		return value.FromInt(small(label))
	case ops.FloatT:
		return value.FromDouble(float64(small(label)) / 2)
	case ops.ScalarT:
		return rapid.SampledFrom([]value.Value{value.FromInt(small(label)), value.FromDouble(0.5), value.FromBool(true)}).Draw(t, label+"_s")
	case ops.BoolT:
		return value.FromBool(rapid.Bool().Draw(t, label))
	case ops.StrT:
		return value.FromString(rapid.SampledFrom([]string{"none", "tanh", "floor", "trunc", "sum", "bad"}).Draw(t, label))
	case ops.ScalarTypeT:
		return value.FromScalarType(rapid.SampledFrom(robustDTypes).Draw(t, label))
	case ops.LayoutT:
		return value.FromLayout(value.LayoutStrided)
	case ops.DeviceT:
		return value.FromDevice(value.DeviceCPU, -1)
	case ops.MemoryFormatT:
		return value.FromMemoryFormat(value.MemoryFormatContiguous)
	}
	return value.NoneValue()
}

// Every kernel, on arbitrary small inputs (including wrong kinds, bad
// dims, empty tensors and every dtype), returns a result or a validation
// error: never a panic, which the registry would report as "internal
// error".
func TestKernelsNeverPanic(t *testing.T) {
	for _, target := range kernels.Targets() {
		s, _ := ops.Lookup(target)
		k, _ := kernels.Lookup(target)
		t.Run(target, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				args := make([]value.Value, len(s.Args))
				for i, a := range s.Args {
					args[i] = genArg(rt, a.Type, a.Name)
				}
				out := make([]value.Value, len(s.Returns))
				err := k(kernels.NewContext(), args, out)
				if err != nil {
					if strings.Contains(err.Error(), "internal error") {
						rt.Fatalf("%v", err)
					}
					if !strings.HasPrefix(err.Error(), target+": ") {
						rt.Fatalf("error does not name the op: %v", err)
					}
					// A kind the schema allows, refused, is a kernel reading
					// its arguments out of schema order.
					var ae *kernels.ArgError
					if errors.As(err, &ae) && strings.HasPrefix(ae.Reason, "must be a") && s.Args[ae.Index].Type.Accepts(args[ae.Index]) {
						rt.Fatalf("%v, which %s allows: a read out of schema order?", err, s.Args[ae.Index].Type)
					}
					return
				}
				for i, r := range s.Returns {
					if r.Type.IsTensor() && out[i].Tensor() == nil {
						rt.Fatalf("return %d is not a tensor: %v", i, out[i].Describe())
					}
				}
			})
		})
	}
}

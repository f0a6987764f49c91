package demo

import (
	"math"
	"strings"
	"testing"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// TestCompareFailsLoudly: the demo's comparison with PyTorch reports NaN,
// a dtype or shape mismatch, a value outside tolerance and a missing
// output as an error with a nonzero distance, never "max |diff| 0".
func TestCompareFailsLoudly(t *testing.T) {
	f32 := func(v ...float32) *tensor.Tensor {
		x, err := tensor.FromSlice(v, len(v))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	want := []*tensor.Tensor{f32(1, 2, 3)}
	f64, _ := tensor.FromSlice([]float64{1, 2, 3}, 3)
	col, _ := tensor.FromSlice([]float32{1, 2, 3}, 3, 1)
	for _, tc := range []struct {
		name string
		outs []value.Value
		frag string
	}{
		{"nan", []value.Value{value.FromTensor(f32(1, float32(math.NaN()), 3))}, "output 0 differs"},
		{"dtype", []value.Value{value.FromTensor(f64)}, "dtype"},
		{"shape", []value.Value{value.FromTensor(col)}, "shape"},
		{"value", []value.Value{value.FromTensor(f32(1, 2, 3.5))}, "outside"},
		{"missing", nil, "0 outputs"},
		{"extra", []value.Value{value.FromTensor(f32(1, 2, 3)), value.FromTensor(f32(1))}, "2 outputs"},
	} {
		d, err := compareWithPyTorch(tc.outs, want)
		if err == nil || !strings.Contains(err.Error(), tc.frag) {
			t.Errorf("%s: error %v, want one about %q", tc.name, err, tc.frag)
		}
		if d <= 1e-4 {
			t.Errorf("%s: max |diff| %v", tc.name, d)
		}
	}
	if d, err := compareWithPyTorch([]value.Value{value.FromTensor(f32(1, 2, 3.00001))}, want); err != nil || d == 0 {
		t.Errorf("within tolerance: %v %v", d, err)
	}
	r := &Result{Original: Timing{Err: "output 0 differs from PyTorch: x"}}
	if r.Err() == nil {
		t.Error("Result.Err ignores a failed run")
	}
}

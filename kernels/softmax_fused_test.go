package kernels

import (
	"math/rand"
	"testing"

	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func randF32(r *rand.Rand, sizes ...int) *tensor.Tensor {
	v := make([]float32, tensor.Numel(sizes))
	for i := range v {
		v[i] = float32(r.NormFloat64() * 3)
		if r.Intn(7) == 0 {
			v[i] = -3.4028234663852886e+38 // a masked position
		}
	}
	t, _ := tensor.FromSlice(v, sizes...)
	return t
}

// ScaledMaskedSoftmax gives exactly what mul.Tensor, add.Tensor and
// _softmax.default give one after the other.
func TestScaledMaskedSoftmaxMatchesOps(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	mul, _ := Lookup("aten.mul.Tensor")
	add, _ := Lookup("aten.add.Tensor")
	sm, _ := Lookup("aten._softmax.default")
	transposed := func(x *tensor.Tensor) *tensor.Tensor {
		c, _ := tensor.Clone(x)
		p, _ := new(tensor.Tensor).Transpose(c, -1, -2)
		c2, _ := tensor.Clone(p)
		p2, _ := new(tensor.Tensor).Transpose(c2, -1, -2)
		return p2 // same values as x, last dim strided
	}
	cases := []struct {
		name    string
		x, mask *tensor.Tensor
	}{
		{"causal mask over heads", randF32(r, 1, 4, 9, 9), randF32(r, 1, 1, 9, 9)},
		{"padding mask", randF32(r, 2, 4, 5, 37), randF32(r, 2, 1, 1, 37)},
		{"same shape", randF32(r, 3, 17), randF32(r, 3, 17)},
		{"row mask", randF32(r, 3, 17), randF32(r, 17)},
		{"column mask", randF32(r, 3, 17), randF32(r, 3, 1)},
		{"one element mask", randF32(r, 2, 3, 5), randF32(r, 1)},
		{"strided x", transposed(randF32(r, 2, 6, 6)), randF32(r, 6, 6)},
		{"strided mask", randF32(r, 2, 6, 6), transposed(randF32(r, 6, 6))},
		{"vector", randF32(r, 40), randF32(r, 40)},
		{"scalar", randF32(r), randF32(r)},
	}
	for _, c := range cases {
		ctx := NewContext()
		out := make([]value.Value, 1)
		args := []value.Value{value.FromTensor(c.x), value.FromDouble(0.25), value.FromTensor(c.mask)}
		if err := ScaledMaskedSoftmax(ctx, args, out); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m, a, want := make([]value.Value, 1), make([]value.Value, 1), make([]value.Value, 1)
		if err := mul(ctx, []value.Value{value.FromTensor(c.x), value.FromDouble(0.25)}, m); err != nil {
			t.Fatal(err)
		}
		if err := add(ctx, []value.Value{m[0], value.FromTensor(c.mask), value.FromInt(1)}, a); err != nil {
			t.Fatal(err)
		}
		if err := sm(ctx, []value.Value{a[0], value.FromInt(-1), value.FromBool(false)}, want); err != nil {
			t.Fatal(err)
		}
		if !tensor.Equal(out[0].Tensor(), want[0].Tensor()) {
			t.Errorf("%s: fused %v\nops %v", c.name, out[0].Tensor(), want[0].Tensor())
		}
	}
	// A mask that would grow x is refused.
	args := []value.Value{value.FromTensor(randF32(r, 1, 5)), value.FromDouble(1), value.FromTensor(randF32(r, 3, 5))}
	if err := ScaledMaskedSoftmax(NewContext(), args, make([]value.Value, 1)); err == nil {
		t.Error("a mask broadcasting x was accepted")
	}
}

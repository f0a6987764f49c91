package kernels

import (
	"testing"

	"github.com/seam-rt/seam/tensor"
)

// biasRow finds the one row of the biases that broadcast one row, where it
// lies in memory, and refuses every other bias, which must be copied.
func TestBiasRow(t *testing.T) {
	const m, n = 3, 4
	must := func(x *tensor.Tensor, err error) *tensor.Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	vals, _ := tensor.FromSlice([]float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 12)
	row := must(new(tensor.Tensor).Narrow(vals, 0, 2, n)) // 2..5, offset 2
	row1 := must(new(tensor.Tensor).View(must(tensor.Clone(row)), []int{1, n}))
	f64, _ := tensor.New(tensor.Float64, n)
	for _, c := range []struct {
		name  string
		bias  *tensor.Tensor
		first float32 // the row's first value; -1 for none
	}{
		{"[n] at an offset", row, 2},
		{"[1,n]", row1, 2},
		{"[m,n] expanded", must(new(tensor.Tensor).Expand(row1, []int{m, n})), 2},
		{"[m,n]", must(new(tensor.Tensor).View(vals, []int{m, n})), -1},
		{"[m,1]", must(new(tensor.Tensor).View(must(new(tensor.Tensor).Narrow(vals, 0, 0, m)), []int{m, 1})), -1},
		{"[1]", must(new(tensor.Tensor).Narrow(vals, 0, 0, 1)), -1},
		{"scalar", tensor.Scalar(float32(1)), -1},
		{"strided [n]", must(new(tensor.Tensor).Slice(vals, 0, 0, 2*n, 2)), -1},
		{"[2,n] expanded", must(new(tensor.Tensor).Expand(row1, []int{2, n})), -1},
		{"[n+1]", must(new(tensor.Tensor).Narrow(vals, 0, 0, n+1)), -1},
		{"f64 [n]", f64, -1},
		{"[1,1,n]", must(new(tensor.Tensor).View(row1, []int{1, 1, n})), -1},
	} {
		got := biasRow(c.bias, m, n)
		switch {
		case c.first < 0 && got != nil:
			t.Errorf("%s: a row %v, want the copy", c.name, got)
		case c.first >= 0 && (len(got) != n || got[0] != c.first || got[n-1] != c.first+n-1):
			t.Errorf("%s: row %v, want %v.. (%d values)", c.name, got, c.first, n)
		}
	}
}

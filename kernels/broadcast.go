package kernels

import (
	"fmt"

	"github.com/seam-rt/seam/tensor"
)

// broadcastShapes is torch.broadcast_shapes of two shapes, into out.
func broadcastShapes(out, a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out = out[:0]
	for i := 0; i < n; i++ {
		da, db := 1, 1
		if j := len(a) - n + i; j >= 0 {
			da = a[j]
		}
		if j := len(b) - n + i; j >= 0 {
			db = b[j]
		}
		switch {
		case da == db, db == 1:
			out = append(out, da)
		case da == 1:
			out = append(out, db)
		default:
			return nil, fmt.Errorf("the size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d", da, db, i)
		}
	}
	return out, nil
}

// broadcastStrides are the strides that read t as if expanded to shape
// (0 for broadcast dims), into out.
func broadcastStrides(out []int, t *tensor.Tensor, shape []int) []int {
	out = out[:0]
	off := len(shape) - t.Dim()
	for i := range shape {
		j := i - off
		if j < 0 || t.Sizes()[j] == 1 && shape[i] != 1 {
			out = append(out, 0)
			continue
		}
		out = append(out, t.Strides()[j])
	}
	return out
}

package kernels

import (
	"cmp"
	"sync"

	"github.com/seam-rt/seam/kernels/internal/par"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// binaryCost is a float32 binary element's work for par.Chunks, in the
// units of a multiply-add: two loads and a store, bound by the caches
// rather than the arithmetic.
const binaryCost = 4

// runBinaryThreads is runBinary on up to threads goroutines for large
// float32 arithmetic (add, sub, mul, div, maximum, minimum: exact IEEE
// operations, the same in a vector lane as in a scalar tail): out is cut
// along its outermost dimension of more than one element, and each slice
// computed by runBinary on views of out and of the operands that span
// that dimension (an operand broadcast along it is read whole).
func runBinaryThreads(threads int, op binOp, dt tensor.DType, out, ta *tensor.Tensor, a value.Value, tb *tensor.Tensor, b, alpha value.Value) error {
	shape := out.Sizes()
	d := 0
	for d < len(shape) && shape[d] == 1 {
		d++
	}
	splits := dt == tensor.Float32 && d < len(shape) && out.Numel() > 0 && (op <= opDiv || op == opMaximum || op == opMinimum)
	k := 1
	if splits {
		k = par.Chunks(threads, shape[d], binaryCost*float64(out.Numel()/shape[d]))
	}
	if k <= 1 {
		return runBinary(op, dt, out, ta, a, tb, b, alpha)
	}
	var mu sync.Mutex
	var first error
	par.For(k, shape[d], 1, func(lo, hi int) {
		err := func() error {
			o, err := narrowAligned(out, len(shape), d, lo, hi)
			if err != nil {
				return err
			}
			x, err := narrowAligned(ta, len(shape), d, lo, hi)
			if err != nil {
				return err
			}
			y, err := narrowAligned(tb, len(shape), d, lo, hi)
			if err != nil {
				return err
			}
			return runBinary(op, dt, o, x, a, y, b, alpha)
		}()
		if err != nil {
			mu.Lock()
			first = cmp.Or(first, err)
			mu.Unlock()
		}
	})
	return first
}

// narrowAligned is t's view of items [lo, hi) along dimension d of an
// ndim-dimensional broadcast shape (t's dimensions aligned to its right):
// t itself when it is nil or broadcast along d (absent there or of size 1).
func narrowAligned(t *tensor.Tensor, ndim, d, lo, hi int) (*tensor.Tensor, error) {
	if t == nil {
		return nil, nil
	}
	td := d - (ndim - t.Dim())
	if td < 0 || t.Size(td) == 1 {
		return t, nil
	}
	return (*tensor.Tensor)(nil).Narrow(t, td, lo, hi-lo)
}

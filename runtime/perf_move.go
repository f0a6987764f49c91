package runtime

import (
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// moveCopy runs a copy step (clone) whose input, in slot in, dies at this
// step, and returns the result. It releases the input first and then asks
// the pool for the result's storage: when the input held the only
// reference to its storage, the pool hands that same storage back (it
// recycles the most recently released storage of a size first) and the
// copy is already there. Otherwise the storage is still alive, held by a
// value that views it (or owned by no pool: a weight, a user input), and
// is copied from. moved is false, with nothing changed, when the input is
// not a contiguous tensor filling its storage: the kernel then runs as
// usual.
func (f *frame) moveCopy(slots []value.Value, in int32) (res value.Value, moved bool, err error) {
	x := slots[in].Tensor()
	if x == nil || !x.IsContiguous() || x.Offset() != 0 {
		return res, false, nil
	}
	stor := x.Storage()
	dt := x.DType()
	n := x.Numel() * dt.Size()
	if stor == nil || n == 0 || stor.Len() != n {
		return res, false, nil
	}
	var sb [8]int
	sizes := append(sb[:0], x.Sizes()...)
	f.kctx.Pool.Release(x)
	slots[in] = value.Value{}
	out, err := f.kctx.Pool.Empty(dt, sizes)
	if err != nil {
		return res, false, err
	}
	if out.Storage() != stor {
		src, err := tensor.FromBytes(dt, sizes, nil, 0, stor.Bytes())
		if err == nil {
			err = tensor.Copy(out, src)
		}
		if err != nil {
			f.kctx.Pool.Release(out)
			return res, false, err
		}
	}
	return value.FromTensor(out), true, nil
}

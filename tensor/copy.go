package tensor

import (
	"fmt"
	"unsafe"
)

// Contiguous returns x itself when it is contiguous, else a contiguous copy.
func Contiguous(x *Tensor) (*Tensor, error) {
	if x.IsContiguous() {
		return x, nil
	}
	return Clone(x)
}

// Clone makes a contiguous copy of x.
func Clone(x *Tensor) (*Tensor, error) {
	out, err := New(x.dtype, x.sizes...)
	if err != nil {
		return nil, err
	}
	return out, Copy(out, x)
}

// Copy writes src into dst, broadcasting src to dst's shape and converting
// dtypes as ATen's copy_ does (static_cast semantics: floats to ints
// truncate, nonzero to bool is true). dst must not overlap src.
func Copy(dst, src *Tensor) error {
	srcStrides := src.strides
	if !src.SameShape(dst) {
		var sb, tb [MaxWalkDims]int
		if len(dst.sizes) > MaxWalkDims {
			return fmt.Errorf("copy: %d dims exceed the %d supported", len(dst.sizes), MaxWalkDims)
		}
		var err error
		if srcStrides, err = expandGeometry(sb[:0], tb[:0], src, dst.sizes); err != nil {
			return fmt.Errorf("copy: %v", err)
		}
	}
	var w Walk
	w.Init(dst.sizes)
	w.Add(dst.strides, dst.offset)
	w.Add(srcStrides, src.offset)
	w.Coalesce()
	if w.Err() != nil {
		return w.Err()
	}
	if dst.dtype == src.dtype {
		switch dst.dtype.Size() {
		case 1:
			copyRows(&w, words[uint8](dst.storage), words[uint8](src.storage))
		case 2:
			copyRows(&w, words[uint16](dst.storage), words[uint16](src.storage))
		case 4:
			copyRows(&w, words[uint32](dst.storage), words[uint32](src.storage))
		case 8:
			copyRows(&w, words[uint64](dst.storage), words[uint64](src.storage))
		}
		return nil
	}
	convertRows(&w, dst, src)
	return nil
}

type word interface {
	uint8 | uint16 | uint32 | uint64
}

func copyRows[T word](w *Walk, d, s []T) {
	for w.Next() {
		o, i, n := w.Off[0], w.Off[1], w.Len
		so, si := w.Step[0], w.Step[1]
		switch {
		case so == 1 && si == 1:
			copy(d[o:o+n], s[i:i+n])
		case si == 0:
			v := s[i]
			for k := range n {
				d[o+k*so] = v
			}
		default:
			for k := range n {
				d[o+k*so] = s[i+k*si]
			}
		}
	}
}

func convertRows(w *Walk, dst, src *Tensor) {
	db, sb := dst.storage.data, src.storage.data
	intPath := !dst.dtype.IsFloat() && !src.dtype.IsFloat()
	// Fast path for the common float32 <- int64/bool casts.
	if dst.dtype == Float32 && src.dtype == Int64 {
		d, s := Elems[float32](dst.storage), Elems[int64](src.storage)
		for w.Next() {
			for k := range w.Len {
				d[w.Off[0]+k*w.Step[0]] = float32(s[w.Off[1]+k*w.Step[1]])
			}
		}
		return
	}
	for w.Next() {
		for k := range w.Len {
			o, i := w.Off[0]+k*w.Step[0], w.Off[1]+k*w.Step[1]
			if intPath {
				storeInt(dst.dtype, db, o, loadInt(src.dtype, sb, i))
			} else {
				storeFloat(dst.dtype, db, o, loadFloat(src.dtype, sb, i))
			}
		}
	}
}

// Overlaps reports whether two tensors' storages are the same buffer.
func Overlaps(a, b *Tensor) bool {
	if a.storage == b.storage {
		return true
	}
	if a.storage.Len() == 0 || b.storage.Len() == 0 {
		return false
	}
	pa := uintptr(unsafe.Pointer(unsafe.SliceData(a.storage.data)))
	pb := uintptr(unsafe.Pointer(unsafe.SliceData(b.storage.data)))
	return pa < pb+uintptr(b.storage.Len()) && pb < pa+uintptr(a.storage.Len())
}

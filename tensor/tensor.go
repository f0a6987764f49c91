// Package tensor holds dtypes, storages and strided tensors with ATen's
// view semantics: sizes and strides are in elements, views share storage,
// and view/reshape/expand follow ATen's stride rules exactly.
package tensor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxBytes bounds one tensor's storage (1 TiB): shapes beyond it are errors,
// which also keeps every size product far from integer overflow.
const MaxBytes = 1 << 40

// Tensor is a strided view of a storage. The zero value is not usable; make
// tensors with New, FromSlice, FromBytes, a Pool, or the view methods.
//
// View methods use math/big's convention: the receiver z receives the result
// and is returned, so callers can recycle headers; a nil receiver allocates.
type Tensor struct {
	dtype   DType
	sizes   []int
	strides []int
	offset  int
	storage *Storage
	pool    *Pool // the pool this header returns to on Release; nil if none
}

// New makes a zeroed contiguous tensor.
func New(dt DType, sizes ...int) (*Tensor, error) {
	n, err := checkShape(dt, sizes)
	if err != nil {
		return nil, err
	}
	t := &Tensor{}
	t.setContiguous(dt, sizes, NewStorage(n*dt.Size()), 0)
	return t, nil
}

// FromSlice makes a contiguous tensor holding a copy of data.
func FromSlice[T Elem](data []T, sizes ...int) (*Tensor, error) {
	dt := DTypeOf[T]()
	n, err := checkShape(dt, sizes)
	if err != nil {
		return nil, err
	}
	if n != len(data) {
		return nil, fmt.Errorf("tensor: %d values for shape %v (%d elements)", len(data), sizes, n)
	}
	t, _ := New(dt, sizes...)
	copy(Elems[T](t.storage), data)
	return t, nil
}

// Scalar makes a 0-d tensor holding v.
func Scalar[T Elem](v T) *Tensor {
	t, _ := FromSlice([]T{v})
	return t
}

// FromBytes views raw little-endian bytes (a weight file, an .npy payload)
// as a tensor without copying when b is aligned for the dtype, copying it
// otherwise. Strides and offset are in elements, as in a TensorMeta; nil
// strides mean contiguous. Bool bytes must be 0 or 1.
func FromBytes(dt DType, sizes, strides []int, offset int, b []byte) (*Tensor, error) {
	if _, err := checkShape(dt, sizes); err != nil {
		return nil, err
	}
	if strides == nil {
		strides = ContiguousStrides(sizes)
	}
	if len(strides) != len(sizes) {
		return nil, fmt.Errorf("tensor: %d strides for %d sizes", len(strides), len(sizes))
	}
	if dt == Bool {
		for i, c := range b {
			if c > 1 {
				return nil, fmt.Errorf("tensor: byte %d of a bool tensor is %d, not 0 or 1", i, c)
			}
		}
	}
	s, err := StorageOf(b, dt.Size())
	if err != nil {
		s = NewStorage(len(b))
		copy(s.data, b)
	}
	if err := checkBounds(dt, sizes, strides, offset, len(b)); err != nil {
		return nil, err
	}
	t := &Tensor{dtype: dt, offset: offset, storage: s}
	t.sizes = append([]int(nil), sizes...)
	t.strides = append([]int(nil), strides...)
	return t, nil
}

// checkShape validates sizes and returns the element count.
func checkShape(dt DType, sizes []int) (int, error) {
	if !dt.Valid() {
		return 0, fmt.Errorf("tensor: invalid dtype %s", dt.String())
	}
	n := 1
	for _, s := range sizes {
		if s < 0 {
			return 0, fmt.Errorf("tensor: negative size in shape %s", shapeString(sizes))
		}
		if s != 0 && n > MaxBytes/s {
			return 0, fmt.Errorf("tensor: shape %s is too large", shapeString(sizes))
		}
		n *= s
	}
	if n > MaxBytes/dt.Size() {
		return 0, fmt.Errorf("tensor: shape %s of %s is too large", shapeString(sizes), dt.String())
	}
	return n, nil
}

// checkBounds verifies that every element of the view lies in nbytes.
func checkBounds(dt DType, sizes, strides []int, offset, nbytes int) error {
	if offset < 0 {
		return fmt.Errorf("tensor: negative storage offset %d", offset)
	}
	last := offset
	for i, s := range sizes {
		if s == 0 {
			return nil
		}
		if strides[i] < 0 {
			return fmt.Errorf("tensor: negative stride in %s", shapeString(strides))
		}
		if strides[i] > MaxBytes {
			return fmt.Errorf("tensor: stride %d is too large", strides[i])
		}
		last += (s - 1) * strides[i]
	}
	if n := nbytes / dt.Size(); last >= n {
		return fmt.Errorf("tensor: view sizes %s strides %s offset %d needs %d elements; storage has %d", shapeString(sizes), shapeString(strides), offset, last+1, n)
	}
	return nil
}

// ContiguousStrides are the row-major strides of sizes (size-0 and size-1
// dims get the stride they would have with size 1, as ATen does).
func ContiguousStrides(sizes []int) []int {
	st := make([]int, len(sizes))
	fillContiguousStrides(st, sizes)
	return st
}

func fillContiguousStrides(st, sizes []int) {
	acc := 1
	for i := len(sizes) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= max(sizes[i], 1)
	}
}

func (t *Tensor) setContiguous(dt DType, sizes []int, s *Storage, offset int) {
	t.dtype = dt
	t.sizes = append(t.sizes[:0], sizes...)
	if cap(t.strides) >= len(sizes) {
		t.strides = t.strides[:len(sizes)]
	} else {
		t.strides = make([]int, len(sizes))
	}
	fillContiguousStrides(t.strides, t.sizes)
	t.offset = offset
	t.setStorage(s)
}

func (t *Tensor) setStorage(s *Storage) {
	if t.storage == s {
		return
	}
	s.retain()
	t.storage.release()
	t.storage = s
}

// DType is the element type.
func (t *Tensor) DType() DType { return t.dtype }

// Sizes is the shape; callers must not modify it.
func (t *Tensor) Sizes() []int { return t.sizes }

// Strides are in elements; callers must not modify them.
func (t *Tensor) Strides() []int { return t.strides }

// Offset is the storage offset in elements.
func (t *Tensor) Offset() int { return t.offset }

// Storage is the shared buffer.
func (t *Tensor) Storage() *Storage { return t.storage }

// Dim is the number of dimensions.
func (t *Tensor) Dim() int { return len(t.sizes) }

// Size is the size of dim d; negative d counts from the end. Out-of-range d gives 0.
func (t *Tensor) Size(d int) int {
	if d < 0 {
		d += len(t.sizes)
	}
	if d < 0 || d >= len(t.sizes) {
		return 0
	}
	return t.sizes[d]
}

// Numel is the element count.
func (t *Tensor) Numel() int { return Numel(t.sizes) }

// Numel is the product of sizes.
func Numel(sizes []int) int {
	n := 1
	for _, s := range sizes {
		n *= s
	}
	return n
}

// IsContiguous reports row-major contiguity as ATen defines it: size-1 dims
// may have any stride, and empty tensors are contiguous.
func (t *Tensor) IsContiguous() bool {
	expected := 1
	for d := len(t.sizes) - 1; d >= 0; d-- {
		s := t.sizes[d]
		if s == 0 {
			return true
		}
		if s != 1 {
			if t.strides[d] != expected {
				return false
			}
			expected *= s
		}
	}
	return true
}

// SameShape reports whether t and u have equal sizes.
func (t *Tensor) SameShape(u *Tensor) bool { return EqualInts(t.sizes, u.sizes) }

// EqualInts reports whether two int slices are equal.
func EqualInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Data is t's storage as []T from t's offset on (no copy): element
// (i0, i1, ...) is Data[T](t)[i0*stride0 + i1*stride1 + ...]. It is nil if
// T does not match t's dtype.
func Data[T Elem](t *Tensor) []T {
	if DTypeOf[T]() != t.dtype {
		return nil
	}
	all := Elems[T](t.storage)
	if t.offset > len(all) {
		return nil
	}
	return all[t.offset:]
}

// Contig is Data limited to Numel elements when t is contiguous, else nil.
func Contig[T Elem](t *Tensor) []T {
	d := Data[T](t)
	if d == nil || !t.IsContiguous() {
		return nil
	}
	return d[:t.Numel()]
}

// Type is a short description such as "f32[2, 3]", as graph.txt prints it.
func (t *Tensor) Type() string {
	var b strings.Builder
	b.WriteString(t.dtype.String())
	b.WriteByte('[')
	for i, s := range t.sizes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, s)
	}
	b.WriteByte(']')
	return b.String()
}

// String prints the type and up to 8 values, for error messages and tests.
func (t *Tensor) String() string {
	if t == nil {
		return "<nil tensor>"
	}
	vals := t.Float64s()
	var b strings.Builder
	b.WriteString(t.Type())
	b.WriteByte('{')
	for i, v := range vals {
		if i == 8 {
			b.WriteString(" ...")
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, v)
	}
	b.WriteByte('}')
	return b.String()
}

// offsetOf is the element offset of a multi-index; ok is false if out of range.
func (t *Tensor) offsetOf(idx []int) (int, bool) {
	if len(idx) != len(t.sizes) {
		return 0, false
	}
	off := t.offset
	for i, x := range idx {
		if x < 0 || x >= t.sizes[i] {
			return 0, false
		}
		off += x * t.strides[i]
	}
	return off, true
}

// Float returns element idx converted to float64 (bool as 0/1); NaN when
// idx is out of range.
func (t *Tensor) Float(idx ...int) float64 {
	off, ok := t.offsetOf(idx)
	if !ok {
		return math.NaN()
	}
	return loadFloat(t.dtype, t.storage.data, off)
}

// Int returns element idx converted to int64 (floats truncate); 0 when
// idx is out of range.
func (t *Tensor) Int(idx ...int) int64 {
	off, ok := t.offsetOf(idx)
	if !ok {
		return 0
	}
	return loadInt(t.dtype, t.storage.data, off)
}

// SetFloat stores v (converted to t's dtype) at idx; it reports false when
// idx is out of range.
func (t *Tensor) SetFloat(v float64, idx ...int) bool {
	off, ok := t.offsetOf(idx)
	if ok {
		storeFloat(t.dtype, t.storage.data, off, v)
	}
	return ok
}

// Float64s copies the elements in logical order, converted to float64.
func (t *Tensor) Float64s() []float64 {
	out := make([]float64, 0, t.Numel())
	forEachOffset(t.sizes, t.strides, t.offset, func(off int) {
		out = append(out, loadFloat(t.dtype, t.storage.data, off))
	})
	return out
}

// Int64s copies the elements in logical order, converted to int64.
func (t *Tensor) Int64s() []int64 {
	out := make([]int64, 0, t.Numel())
	forEachOffset(t.sizes, t.strides, t.offset, func(off int) {
		out = append(out, loadInt(t.dtype, t.storage.data, off))
	})
	return out
}

// forEachOffset visits the element offsets of a strided view in row-major order.
func forEachOffset(sizes, strides []int, offset int, fn func(int)) {
	n := Numel(sizes)
	if n == 0 {
		return
	}
	nd := len(sizes)
	if nd == 0 {
		fn(offset)
		return
	}
	idx := make([]int, nd)
	inner, innerStride := sizes[nd-1], strides[nd-1]
	off := offset
	for {
		for i := 0; i < inner; i++ {
			fn(off + i*innerStride)
		}
		d := nd - 2
		for ; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < sizes[d] {
				break
			}
			off -= idx[d] * strides[d]
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// shapeString formats sizes for errors without letting the slice escape,
// so callers can keep shapes in stack arrays.
func shapeString(s []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(v))
	}
	b.WriteByte(']')
	return b.String()
}

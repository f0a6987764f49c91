package tensor

import (
	"fmt"
	"unsafe"
)

// Storage is a flat, shared buffer of bytes that tensors view. Storages made
// here are 8-byte aligned so that typed views (Elems) are legal for every
// dtype; FromBytes keeps a caller's buffer without copying when it is.
type Storage struct {
	data []byte
	// refs counts the headers of a Pool-owned storage that point at it; the
	// storage goes back to its pool when the count drops to zero. Storages
	// with no pool (weights, user inputs) are never counted or recycled.
	refs int32
	pool *Pool
}

// NewStorage allocates a zeroed storage of n bytes.
func NewStorage(n int) *Storage { return &Storage{data: alignedBytes(n)} }

// StorageOf wraps b without copying; b must stay unchanged while tensors view
// it. It fails if b is not aligned for elements of elemSize bytes.
func StorageOf(b []byte, elemSize int) (*Storage, error) {
	if elemSize > 1 && len(b) > 0 && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(elemSize) != 0 {
		return nil, fmt.Errorf("tensor: buffer at %p is not aligned to %d bytes", unsafe.SliceData(b), elemSize)
	}
	return &Storage{data: b}, nil
}

// Bytes is the whole buffer.
func (s *Storage) Bytes() []byte { return s.data }

// Len is the buffer's length in bytes.
func (s *Storage) Len() int { return len(s.data) }

func (s *Storage) retain() {
	if s != nil && s.pool != nil {
		s.refs++
	}
}

func (s *Storage) release() {
	if s == nil || s.pool == nil {
		return
	}
	s.refs--
	if s.refs == 0 {
		s.pool.putStorage(s)
	}
}

func alignedBytes(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	w := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), n)
}

// Elem is the set of Go element types that back the dtypes.
type Elem interface {
	float32 | float64 | int64 | int32 | int16 | int8 | uint8 | bool | F16 | BF16
}

// DTypeOf is the dtype whose elements are T.
func DTypeOf[T Elem]() DType {
	var z T
	switch any(z).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case int64:
		return Int64
	case int32:
		return Int32
	case int16:
		return Int16
	case int8:
		return Int8
	case uint8:
		return Uint8
	case bool:
		return Bool
	case F16:
		return Float16
	case BF16:
		return BFloat16
	}
	return Invalid
}

// Elems views the whole storage as elements of type T (no copy).
func Elems[T Elem](s *Storage) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	if s == nil || len(s.data) < size {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(s.data))), len(s.data)/size)
}

// words views a storage as raw fixed-size words, for dtype-agnostic copies.
func words[T word](s *Storage) []T {
	var z T
	size := int(unsafe.Sizeof(z))
	if s == nil || len(s.data) < size {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(s.data))), len(s.data)/size)
}

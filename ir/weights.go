package ir

import (
	"fmt"
	"io"
)

// Blob is stored bytes, read on demand: weights stay in the archive until a
// stage that needs them (the runtime, the writer) asks.
type Blob interface {
	Size() int64
	io.ReaderAt
}

// Bytes is a Blob held in memory.
type Bytes []byte

func (b Bytes) Size() int64 { return int64(len(b)) }

func (b Bytes) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) {
		return 0, fmt.Errorf("read at %d outside %d bytes", off, len(b))
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Weight is one entry of a payload config: a tensor viewing a stored flat
// storage through Meta's sizes, strides and storage offset. Several FQNs
// that view one storage share one Path and one Data.
type Weight struct {
	// Path is the payload file name relative to its folder (weight_0,
	// tensor_1, custom_obj_0).
	Path      string
	IsParam   bool
	UsePickle bool
	// Meta is nil for custom objects.
	Meta *TensorMeta
	// Data is the whole stored file (the flat storage, or a pickle).
	Data Blob
}

// Contents is a Blob that holds its bytes in memory once read (a
// deflated record inflated): ReadAll takes them as they are, not copied
// into a buffer of the size the Blob claims before it has them.
type Contents interface {
	Contents() ([]byte, error)
}

// ReadAll returns the whole stored file.
func (w *Weight) ReadAll() ([]byte, error) {
	if w.Data == nil {
		return nil, fmt.Errorf("weight %s has no data", w.Path)
	}
	b, err := ReadBlob(w.Data)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", w.Path, err)
	}
	return b, nil
}

// ReadBlob reads a whole blob: a Bytes as it is, a Contents once read,
// else into a buffer of its size (the caller has bounded it).
func ReadBlob(b Blob) ([]byte, error) {
	switch b := b.(type) {
	case Bytes:
		return b, nil
	case Contents:
		return b.Contents()
	}
	buf := make([]byte, b.Size())
	if n, err := b.ReadAt(buf, 0); n < len(buf) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}

// CheckStorage checks that a raw (unpickled) tensor weight's view fits its
// storage: the file is a whole number of elements, the meta is static, and
// every element the view reaches lies inside the storage. An empty file is a
// fake tensor and reads as zeros.
func (w *Weight) CheckStorage() error {
	if w.UsePickle || w.Meta == nil {
		return nil
	}
	m := w.Meta
	es := int64(m.DType.Size())
	if es == 0 {
		return fmt.Errorf("unsupported dtype %d", int(m.DType))
	}
	if len(m.Sizes) != len(m.Strides) {
		return fmt.Errorf("%d sizes but %d strides", len(m.Sizes), len(m.Strides))
	}
	size := w.Data.Size()
	if size%es != 0 {
		return fmt.Errorf("file holds %d bytes, not a whole number of %s elements (%d bytes each)", size, m.DType, es)
	}
	if size == 0 {
		return nil
	}
	if !m.StorageOffset.IsStatic() {
		return fmt.Errorf("symbolic storage offset")
	}
	maxIdx, numel := m.StorageOffset.Int, int64(1)
	if maxIdx < 0 {
		return fmt.Errorf("negative storage offset %d", maxIdx)
	}
	for i, s := range m.Sizes {
		st := m.Strides[i]
		if !s.IsStatic() || !st.IsStatic() {
			return fmt.Errorf("symbolic size or stride in dim %d", i)
		}
		if s.Int < 0 || st.Int < 0 {
			return fmt.Errorf("negative size or stride in dim %d", i)
		}
		if s.Int == 0 {
			numel = 0
			continue
		}
		if st.Int != 0 && (s.Int-1) > (1<<62)/st.Int {
			return fmt.Errorf("size %d × stride %d overflows in dim %d", s.Int, st.Int, i)
		}
		maxIdx += (s.Int - 1) * st.Int
		if maxIdx > 1<<62 {
			return fmt.Errorf("view extent overflows")
		}
		numel *= s.Int
	}
	if numel > 0 && maxIdx >= size/es {
		return fmt.Errorf("view reaches element %d but the file holds %d elements (%d bytes)", maxIdx, size/es, size)
	}
	return nil
}

// Extent is the number of bytes of its storage a raw tensor weight's view
// reaches, from the start of the storage: 0 for an empty view. It assumes
// CheckStorage passed.
func (w *Weight) Extent() int64 {
	m := w.Meta
	if w.UsePickle || m == nil || !m.StorageOffset.IsStatic() {
		return 0
	}
	last := m.StorageOffset.Int
	for i, s := range m.Sizes {
		if !s.IsStatic() || s.Int == 0 || i >= len(m.Strides) {
			return 0
		}
		last += (s.Int - 1) * m.Strides[i].Int
	}
	return (last + 1) * int64(m.DType.Size())
}

// NumBytes is the number of bytes the weight's view covers (numel × element
// size), the figure `seam inspect` sums as weight bytes.
func (w *Weight) NumBytes() int64 {
	if w.Meta == nil {
		return 0
	}
	n := int64(w.Meta.DType.Size())
	for _, s := range w.Meta.Sizes {
		if !s.IsStatic() {
			return 0
		}
		n *= s.Int
	}
	return n
}

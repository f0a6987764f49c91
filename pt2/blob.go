package pt2

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// storedBlob reads a stored (uncompressed) zip entry in place: no copy, no
// decompression, the offset found on first use.
type storedBlob struct {
	f    *zip.File
	r    io.ReaderAt
	once sync.Once
	off  int64
	err  error
}

func (b *storedBlob) Size() int64 { return int64(b.f.UncompressedSize64) }

func (b *storedBlob) ReadAt(p []byte, off int64) (int, error) {
	b.once.Do(func() { b.off, b.err = b.f.DataOffset() })
	if b.err != nil {
		return 0, fmt.Errorf("%s: %w", b.f.Name, b.err)
	}
	size := b.Size()
	if off < 0 || off > size {
		return 0, fmt.Errorf("%s: read at %d outside %d bytes", b.f.Name, off, size)
	}
	want := len(p)
	if int64(want) > size-off {
		p = p[:size-off]
	}
	n, err := b.r.ReadAt(p, b.off+off)
	if err == io.EOF && n == len(p) {
		err = nil
	}
	if err == nil && n < want {
		err = io.EOF
	}
	return n, err
}

// compressedBlob inflates a deflated entry on first use. PyTorch never
// compresses, but other zip tools may.
type compressedBlob struct {
	f    *zip.File
	once sync.Once
	data []byte
	err  error
}

func (b *compressedBlob) Size() int64 { return int64(b.f.UncompressedSize64) }

func (b *compressedBlob) ReadAt(p []byte, off int64) (int, error) {
	b.once.Do(func() {
		rc, err := b.f.Open()
		if err != nil {
			b.err = err
			return
		}
		defer rc.Close()
		b.data, b.err = io.ReadAll(io.LimitReader(rc, int64(b.f.UncompressedSize64)))
	})
	if b.err != nil {
		return 0, fmt.Errorf("%s: %w", b.f.Name, b.err)
	}
	if off < 0 || off > int64(len(b.data)) {
		return 0, fmt.Errorf("%s: read at %d outside %d bytes", b.f.Name, off, len(b.data))
	}
	n := copy(p, b.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

package pt2

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

// The blobs a read archive hands out check their bytes against the
// record's CRC the first time they are read, so a damaged weight is an
// error, never a wrong result; and they can be streamed, CRC checked as
// they go, so that copying one into a new archive holds none of it in
// memory.

// checkedBlob is a record of a read archive.
type checkedBlob interface {
	// crc is the CRC-32 the archive records for the bytes.
	crc() uint32
	// open streams the bytes, failing at the end if they do not match
	// the CRC.
	open() (io.ReadCloser, error)
}

// CRCError is a record whose bytes do not match the CRC-32 its zip header
// records: the file is damaged.
type CRCError struct {
	Got, Want uint32
}

func (e *CRCError) Error() string {
	return fmt.Sprintf("its bytes have CRC-32 %08x but the archive records %08x: the file is damaged", e.Got, e.Want)
}

// recordOf says which record of which archive a blob is, for errors.
type recordOf struct {
	archive, record string
}

// fail wraps an error reading the record.
func (r recordOf) fail(err error) error {
	return &RecordError{Archive: r.archive, Record: r.record, Err: err}
}

// RecordError is a record of a read archive that cannot be read (its
// bytes do not match their CRC, the file was truncated). It names the
// record; Archive says which file it is in, for whoever copies it into
// another.
type RecordError struct {
	Archive, Record string
	Err             error
}

func (e *RecordError) Error() string { return e.Record + ": " + e.Err.Error() }

func (e *RecordError) Unwrap() error { return e.Err }

// crcReader passes bytes through, checking at EOF that there were size of
// them with the CRC want.
type crcReader struct {
	r    io.Reader
	c    io.Closer
	size uint64
	want uint32
	n    uint64
	sum  uint32
}

func (r *crcReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.sum = crc32.Update(r.sum, crc32.IEEETable, p[:n])
	r.n += uint64(n)
	if r.n > r.size {
		return n, fmt.Errorf("holds more than the %d bytes its header says", r.size)
	}
	if err == io.EOF {
		if r.n != r.size {
			return n, fmt.Errorf("holds %d bytes, its header says %d", r.n, r.size)
		}
		if r.sum != r.want {
			return n, &CRCError{Got: r.sum, Want: r.want}
		}
	}
	return n, err
}

func (r *crcReader) Close() error {
	if r.c != nil {
		return r.c.Close()
	}
	return nil
}

// openRecord streams a record's bytes with its CRC checked, stored or
// deflated, whatever archive/zip checks or not (it skips a CRC of 0).
func openRecord(f *zip.File, r io.ReaderAt) (io.ReadCloser, error) {
	if f.Method == zip.Store {
		off, err := f.DataOffset()
		if err != nil {
			return nil, err
		}
		return &crcReader{r: io.NewSectionReader(r, off, int64(f.UncompressedSize64)), size: f.UncompressedSize64, want: f.CRC32}, nil
	}
	if f.Method != zip.Deflate {
		return nil, fmt.Errorf("unsupported zip compression method %d", f.Method)
	}
	raw, err := f.OpenRaw()
	if err != nil {
		return nil, err
	}
	fr := flate.NewReader(raw)
	return &crcReader{r: fr, c: fr, size: f.UncompressedSize64, want: f.CRC32}, nil
}

// storedRecord returns a stored record's bytes where they lie in mem, the
// archive's bytes, checked as openRecord's reader checks them.
func storedRecord(f *zip.File, mem []byte) ([]byte, error) {
	off, err := f.DataOffset()
	if err != nil {
		return nil, err
	}
	if off < 0 || off > int64(len(mem)) {
		return nil, fmt.Errorf("data at %d, outside the archive's %d bytes", off, len(mem))
	}
	data := mem[off:]
	size := f.UncompressedSize64
	if uint64(len(data)) < size {
		return nil, fmt.Errorf("holds %d bytes, its header says %d", len(data), size)
	}
	data = data[:size]
	if sum := crc32.ChecksumIEEE(data); sum != f.CRC32 {
		return nil, &CRCError{Got: sum, Want: f.CRC32}
	}
	return data, nil
}

// storedBlob reads a stored (uncompressed) zip entry in place: no copy, no
// decompression. Its first read checks the whole entry's CRC: in the same
// pass when it reads the whole entry, as the runtime does.
type storedBlob struct {
	f *zip.File
	r io.ReaderAt
	recordOf

	mu      sync.Mutex
	checked bool
	off     int64
	err     error
}

func (b *storedBlob) Size() int64 { return int64(b.f.UncompressedSize64) }

func (b *storedBlob) crc() uint32 { return b.f.CRC32 }

func (b *storedBlob) open() (io.ReadCloser, error) { return b.recordOf.open(b.f, b.r) }

func (r recordOf) open(f *zip.File, ra io.ReaderAt) (io.ReadCloser, error) {
	rc, err := openRecord(f, ra)
	if err != nil {
		return nil, r.fail(err)
	}
	return &failingReader{rc, r}, nil
}

// failingReader names its record in its errors.
type failingReader struct {
	io.ReadCloser
	recordOf
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = f.fail(err)
	}
	return n, err
}

func (b *storedBlob) ReadAt(p []byte, off int64) (int, error) {
	size := b.Size()
	if off < 0 || off > size {
		return 0, b.fail(fmt.Errorf("read at %d outside %d bytes", off, size))
	}
	b.mu.Lock()
	if !b.checked {
		b.checked = true
		b.off, b.err = b.f.DataOffset()
		if b.err == nil && off == 0 && int64(len(p)) >= size {
			// The whole entry: check the bytes as they are read.
			n, err := b.readAt(p[:size], 0)
			if err == nil {
				if sum := crc32.ChecksumIEEE(p[:n]); sum != b.f.CRC32 {
					b.err = &CRCError{Got: sum, Want: b.f.CRC32}
				}
			}
			b.mu.Unlock()
			if b.err != nil {
				return 0, b.fail(b.err)
			}
			if err == nil && int64(len(p)) > size {
				err = io.EOF
			}
			return n, err
		}
		if b.err == nil {
			b.err = checkAll(b.f, b.r)
		}
	}
	err := b.err
	b.mu.Unlock()
	if err != nil {
		return 0, b.fail(err)
	}
	return b.readAt(p, off)
}

func (b *storedBlob) readAt(p []byte, off int64) (int, error) {
	want := len(p)
	if int64(want) > b.Size()-off {
		p = p[:b.Size()-off]
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

// checkAll reads a record through, checking its CRC.
func checkAll(f *zip.File, r io.ReaderAt) error {
	rc, err := openRecord(f, r)
	if err != nil {
		return err
	}
	defer rc.Close()
	_, err = io.Copy(io.Discard, rc)
	return err
}

// compressedBlob inflates a deflated entry on first use (checking its
// CRC); streaming it does not. PyTorch never compresses, but other zip
// tools may. The reader has bounded its size (the expansion limit).
type compressedBlob struct {
	f *zip.File
	r io.ReaderAt
	recordOf
	once sync.Once
	data []byte
	err  error
}

func (b *compressedBlob) Size() int64 { return int64(b.f.UncompressedSize64) }

func (b *compressedBlob) crc() uint32 { return b.f.CRC32 }

func (b *compressedBlob) open() (io.ReadCloser, error) { return b.recordOf.open(b.f, b.r) }

// Contents inflates the record once and returns its bytes (ir.Contents).
func (b *compressedBlob) Contents() ([]byte, error) {
	b.once.Do(func() { b.data, b.err = readRecord(b.f, b.r) })
	if b.err != nil {
		return nil, b.fail(b.err)
	}
	return b.data, nil
}

func (b *compressedBlob) ReadAt(p []byte, off int64) (int, error) {
	if _, err := b.Contents(); err != nil {
		return 0, err
	}
	if off < 0 || off > int64(len(b.data)) {
		return 0, b.fail(fmt.Errorf("read at %d outside %d bytes", off, len(b.data)))
	}
	n := copy(p, b.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// readRecord reads a whole record, CRC checked; the caller has checked
// its size against a limit.
func readRecord(f *zip.File, r io.ReaderAt) ([]byte, error) {
	var buf []byte
	if f.Method == zip.Store {
		// A stored record's bytes are in the file (the reader checked
		// they fit, without overlap): allocate it at once.
		buf = make([]byte, f.UncompressedSize64)
		off, err := f.DataOffset()
		if err != nil {
			return nil, err
		}
		if n, err := r.ReadAt(buf, off); n < len(buf) {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if sum := crc32.ChecksumIEEE(buf); sum != f.CRC32 {
			return nil, &CRCError{Got: sum, Want: f.CRC32}
		}
		return buf, nil
	}
	// A deflated record's size is only its header's word until inflated:
	// grow with what arrives (PyTorch never compresses, so this is rare).
	rc, err := openRecord(f, r)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b := bytes.NewBuffer(make([]byte, 0, min(f.UncompressedSize64, 1<<20)))
	if _, err := io.CopyN(b, rc, int64(f.UncompressedSize64)); err != nil {
		if err == io.EOF {
			err = fmt.Errorf("holds fewer than the %d bytes its header says", f.UncompressedSize64)
		}
		return nil, err
	}
	buf = b.Bytes()
	// One more read reaches the end, where the CRC is checked.
	var extra [1]byte
	if n, err := io.ReadFull(rc, extra[:]); n > 0 || err != io.EOF {
		if err == nil {
			err = fmt.Errorf("holds more than the %d bytes its header says", len(buf))
		}
		return nil, err
	}
	return buf, nil
}

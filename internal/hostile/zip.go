package hostile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"
)

// Record is one entry of an archive under construction, named below the
// archive's root folder.
type Record struct {
	Name string
	Data []byte
	// Claim, when set, is the uncompressed size the zip headers claim
	// instead of len(Data) (of the inflated data, for a deflated record).
	Claim uint64
	// Deflated: Data is a raw deflate stream.
	Deflated bool
	// Hole, when set, stands for that many zero bytes written as a hole
	// of a sparse file: a record of gigabytes that costs nothing to make.
	Hole int64
	// CRC, when set, is written instead of the data's CRC-32.
	CRC *uint32
}

// Records returns the records of an archive, names relative to its root.
func Records(archive []byte) ([]Record, error) {
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, err
	}
	var recs []Record
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		_, rel, _ := strings.Cut(f.Name, "/")
		recs = append(recs, Record{Name: rel, Data: data})
	}
	return recs, nil
}

// FixtureRecords returns a fixture model's records.
func FixtureRecords(model string) ([]Record, error) {
	data, err := os.ReadFile(fixturePath(model))
	if err != nil {
		return nil, err
	}
	return Records(data)
}

// Zip writes records as an archive with every name below root (it
// panics on a record zip cannot hold: use TryZip for records from a
// fuzzer).
func Zip(root string, recs []Record) []byte {
	b, err := TryZip(root, recs)
	if err != nil {
		panic(err)
	}
	return b
}

// TryZip is Zip returning an error for a record zip cannot hold (data
// in a folder's entry).
func TryZip(root string, recs []Record) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeZip(&buf, root, recs); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteZip writes records as an archive file; records with a Hole become
// holes of a sparse file.
func WriteZip(path, root string, recs []Record) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	sw := &sparseWriter{f: f}
	err = writeZip(sw, root, recs)
	if err == nil {
		err = sw.finish()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeZip(w io.Writer, root string, recs []Record) error {
	zw := zip.NewWriter(w)
	for _, r := range recs {
		size := uint64(len(r.Data))
		if r.Hole > 0 {
			size = uint64(r.Hole)
		}
		crc := crc32.ChecksumIEEE(r.Data)
		if r.Hole > 0 {
			crc = zerosCRC(r.Hole)
		}
		fh := &zip.FileHeader{Name: root + r.Name, Method: zip.Store, CompressedSize64: size, UncompressedSize64: size}
		if r.Deflated {
			fh.Method = zip.Deflate
			fh.CompressedSize64 = uint64(len(r.Data))
		}
		if r.Claim != 0 {
			fh.UncompressedSize64 = r.Claim
			if !r.Deflated {
				fh.CompressedSize64 = r.Claim
			}
		}
		fh.CRC32 = crc
		if r.CRC != nil {
			fh.CRC32 = *r.CRC
		}
		fw, err := zw.CreateRaw(fh)
		if err != nil {
			return err
		}
		if r.Hole > 0 {
			if err := writeZeros(fw, r.Hole); err != nil {
				return err
			}
			continue
		}
		if _, err := fw.Write(r.Data); err != nil {
			return err
		}
	}
	return zw.Close()
}

var zeroChunk = make([]byte, 1<<20)

func writeZeros(w io.Writer, n int64) error {
	for n > 0 {
		c := min(n, int64(len(zeroChunk)))
		if _, err := w.Write(zeroChunk[:c]); err != nil {
			return err
		}
		n -= c
	}
	return nil
}

func zerosCRC(n int64) uint32 {
	var crc uint32
	for n > 0 {
		c := min(n, int64(len(zeroChunk)))
		crc = crc32.Update(crc, crc32.IEEETable, zeroChunk[:c])
		n -= c
	}
	return crc
}

// sparseWriter turns the zero chunks writeZeros hands it into holes.
type sparseWriter struct {
	f   *os.File
	off int64
}

func (s *sparseWriter) Write(p []byte) (int, error) {
	if len(p) == len(zeroChunk) && &p[0] == &zeroChunk[0] {
		s.off += int64(len(p))
		_, err := s.f.Seek(s.off, io.SeekStart)
		return len(p), err
	}
	n, err := s.f.Write(p)
	s.off += int64(n)
	return n, err
}

func (s *sparseWriter) finish() error { return s.f.Truncate(s.off) }

// Deflated returns a raw deflate stream of n bytes, each c: a zip bomb
// of gigabytes in a few megabytes, made without compressing them (after
// the first, each flushed megabyte compresses to the same bytes).
func Deflated(c byte, n int64) []byte {
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	chunk := bytes.Repeat([]byte{c}, 1<<20)
	var first, steady []byte
	for i := 0; i < 2 && int64(i)<<20 < n; i++ {
		start := buf.Len()
		fw.Write(chunk[:min(int64(len(chunk)), n-int64(i)<<20)])
		fw.Flush()
		seg := append([]byte(nil), buf.Bytes()[start:]...)
		if i == 0 {
			first = seg
		} else {
			steady = seg
		}
	}
	out := append([]byte(nil), first...)
	full := n >> 20
	for i := int64(1); i < full; i++ {
		out = append(out, steady...)
	}
	if rest := n - full<<20; rest > 0 && full > 0 {
		// The tail, compressed on its own (a stored block of c's).
		tail := bytes.Repeat([]byte{c}, int(rest))
		out = append(out, storedBlock(tail)...)
	}
	return append(out, 3, 0) // a final, empty, fixed-Huffman block
}

// Stored returns a raw deflate stream holding data uncompressed.
func Stored(data []byte) []byte { return append(storedBlock(data), 3, 0) }

// storedBlock is a non-final stored deflate block of data (< 64 KiB
// each, split as needed).
func storedBlock(data []byte) []byte {
	var out []byte
	for len(data) > 0 {
		n := min(len(data), 0xffff)
		var h [5]byte
		binary.LittleEndian.PutUint16(h[1:], uint16(n))
		binary.LittleEndian.PutUint16(h[3:], ^uint16(n))
		out = append(out, h[:]...)
		out = append(out, data[:n]...)
		data = data[n:]
	}
	return out
}

// Replace returns recs with the record name's data replaced (or added).
func Replace(recs []Record, name string, data []byte) []Record {
	out := append([]Record(nil), recs...)
	for i := range out {
		if out[i].Name == name {
			out[i] = Record{Name: name, Data: data}
			return out
		}
	}
	return append(out, Record{Name: name, Data: data})
}

// With returns recs with r in place of the record of its name (or added).
func With(recs []Record, r Record) []Record {
	out := append([]Record(nil), recs...)
	for i := range out {
		if out[i].Name == r.Name {
			out[i] = r
			return out
		}
	}
	return append(out, r)
}

// Drop returns recs without the record name.
func Drop(recs []Record, name string) []Record {
	var out []Record
	for _, r := range recs {
		if r.Name != name {
			out = append(out, r)
		}
	}
	return out
}

// Find returns the data of the record name.
func Find(recs []Record, name string) []byte {
	for _, r := range recs {
		if r.Name == name {
			return r.Data
		}
	}
	return nil
}

// EditJSON rewrites a JSON record through fn on its decoded form.
func EditJSON(recs []Record, name string, fn func(m map[string]any)) ([]Record, error) {
	var m map[string]any
	if err := json.Unmarshal(Find(recs, name), &m); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fn(m)
	data, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return Replace(recs, name, data), nil
}

// DuplicateEntry adds copies central-directory entries to a zip archive,
// each naming the data of the entry called name: records that overlap, as
// a zip bomb's do.
func DuplicateEntry(archive []byte, name string, copies int) ([]byte, error) {
	eocd := bytes.LastIndex(archive, []byte("PK\x05\x06"))
	if eocd < 0 {
		return nil, fmt.Errorf("no end of central directory")
	}
	cdSize := int(binary.LittleEndian.Uint32(archive[eocd+12:]))
	cdOff := int(binary.LittleEndian.Uint32(archive[eocd+16:]))
	entries := int(binary.LittleEndian.Uint16(archive[eocd+10:]))
	var entry []byte
	for p := cdOff; p < cdOff+cdSize; {
		n := int(binary.LittleEndian.Uint16(archive[p+28:]))
		m := int(binary.LittleEndian.Uint16(archive[p+30:]))
		k := int(binary.LittleEndian.Uint16(archive[p+32:]))
		if string(archive[p+46:p+46+n]) == name {
			entry = archive[p : p+46+n+m+k]
		}
		p += 46 + n + m + k
	}
	if entry == nil {
		return nil, fmt.Errorf("no entry %s", name)
	}
	out := append([]byte(nil), archive[:cdOff+cdSize]...)
	added := 0
	for i := 0; i < copies; i++ {
		copyName := fmt.Sprintf("%s_%06d", name, i)
		e := append([]byte(nil), entry[:46]...)
		binary.LittleEndian.PutUint16(e[28:], uint16(len(copyName)))
		binary.LittleEndian.PutUint16(e[30:], 0)
		binary.LittleEndian.PutUint16(e[32:], 0)
		e = append(e, copyName...)
		out = append(out, e...)
		added += len(e)
	}
	end := append([]byte(nil), archive[eocd:eocd+22]...)
	binary.LittleEndian.PutUint16(end[8:], uint16(entries+copies))
	binary.LittleEndian.PutUint16(end[10:], uint16(entries+copies))
	binary.LittleEndian.PutUint32(end[12:], uint32(cdSize+added))
	return append(out, end...), nil
}

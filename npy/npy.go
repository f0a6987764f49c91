// Package npy reads and writes NumPy .npy files (format versions 1, 2 and
// 3; little-endian; C or Fortran order) as tensors.
package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/seam-rt/seam/atomicfile"
	"github.com/seam-rt/seam/limits"
	"github.com/seam-rt/seam/tensor"
)

const magic = "\x93NUMPY"

// descrs maps NumPy type strings to dtypes. One-byte types may carry any
// byte-order mark; wider ones must be little-endian ('<', or '=' on the
// little-endian machines this runs on).
var descrs = map[string]tensor.DType{
	"f4": tensor.Float32, "f8": tensor.Float64, "f2": tensor.Float16,
	"i8": tensor.Int64, "i4": tensor.Int32, "i2": tensor.Int16, "i1": tensor.Int8,
	"u1": tensor.Uint8, "b1": tensor.Bool,
}

// ErrFormat is wrapped by every error about a malformed file.
var ErrFormat = errors.New("npy: malformed file")

func formatErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

// ReadFile reads an .npy file. Only a regular file is read, and only once
// its header says how large it must be: a file whose size differs (or that
// is over the npy-bytes limit) is refused before its payload is read.
func ReadFile(path string) (*tensor.Tensor, error) {
	// Stat first: opening a FIFO would wait for a writer.
	if err := checkRegular(os.Stat(path)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := readFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// readFile reads an open .npy file (an *os.File, or a file of an fs.FS).
func readFile(f fs.File) (*tensor.Tensor, error) {
	st, err := f.Stat()
	if err := checkRegular(st, err); err != nil {
		return nil, err
	}
	if err := limits.NPYBytes.Check(st.Size()); err != nil {
		return nil, err
	}
	return read(f, st.Size())
}

func checkRegular(st fs.FileInfo, err error) error {
	if err != nil {
		return err
	}
	return limits.RegularFile(st)
}

// Read reads one .npy array from r: its header, then exactly the payload
// the header describes.
func Read(r io.Reader) (*tensor.Tensor, error) { return read(r, -1) }

// maxHeader bounds an .npy header (NumPy's own reader refuses more than
// 10,000 bytes by default).
const maxHeader = 1 << 20

// read reads an .npy image from r; size, when known (>= 0), is the
// file's, which must be exactly what the header describes.
func read(r io.Reader, size int64) (*tensor.Tensor, error) {
	var pre [12]byte
	if _, err := io.ReadFull(r, pre[:10]); err != nil {
		return nil, formatErr("bad magic (not an .npy file)")
	}
	start, hlen, err := headerLength(pre[:10])
	if err == errNeedMore {
		if _, err := io.ReadFull(r, pre[10:12]); err != nil {
			return nil, formatErr("truncated header length")
		}
		start, hlen, err = headerLength(pre[:12])
	}
	if err != nil {
		return nil, err
	}
	if hlen > maxHeader || size >= 0 && int64(start+hlen) > size {
		return nil, formatErr("header length %d exceeds the file (%d bytes)", hlen, size)
	}
	head := make([]byte, start+hlen)
	copy(head, pre[:start])
	if _, err := io.ReadFull(r, head[start:]); err != nil {
		return nil, formatErr("truncated header: needs %d bytes", start+hlen)
	}
	h, err := parseHeader(string(head[start:]))
	if err != nil {
		return nil, err
	}
	want, err := h.payloadBytes()
	if err != nil {
		return nil, err
	}
	if size >= 0 && size-int64(len(head)) != int64(want) {
		return nil, formatErr("payload is %d bytes; shape %v of %v needs %d", size-int64(len(head)), h.shape, h.dtype, want)
	}
	if err := limits.NPYBytes.Check(int64(len(head) + want)); err != nil {
		return nil, err
	}
	var b []byte
	if size >= 0 {
		// The file is as large as the header says: allocate it at once.
		b = make([]byte, len(head)+want)
		copy(b, head)
		if n, err := io.ReadFull(r, b[len(head):]); err != nil {
			return nil, formatErr("payload is %d bytes; shape %v of %v needs %d", n, h.shape, h.dtype, want)
		}
	} else {
		// A stream of unknown length: grow with what arrives, never
		// from what the header claims.
		buf := bytes.NewBuffer(make([]byte, 0, len(head)+min(want, 1<<20)))
		buf.Write(head)
		if n, err := io.CopyN(buf, r, int64(want)); err != nil {
			return nil, formatErr("payload is %d bytes; shape %v of %v needs %d", n, h.shape, h.dtype, want)
		}
		b = buf.Bytes()
	}
	var extra [1]byte
	if n, _ := io.ReadFull(r, extra[:]); n > 0 {
		return nil, formatErr("data after the payload that shape %v of %v needs (%d bytes)", h.shape, h.dtype, want)
	}
	return Decode(b)
}

var errNeedMore = errors.New("need more")

// headerLength reads the magic, version and header length: the header
// starts at start and is hlen bytes. Version 1 needs 10 bytes, 2 and 3
// need 12 (errNeedMore when b has only 10).
func headerLength(b []byte) (start, hlen int, err error) {
	if len(b) < len(magic)+2 || string(b[:len(magic)]) != magic {
		return 0, 0, formatErr("bad magic (not an .npy file)")
	}
	major, minor := b[6], b[7]
	switch major {
	case 1:
		if len(b) < 10 {
			return 0, 0, formatErr("truncated header length")
		}
		return 10, int(binary.LittleEndian.Uint16(b[8:])), nil
	case 2, 3:
		if len(b) < 12 {
			if len(b) == 10 {
				return 0, 0, errNeedMore
			}
			return 0, 0, formatErr("truncated header length")
		}
		h := binary.LittleEndian.Uint32(b[8:])
		if uint64(h) > maxHeader {
			return 0, 0, formatErr("header length %d is more than an .npy header needs", h)
		}
		return 12, int(h), nil
	}
	return 0, 0, formatErr("unsupported format version %d.%d", major, minor)
}

// payloadBytes is the size of the payload the header describes.
func (h header) payloadBytes() (int, error) {
	numel := 1
	for _, s := range h.shape {
		if s != 0 && numel > tensor.MaxBytes/s {
			return 0, formatErr("shape %v is too large", h.shape)
		}
		numel *= s
	}
	if numel > tensor.MaxBytes/h.dtype.Size() {
		return 0, formatErr("shape %v is too large", h.shape)
	}
	return numel * h.dtype.Size(), nil
}

// Decode parses an .npy image. The tensor views b's payload without
// copying when it is aligned, so b must not change afterwards. A
// Fortran-order array becomes a tensor with column-major strides.
func Decode(b []byte) (*tensor.Tensor, error) {
	start, hlen, err := headerLength(b)
	if err != nil {
		return nil, err
	}
	if start+hlen > len(b) {
		return nil, formatErr("truncated header: needs %d bytes, file has %d", start+hlen, len(b))
	}
	h, err := parseHeader(string(b[start : start+hlen]))
	if err != nil {
		return nil, err
	}
	want, err := h.payloadBytes()
	if err != nil {
		return nil, err
	}
	data := b[start+hlen:]
	if len(data) != want {
		return nil, formatErr("payload is %d bytes; shape %v of %v needs %d", len(data), h.shape, h.dtype, want)
	}
	var strides []int
	if h.fortran {
		strides = make([]int, len(h.shape))
		acc := 1
		for i, s := range h.shape {
			strides[i] = acc
			acc *= max(s, 1)
		}
	}
	t, err := tensor.FromBytes(h.dtype, h.shape, strides, 0, data)
	if err != nil {
		return nil, formatErr("%v", err)
	}
	return t, nil
}

type header struct {
	dtype   tensor.DType
	fortran bool
	shape   []int
}

// parseHeader reads the Python dict literal NumPy writes, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
func parseHeader(s string) (header, error) {
	var h header
	p := &lexer{s: strings.TrimRight(s, " \n\x00")}
	if !p.eat('{') {
		return h, formatErr("header is not a dict: %.40q", s)
	}
	seen := map[string]bool{}
	for {
		if p.eat('}') {
			break
		}
		key, ok := p.str()
		if !ok || !p.eat(':') {
			return h, formatErr("bad header key near %.30q", p.rest())
		}
		if seen[key] {
			return h, formatErr("duplicate header key %q", key)
		}
		seen[key] = true
		switch key {
		case "descr":
			d, ok := p.str()
			if !ok {
				return h, formatErr("descr is not a string")
			}
			dt, err := parseDescr(d)
			if err != nil {
				return h, err
			}
			h.dtype = dt
		case "fortran_order":
			switch {
			case p.word("True"):
				h.fortran = true
			case p.word("False"):
			default:
				return h, formatErr("fortran_order is not True or False")
			}
		case "shape":
			shape, err := p.tuple()
			if err != nil {
				return h, err
			}
			h.shape = shape
		default:
			return h, formatErr("unknown header key %q", key)
		}
		if !p.eat(',') {
			if !p.eat('}') {
				return h, formatErr("expected ',' or '}' near %.30q", p.rest())
			}
			break
		}
	}
	if p.rest() != "" {
		return h, formatErr("trailing text after header dict: %.30q", p.rest())
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return h, formatErr("header lacks %q", k)
		}
	}
	return h, nil
}

func parseDescr(d string) (tensor.DType, error) {
	if len(d) < 2 {
		return 0, formatErr("unsupported dtype %q", d)
	}
	order, code := d[0], d[1:]
	dt, ok := descrs[code]
	if !ok || !strings.ContainsRune("<>|=", rune(order)) {
		return 0, formatErr("unsupported dtype %q", d)
	}
	if dt.Size() > 1 && order != '<' && order != '=' {
		return 0, formatErr("unsupported dtype %q (big-endian)", d)
	}
	return dt, nil
}

type lexer struct {
	s string
	i int
}

func (p *lexer) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *lexer) rest() string { p.skip(); return p.s[p.i:] }

func (p *lexer) eat(c byte) bool {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *lexer) word(w string) bool {
	p.skip()
	if strings.HasPrefix(p.s[p.i:], w) {
		p.i += len(w)
		return true
	}
	return false
}

func (p *lexer) str() (string, bool) {
	p.skip()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", false
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", false
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, true
}

func (p *lexer) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, formatErr("shape is not a tuple")
	}
	shape := []int{}
	for {
		if p.eat(')') {
			return shape, nil
		}
		p.skip()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		if j == p.i {
			return nil, formatErr("bad shape entry near %.20q", p.s[p.i:])
		}
		n, err := strconv.Atoi(p.s[p.i:j])
		if err != nil || n > tensor.MaxBytes {
			return nil, formatErr("shape entry %q is too large", p.s[p.i:j])
		}
		shape = append(shape, n)
		p.i = j
		if !p.eat(',') {
			if !p.eat(')') {
				return nil, formatErr("bad shape tuple near %.20q", p.rest())
			}
			return shape, nil
		}
	}
}

// WriteFile writes t as an .npy file, atomically (package atomicfile).
func WriteFile(path string, t *tensor.Tensor) error {
	b, err := Encode(t)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, b)
}

// Write writes t to w in .npy format.
func Write(w io.Writer, t *tensor.Tensor) error {
	b, err := Encode(t)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Encode renders t as an .npy image in C order, with a version 1 header
// (version 2 if the header needs it) padded to 64 bytes as NumPy does.
func Encode(t *tensor.Tensor) ([]byte, error) {
	var descr string
	for code, dt := range descrs {
		if dt == t.DType() {
			order := "<"
			if dt.Size() == 1 {
				order = "|"
			}
			descr = order + code
		}
	}
	if descr == "" {
		return nil, fmt.Errorf("npy: dtype %v has no NumPy equivalent", t.DType())
	}
	var shape strings.Builder
	shape.WriteByte('(')
	for i, s := range t.Sizes() {
		if i > 0 {
			shape.WriteString(", ")
		}
		shape.WriteString(strconv.Itoa(s))
	}
	if t.Dim() == 1 {
		shape.WriteByte(',')
	}
	shape.WriteByte(')')
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape.String())
	major, pre := 1, 10
	if len(dict)+pre+1 > 65535 {
		major, pre = 2, 12
	}
	pad := (64 - (pre+len(dict)+1)%64) % 64
	hlen := len(dict) + pad + 1
	c, err := tensor.Contiguous(t)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(pre + hlen + c.Numel()*c.DType().Size())
	buf.WriteString(magic)
	buf.WriteByte(byte(major))
	buf.WriteByte(0)
	if major == 1 {
		_ = binary.Write(&buf, binary.LittleEndian, uint16(hlen))
	} else {
		_ = binary.Write(&buf, binary.LittleEndian, uint32(hlen))
	}
	buf.WriteString(dict)
	buf.WriteString(strings.Repeat(" ", pad))
	buf.WriteByte('\n')
	size := c.DType().Size()
	off := c.Offset() * size
	buf.Write(c.Storage().Bytes()[off : off+c.Numel()*size])
	return buf.Bytes(), nil
}

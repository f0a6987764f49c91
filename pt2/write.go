package pt2

import (
	"archive/zip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/seam-rt/seam/atomicfile"
	"github.com/seam-rt/seam/ir"
)

// alignment is PyTorch's kFieldAlignment: every record's data starts on a
// multiple of it, so weights can be memory-mapped in place.
const alignment = 64

// WriteFile writes the archive to path atomically (package atomicfile),
// so a failure leaves nothing half-written. The root folder is the file's
// base name without its extension, as torch.export.save names it.
func WriteFile(path string, a *Archive) error {
	root := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return atomicfile.Write(path, func(w io.Writer) error {
		err := Write(w, a, root)
		// A record of the archive being copied that cannot be read is
		// that archive's fault, not the one being written.
		var re *RecordError
		if errors.As(err, &re) && re.Archive != "" && re.Archive != path {
			return &Error{File: re.Archive, Record: re.Record, Err: fmt.Errorf("%w; %s was not written", re.Err, path)}
		}
		if err != nil {
			return &Error{File: path, Err: err}
		}
		return nil
	})
}

// Write writes the archive with every record below root/.
func Write(w io.Writer, a *Archive, root string) error {
	if root == "" || strings.ContainsAny(root, `/\`) {
		return fmt.Errorf("bad root folder name %q", root)
	}
	cw := &countingWriter{w: w}
	zw := zip.NewWriter(cw)
	aw := &archiveWriter{zw: zw, cw: cw, root: root + "/", written: map[string]ir.Blob{}}
	if err := aw.writeAll(a); err != nil {
		return err
	}
	return zw.Close()
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type archiveWriter struct {
	zw   *zip.Writer
	cw   *countingWriter
	root string
	// sums feed .data/serialization_id.
	nameSum, dataSum uint64
	// written holds the payload files already in the archive.
	written map[string]ir.Blob
}

func (aw *archiveWriter) writeAll(a *Archive) error {
	for _, model := range a.ModelNames() {
		p := a.Programs[model]
		for _, kind := range []string{"weights", "constants"} {
			table := p.Weights
			if kind == "constants" {
				table = p.Constants
			}
			if err := aw.writePayloads(model, kind, table); err != nil {
				return err
			}
		}
		data, err := ir.EncodeProgram(p)
		if err != nil {
			return fmt.Errorf("models/%s.json: %w", model, err)
		}
		if err := aw.writeBytes("models/"+model+".json", data); err != nil {
			return err
		}
		// load_pt2 always reads the sample inputs record; empty is fine.
		sample := a.SampleInputs[model]
		if sample == nil {
			sample = ir.Bytes{}
		}
		if err := aw.writeBlob("data/sample_inputs/"+model+".pt", sample); err != nil {
			return err
		}
	}
	for _, name := range ir.SortedKeys(a.Delegates) {
		d := a.Delegates[name]
		data, err := json.Marshal(delegateRecord{Backend: d.Backend, CompileOptions: d.CompileOptions, Profile: d.Contract})
		if err != nil {
			return err
		}
		if err := aw.writeBytes("data/delegates/"+name+".json", data); err != nil {
			return err
		}
		if d.Compiled != nil {
			if err := aw.writeBlob("data/delegates/"+name+".bin", d.Compiled); err != nil {
				return err
			}
		}
	}
	if a.Specializations != nil {
		data, err := json.Marshal(specializationsFile{Specializations: a.Specializations})
		if err != nil {
			return err
		}
		if err := aw.writeBytes(SpecializationsRecord, data); err != nil {
			return err
		}
	}
	for _, name := range ir.SortedKeys(a.Extra) {
		if err := aw.writeBytes("extra/"+name, a.Extra[name]); err != nil {
			return err
		}
	}
	for _, rel := range ir.SortedKeys(a.Other) {
		if err := aw.writeBlob(rel, a.Other[rel]); err != nil {
			return err
		}
	}
	for _, rec := range []struct{ name, text string }{
		{"archive_format", "pt2"}, {"archive_version", "0"}, {".data/version", "6\n"}, {"byteorder", "little"},
	} {
		if err := aw.writeBytes(rec.name, []byte(rec.text)); err != nil {
			return err
		}
	}
	id := fmt.Sprintf("%020d%020d", aw.nameSum, aw.dataSum)
	return aw.writeBytes(".data/serialization_id", []byte(id))
}

// writePayloads writes one model's weights or constants: each stored file
// once, then its config. Weights that view one storage share a path; a
// file another model of the archive already wrote with the same data is
// shared, and a path another model used for other data is renamed.
func (aw *archiveWriter) writePayloads(model, kind string, table map[string]*ir.Weight) error {
	files := map[string]ir.Blob{}
	for _, fqn := range ir.SortedKeys(table) {
		w := table[fqn]
		if w.Data == nil {
			return fmt.Errorf("%s %s has no data", kind, fqn)
		}
		if w.Path == "" || strings.ContainsAny(w.Path, `/\`) {
			return fmt.Errorf("%s %s: bad path name %q", kind, fqn, w.Path)
		}
		if prev, ok := files[w.Path]; ok && !sameBlob(prev, w.Data) {
			return fmt.Errorf("%s %s: path %s is shared with other data", kind, fqn, w.Path)
		}
		files[w.Path] = w.Data
	}
	rename := map[string]string{}
	for _, path := range sortedPayloadPaths(files) {
		rel := "data/" + kind + "/" + path
		if prev, ok := aw.written[rel]; ok {
			if sameBlob(prev, files[path]) {
				continue
			}
			rel = aw.freePath(kind, path)
			rename[path] = strings.TrimPrefix(rel, "data/"+kind+"/")
		}
		if err := aw.writeBlob(rel, files[path]); err != nil {
			return err
		}
		aw.written[rel] = files[path]
	}
	cfg := map[string]ir.PayloadMeta{}
	for fqn, w := range table {
		path := w.Path
		if r, ok := rename[path]; ok {
			path = r
		}
		cfg[fqn] = ir.PayloadMeta{PathName: path, IsParam: w.IsParam, UsePickle: w.UsePickle, TensorMeta: w.Meta}
	}
	data, err := ir.EncodePayloadConfig(cfg)
	if err != nil {
		return err
	}
	return aw.writeBytes(fmt.Sprintf("data/%s/%s_%s_config.json", kind, model, kind), data)
}

// freePath finds an unused name with the prefix of path (weight_7 ->
// weight_12), numbering on from the highest in use, as PyTorch does.
func (aw *archiveWriter) freePath(kind, path string) string {
	prefix := path
	if i := strings.LastIndexByte(path, '_'); i >= 0 {
		prefix = path[:i]
	}
	for n := 0; ; n++ {
		rel := fmt.Sprintf("data/%s/%s_%d", kind, prefix, n)
		if _, ok := aw.written[rel]; !ok {
			return rel
		}
	}
}

// sameBlob reports whether two blobs are the same stored data.
func sameBlob(a, b ir.Blob) bool {
	x, okA := a.(ir.Bytes)
	y, okB := b.(ir.Bytes)
	if okA || okB {
		return okA && okB && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	}
	if reflect.ValueOf(a).Kind() != reflect.Pointer || reflect.ValueOf(b).Kind() != reflect.Pointer {
		return false
	}
	return a == b
}

// sortedPayloadPaths orders weight_2 before weight_10, as PyTorch writes them.
func sortedPayloadPaths(files map[string]ir.Blob) []string {
	paths := ir.SortedKeys(files)
	num := func(p string) (string, int) {
		i := strings.LastIndexByte(p, '_')
		if i < 0 {
			return p, -1
		}
		n, err := strconv.Atoi(p[i+1:])
		if err != nil {
			return p, -1
		}
		return p[:i], n
	}
	slices.SortFunc(paths, func(a, b string) int {
		pa, na := num(a)
		pb, nb := num(b)
		if pa != pb {
			return strings.Compare(pa, pb)
		}
		if na != nb {
			return na - nb
		}
		return strings.Compare(a, b)
	})
	return paths
}

func (aw *archiveWriter) writeBytes(rel string, data []byte) error {
	return aw.writeBlob(rel, ir.Bytes(data))
}

// writeBlob writes one stored record whose data starts on a 64-byte
// boundary, padded with an "FB" extra field as PyTorch's writer does. A
// record of a read archive is streamed once, under the CRC its archive
// records and checked against it as it goes (a mismatch fails the write);
// other data is read twice, to compute its CRC first.
func (aw *archiveWriter) writeBlob(rel string, b ir.Blob) error {
	size := b.Size()
	var sum uint32
	src := func() (io.Reader, func() error, error) {
		return io.NewSectionReader(b, 0, size), func() error { return nil }, nil
	}
	if cb, ok := b.(checkedBlob); ok {
		sum = cb.crc()
		src = func() (io.Reader, func() error, error) {
			rc, err := cb.open()
			if err != nil {
				return nil, nil, err
			}
			return rc, rc.Close, nil
		}
	} else {
		crc := crc32.NewIEEE()
		if _, err := io.Copy(crc, io.NewSectionReader(b, 0, size)); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		sum = crc.Sum32()
	}
	if err := aw.zw.Flush(); err != nil {
		return err
	}
	name := aw.root + rel
	start := aw.cw.n + 30 + int64(len(name)) + 4
	pad := (alignment - start%alignment) % alignment
	extra := make([]byte, 4+pad)
	extra[0], extra[1] = 'F', 'B'
	binary.LittleEndian.PutUint16(extra[2:], uint16(pad))
	for i := 4; i < len(extra); i++ {
		extra[i] = 'Z'
	}
	fh := &zip.FileHeader{
		Name:               name,
		Method:             zip.Store,
		CRC32:              sum,
		CompressedSize64:   uint64(size),
		UncompressedSize64: uint64(size),
		Extra:              extra,
	}
	fw, err := aw.zw.CreateRaw(fh)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	r, closeSrc, err := src()
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	n, err := io.Copy(fw, r)
	if cerr := closeSrc(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = fmt.Errorf("wrote %d bytes of %d", n, size)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	aw.nameSum = aw.nameSum*31 + crc64.Checksum([]byte(rel), crcTable)
	aw.dataSum = aw.dataSum*31 + uint64(sum)
	return nil
}

var crcTable = crc64.MakeTable(crc64.ECMA)

package pt2

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/limits"
)

// Open reads the archive at path. Weights stay in the file until read, so
// the archive must be closed when done. Only a regular file is read: a
// device or a pipe has no size to check before reading.
func Open(path string) (*Archive, error) {
	// Stat first: opening a FIFO would wait for a writer.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, &Error{File: path, Err: limits.RegularFile(st)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := limits.RegularFile(st); err != nil {
		f.Close()
		return nil, &Error{File: path, Err: err}
	}
	a, err := Read(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	a.closer = f.Close
	return a, nil
}

// ReadBytes reads an archive held in memory. Its program records are
// decoded where they lie.
func ReadBytes(data []byte, name string) (*Archive, error) {
	return readWith(&reader{file: name, r: bytes.NewReader(data), size: int64(len(data)), mem: data})
}

// Read reads an archive from r; name is used in errors. Weights are read
// from r on demand, so r must stay readable while they are used.
func Read(r io.ReaderAt, size int64, name string) (*Archive, error) {
	return readWith(&reader{file: name, r: r, size: size})
}

func readWith(rd *reader) (*Archive, error) {
	name := rd.file
	a, err := rd.read()
	if err != nil {
		var pe *Error
		if errors.As(err, &pe) {
			return nil, err
		}
		return nil, &Error{File: name, Err: err}
	}
	return a, nil
}

type reader struct {
	file    string
	r       io.ReaderAt
	size    int64
	mem     []byte // r's bytes, when the archive is in memory
	root    string
	records map[string]*zip.File // by path below the root
	blobs   map[*zip.File]ir.Blob
}

func (rd *reader) errf(record, format string, args ...any) error {
	return &Error{File: rd.file, Record: record, Err: fmt.Errorf(format, args...)}
}

func (rd *reader) wrap(record string, err error) error {
	return &Error{File: rd.file, Record: record, Err: err}
}

func (rd *reader) read() (*Archive, error) {
	// archive/zip builds every central-directory entry before anything can
	// look at them: count them first.
	if n, ok := recordCount(rd.r, rd.size); ok {
		if err := limits.Records.Check(int64(n)); err != nil {
			return nil, rd.wrap("", err)
		}
	}
	zr, err := zip.NewReader(rd.r, rd.size)
	if err != nil {
		return nil, rd.errf("", "not a zip archive (%v)", err)
	}
	if err := rd.index(zr); err != nil {
		return nil, err
	}
	if err := rd.checkFormat(); err != nil {
		return nil, err
	}
	a := &Archive{
		Programs:     map[string]*ir.Program{},
		Delegates:    map[string]*ir.Delegate{},
		Extra:        map[string][]byte{},
		SampleInputs: map[string]ir.Blob{},
		Other:        map[string]ir.Blob{},
		check:        rd.checkBytes,
	}
	used := map[string]bool{}
	for _, rec := range []string{"archive_format", "archive_version", "byteorder", ".data/version", ".data/serialization_id"} {
		used[rec] = true
	}
	for rel := range rd.records {
		dir, base := path.Split(rel)
		if dir != "models/" || !strings.HasSuffix(base, ".json") {
			continue
		}
		model := strings.TrimSuffix(base, ".json")
		p, err := rd.readProgram(model, used)
		if err != nil {
			return nil, err
		}
		a.Programs[model] = p
	}
	if len(a.Programs) == 0 {
		return nil, rd.errf("models/model.json", "missing: the archive holds no program (models/*.json)")
	}
	compiled := map[string]*zip.File{}
	for rel, f := range rd.records {
		if used[rel] {
			continue
		}
		switch {
		case strings.HasPrefix(rel, "extra/"):
			data, err := rd.readAll(rel, limits.RecordBytes)
			if err != nil {
				return nil, err
			}
			a.Extra[strings.TrimPrefix(rel, "extra/")] = data
		case strings.HasPrefix(rel, "data/sample_inputs/") && strings.HasSuffix(rel, ".pt"):
			a.SampleInputs[strings.TrimSuffix(strings.TrimPrefix(rel, "data/sample_inputs/"), ".pt")] = rd.blob(f)
		case rel == SpecializationsRecord:
			data, err := rd.readJSON(rel)
			if err != nil {
				return nil, err
			}
			if a.Specializations, err = decodeSpecializations(data); err != nil {
				return nil, rd.wrap(rel, err)
			}
		case strings.HasPrefix(rel, "data/delegates/") && strings.HasSuffix(rel, ".json"):
			data, err := rd.readJSON(rel)
			if err != nil {
				return nil, err
			}
			var d delegateRecord
			if err := json.Unmarshal(data, &d); err != nil {
				return nil, rd.errf(rel, "malformed delegate record: %v", err)
			}
			a.Delegates[strings.TrimSuffix(strings.TrimPrefix(rel, "data/delegates/"), ".json")] = &ir.Delegate{
				Backend: d.Backend, CompileOptions: d.CompileOptions, Contract: d.Profile,
			}
		case strings.HasPrefix(rel, "data/delegates/") && strings.HasSuffix(rel, ".bin"):
			compiled[strings.TrimSuffix(strings.TrimPrefix(rel, "data/delegates/"), ".bin")] = f
		default:
			a.Other[rel] = rd.blob(f)
		}
	}
	// A specialization names a program of the archive, not the main one
	// or a module, and no other specialization names it.
	if main, err := a.Program(); err == nil && a.Specializations != nil {
		if _, _, err := a.specializations(main); err != nil {
			return nil, rd.wrap(SpecializationsRecord, err)
		}
	}
	// What a backend compiled belongs to its module's record; without a
	// record it is kept as it is.
	for name, f := range compiled {
		if d, ok := a.Delegates[name]; ok {
			d.Compiled = rd.blob(f)
		} else {
			a.Other["data/delegates/"+name+".bin"] = rd.blob(f)
		}
	}
	return a, nil
}

// recordCount reads the number of records an archive's end of central
// directory (or its zip64 twin) declares, without trusting anything else.
func recordCount(r io.ReaderAt, size int64) (uint64, bool) {
	const eocdLen, maxComment = 22, 65535
	// Most archives end with the end record (no comment): read just it,
	// and the zip64 locator before it, first.
	var buf []byte
	i := -1
	for _, tail := range []int64{eocdLen + 20, eocdLen + maxComment + 20} {
		tail = min(size, tail)
		buf = make([]byte, tail)
		if n, err := r.ReadAt(buf, size-tail); n != len(buf) && err != nil {
			return 0, false
		}
		if i = bytes.LastIndex(buf, []byte("PK\x05\x06")); i >= 0 && len(buf)-i >= eocdLen {
			break
		}
		if tail == size {
			return 0, false
		}
	}
	if i < 0 || len(buf)-i < eocdLen {
		return 0, false
	}
	n := uint64(binary.LittleEndian.Uint16(buf[i+10:]))
	if n != 0xffff || i < 20 || string(buf[i-20:i-16]) != "PK\x06\x07" {
		return n, true
	}
	// zip64: the locator before the end record says where its record is.
	off := int64(binary.LittleEndian.Uint64(buf[i-20+8:]))
	var rec [56]byte
	if off < 0 || off > size-56 {
		return 0, false
	}
	if _, err := r.ReadAt(rec[:], off); err != nil || string(rec[:4]) != "PK\x06\x06" {
		return 0, false
	}
	return binary.LittleEndian.Uint64(rec[32:]), true
}

// index records every entry below the root folder, refusing unsafe names,
// duplicates and sizes no real archive has.
func (rd *reader) index(zr *zip.Reader) error {
	if len(zr.File) == 0 {
		return rd.errf("", "empty zip archive")
	}
	rd.records = make(map[string]*zip.File, len(zr.File))
	// PyTorchStreamReader takes the root folder from the first entry.
	if i := strings.IndexByte(zr.File[0].Name, '/'); i >= 0 {
		rd.root = zr.File[0].Name[:i+1]
	}
	var stored, inflated int64
	var largest *zip.File // the compressed record that inflates most
	for _, f := range zr.File {
		name := f.Name
		if err := checkEntryName(name); err != nil {
			return rd.errf(name, "%v", err)
		}
		if !strings.HasPrefix(name, rd.root) {
			return rd.errf(name, "entry outside the archive's root folder %q", rd.root)
		}
		if strings.HasSuffix(name, "/") {
			continue // a directory entry
		}
		if err := rd.checkEntrySize(f); err != nil {
			return rd.errf(name, "%v", err)
		}
		rel := strings.TrimPrefix(name, rd.root)
		if _, dup := rd.records[rel]; dup {
			return rd.errf(name, "record appears twice")
		}
		rd.records[rel] = f
		stored += int64(f.CompressedSize64)
		if f.Method != zip.Store {
			inflated += int64(f.UncompressedSize64)
			if largest == nil || f.UncompressedSize64 > largest.UncompressedSize64 {
				largest = f
			}
		}
	}
	// Records that share bytes (a zip bomb's trick) add up to more than
	// the file holds.
	if stored > rd.size {
		return rd.errf("", "its records' data add up to %d bytes in a file of %d: they overlap", stored, rd.size)
	}
	if err := limits.Expansion.Check(inflated); err != nil {
		return rd.errf(strings.TrimPrefix(largest.Name, rd.root), "inflates to %s, the most of the archive's compressed records, which come to %w",
			limits.FormatBytes(int64(largest.UncompressedSize64)), err)
	}
	return nil
}

func checkEntryName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("entry with an empty name")
	case strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) || (len(name) > 1 && name[1] == ':'):
		return fmt.Errorf("absolute entry path")
	case strings.ContainsRune(name, '\\'):
		return fmt.Errorf("backslash in entry path")
	case strings.ContainsRune(name, 0):
		return fmt.Errorf("NUL in entry path")
	case !utf8.ValidString(name):
		return fmt.Errorf("entry path is not UTF-8")
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("control character in entry path")
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			return fmt.Errorf("entry path climbs out of its folder (a .. component)")
		}
	}
	return nil
}

func (rd *reader) checkEntrySize(f *zip.File) error {
	switch f.Method {
	case zip.Store:
		if f.UncompressedSize64 != f.CompressedSize64 {
			return fmt.Errorf("stored entry claims %d bytes but holds %d", f.UncompressedSize64, f.CompressedSize64)
		}
		if f.CompressedSize64 > uint64(rd.size) {
			return fmt.Errorf("entry of %d bytes in an archive of %d: too large to be real", f.CompressedSize64, rd.size)
		}
	case zip.Deflate:
		// Deflate cannot expand more than about 1032:1.
		if f.UncompressedSize64 > 1032*f.CompressedSize64+1<<20 || f.CompressedSize64 > uint64(rd.size) {
			return fmt.Errorf("compressed entry claims %d bytes from %d: too large to be real", f.UncompressedSize64, f.CompressedSize64)
		}
	default:
		return fmt.Errorf("unsupported zip compression method %d", f.Method)
	}
	return nil
}

// checkFormat refuses archives seam cannot read, saying how to re-save old ones.
func (rd *reader) checkFormat() error {
	const resave = "re-save it with PyTorch 2.9 or newer: torch.export.save(torch.export.load(%q), \"model.pt2\")"
	if _, ok := rd.records["serialized_exported_program.json"]; ok {
		return rd.errf("serialized_exported_program.json", "archive written by PyTorch 2.7 or older, which seam does not read; "+resave, rd.file)
	}
	_, ok := rd.records["archive_format"]
	if !ok {
		for rel := range rd.records {
			if strings.HasPrefix(rel, "data/weights/") && strings.HasSuffix(rel, ".pt") {
				return rd.errf(rel, "archive written by PyTorch 2.8 (weights pickled in one file), which seam does not read; "+resave, rd.file)
			}
		}
		return rd.errf("archive_format", "missing: not a PT2 archive")
	}
	text, err := rd.readSmall("archive_format")
	if err != nil {
		return err
	}
	if string(text) != "pt2" {
		return rd.errf("archive_format", "is %q, want \"pt2\"", text)
	}
	if _, ok := rd.records["archive_version"]; ok {
		v, err := rd.readSmall("archive_version")
		if err != nil {
			return err
		}
		if string(v) != "0" {
			return rd.errf("archive_version", "is %q, want \"0\"", v)
		}
	}
	if _, ok := rd.records["byteorder"]; ok {
		b, err := rd.readSmall("byteorder")
		if err != nil {
			return err
		}
		if s := strings.TrimSpace(string(b)); s != "little" {
			return rd.errf("byteorder", "is %q: seam reads little-endian archives", s)
		}
	}
	if _, ok := rd.records[".data/version"]; ok {
		b, err := rd.readSmall(".data/version")
		if err != nil {
			return err
		}
		if _, err := strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
			return rd.errf(".data/version", "is %q, not a number", b)
		}
	}
	return nil
}

// readAll reads a whole record, its size checked against limit before
// anything is allocated and its bytes against its CRC.
func (rd *reader) readAll(rel string, limit *limits.Limit) ([]byte, error) {
	f, ok := rd.records[rel]
	if !ok {
		return nil, rd.errf(rel, "missing")
	}
	if err := limit.Check(int64(f.UncompressedSize64)); err != nil {
		return nil, rd.wrap(rel, err)
	}
	return rd.readRecord(rel, f)
}

func (rd *reader) readRecord(rel string, f *zip.File) ([]byte, error) {
	data, err := readRecord(f, rd.r)
	if err != nil {
		return nil, rd.wrap(rel, err)
	}
	return data, nil
}

// maxVersionRecord bounds the one-line records (archive_format, byteorder).
const maxVersionRecord = 64

// readSmall reads a one-line record.
func (rd *reader) readSmall(rel string) ([]byte, error) {
	f, ok := rd.records[rel]
	if !ok {
		return nil, rd.errf(rel, "missing")
	}
	if f.UncompressedSize64 > maxVersionRecord {
		return nil, rd.errf(rel, "record of %d bytes where a line of text belongs", f.UncompressedSize64)
	}
	return rd.readRecord(rel, f)
}

// readJSON reads a JSON record whose text must be UTF-8.
func (rd *reader) readJSON(rel string) ([]byte, error) {
	data, err := rd.readAll(rel, limits.JSONBytes)
	if err != nil {
		return nil, err
	}
	if i := invalidUTF8(data); i >= 0 {
		return nil, rd.errf(rel, "invalid UTF-8 (byte %#02x) at byte %d", data[i], i)
	}
	return data, nil
}

// invalidUTF8 is the offset of the first byte that is not UTF-8, or -1.
func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

func (rd *reader) readProgram(model string, used map[string]bool) (*ir.Program, error) {
	rel := "models/" + model + ".json"
	used[rel] = true
	p, structure, err := rd.decodeProgram(rel)
	if err != nil {
		return nil, err
	}
	if p.SchemaVersion.Major != ir.CurrentSchema.Major {
		return nil, rd.errf(rel, "schema version %d.%d: seam reads schema %d.x (PyTorch 2.9 to 2.11)",
			p.SchemaVersion.Major, p.SchemaVersion.Minor, ir.CurrentSchema.Major)
	}
	if structure != nil {
		return nil, rd.errf(rel, "%v", structure)
	}
	if p.Weights, err = rd.readPayloads(model, "weights", used); err != nil {
		return nil, err
	}
	if p.Constants, err = rd.readPayloads(model, "constants", used); err != nil {
		return nil, err
	}
	return p, nil
}

// decodeProgram decodes a program record as it reads it, so that its
// JSON (the largest record of a large program) is never held whole, and
// returns also the verdict of the program's structure check, made as it
// is read. Its declared size is checked first, as readAll does; a
// damaged record is reported as damaged, whatever JSON its damage made.
func (rd *reader) decodeProgram(rel string) (p *ir.Program, structure, err error) {
	f, ok := rd.records[rel]
	if !ok {
		return nil, nil, rd.errf(rel, "missing")
	}
	if err := limits.JSONBytes.Check(int64(f.UncompressedSize64)); err != nil {
		return nil, nil, rd.wrap(rel, err)
	}
	if rd.mem != nil && f.Method == zip.Store {
		// In memory: no copy to read it through.
		data, err := storedRecord(f, rd.mem)
		if err != nil {
			return nil, nil, rd.wrap(rel, err)
		}
		if p, structure, err = ir.DecodeProgramChecked(data); err != nil {
			return nil, nil, rd.errf(rel, "malformed program: %v", err)
		}
		return p, structure, nil
	}
	rc, err := openRecord(f, rd.r)
	if err != nil {
		return nil, nil, rd.wrap(rel, err)
	}
	defer rc.Close()
	r := &firstError{r: rc}
	p, structure, err = ir.DecodeProgramCheckedFrom(r)
	if err != nil && r.err == nil {
		// Read on to the end, where the CRC is checked.
		_, _ = io.Copy(io.Discard, r)
	}
	if r.err != nil {
		return nil, nil, rd.wrap(rel, r.err)
	}
	if err != nil {
		return nil, nil, rd.errf(rel, "malformed program: %v", err)
	}
	return p, structure, nil
}

// firstError keeps the first error other than EOF its reader returns.
type firstError struct {
	r   io.Reader
	err error
}

func (f *firstError) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err != nil && err != io.EOF && f.err == nil {
		f.err = err
	}
	return n, err
}

// readPayloads reads data/<kind>/<model>_<kind>_config.json and attaches
// each entry's stored file.
func (rd *reader) readPayloads(model, kind string, used map[string]bool) (map[string]*ir.Weight, error) {
	rel := fmt.Sprintf("data/%s/%s_%s_config.json", kind, model, kind)
	out := map[string]*ir.Weight{}
	if _, ok := rd.records[rel]; !ok {
		legacy := fmt.Sprintf("data/%s/%s.pt", kind, model)
		if _, ok := rd.records[legacy]; ok {
			return nil, rd.errf(legacy, "%s pickled in one file, as PyTorch 2.8 wrote them; re-save with PyTorch 2.9 or newer", kind)
		}
		return out, nil
	}
	used[rel] = true
	data, err := rd.readAll(rel, limits.JSONBytes)
	if err != nil {
		return nil, err
	}
	cfg, err := ir.DecodePayloadConfig(data)
	if err != nil {
		return nil, rd.errf(rel, "malformed payload config: %v", err)
	}
	blobs := map[string]ir.Blob{}
	// extent is, per stored file, the most bytes any view of it reaches.
	extent := map[string]int64{}
	for _, fqn := range ir.SortedKeys(cfg) {
		meta := cfg[fqn]
		file := meta.PathName
		if file == "" || strings.ContainsAny(file, `/\`) || file == "." || file == ".." {
			return nil, rd.errf(rel, "%s: bad path_name %q", fqn, file)
		}
		dataRel := "data/" + kind + "/" + file
		f, ok := rd.records[dataRel]
		if !ok {
			return nil, rd.errf(rel, "%s: its data %s is missing", fqn, dataRel)
		}
		used[dataRel] = true
		b, ok := blobs[file]
		if !ok {
			b = rd.blob(f)
			blobs[file] = b
		}
		w := &ir.Weight{Path: file, IsParam: meta.IsParam, UsePickle: meta.UsePickle, Meta: meta.TensorMeta, Data: b}
		if !meta.UsePickle && meta.TensorMeta == nil {
			return nil, rd.errf(rel, "%s: raw tensor without tensor_meta", fqn)
		}
		if w.Meta != nil && !w.Meta.DType.Valid() {
			return nil, rd.errf(rel, "%s: unknown dtype %d", fqn, int(w.Meta.DType))
		}
		if err := w.CheckStorage(); err != nil {
			return nil, rd.errf(dataRel, "%s: %v", fqn, err)
		}
		if !w.UsePickle {
			extent[file] = max(extent[file], w.Extent())
		}
		out[fqn] = w
	}
	// A weight file holds its tensors' storage, which may reach past
	// their views, but by a bounded amount, not by gigabytes.
	for _, file := range ir.SortedKeys(extent) {
		size := blobs[file].Size()
		if size == 0 {
			continue // a fake tensor: zeros
		}
		if err := limits.WeightSlack.Check(size - extent[file]); err != nil {
			return nil, rd.errf("data/"+kind+"/"+file, "holds %d bytes where its tensors reach %d, %w", size, extent[file], err)
		}
	}
	return out, nil
}

// blob is a record's data, read on demand. A record's blob is made once, so that programs sharing a weight file
// (a lowered program's parent, modules and specializations) share one
// blob: the writer stores it once again and the runtime loads it once.
func (rd *reader) blob(f *zip.File) ir.Blob {
	if b, ok := rd.blobs[f]; ok {
		return b
	}
	where := recordOf{archive: rd.file, record: strings.TrimPrefix(f.Name, rd.root)}
	var b ir.Blob = &compressedBlob{f: f, r: rd.r, recordOf: where}
	if f.Method == zip.Store {
		b = &storedBlob{f: f, r: rd.r, recordOf: where}
	}
	if rd.blobs == nil {
		rd.blobs = map[*zip.File]ir.Blob{}
	}
	rd.blobs[f] = b
	return b
}

// checkBytes reads every record of the archive through, checking each
// against its CRC.
func (rd *reader) checkBytes() error {
	for _, rel := range ir.SortedKeys(rd.records) {
		if err := checkAll(rd.records[rel], rd.r); err != nil {
			return rd.wrap(rel, err)
		}
	}
	return nil
}

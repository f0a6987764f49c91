package pt2_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/pt2"
)

// The layout tests read written archives byte by byte, not with seam's
// reader (nor archive/zip): what PyTorch's PyTorchStreamWriter lays out and
// its reader and mmap loaders rely on. The same checker accepts the real
// fixtures torch.export.save wrote.

// zipRecord is one stored record as its local header describes it.
type zipRecord struct {
	name       string // below the root folder
	header     int    // offset of the local header
	dataOffset int
	data       []byte
}

const (
	localSig   = 0x04034b50
	centralSig = 0x02014b50
	endSig     = 0x06054b50
)

// layoutOf walks the local headers from offset 0, checks each record and
// the central directory against them, and returns the records in file
// order.
func layoutOf(t *testing.T, what string, b []byte) []zipRecord {
	t.Helper()
	le := binary.LittleEndian
	var recs []zipRecord
	root := ""
	off := 0
	for off+4 <= len(b) && le.Uint32(b[off:]) == localSig {
		if off+30 > len(b) {
			t.Fatalf("%s: truncated local header at %d", what, off)
		}
		flags, method := le.Uint16(b[off+6:]), le.Uint16(b[off+8:])
		crc, csize, usize := le.Uint32(b[off+14:]), int(le.Uint32(b[off+18:])), int(le.Uint32(b[off+22:]))
		nlen, xlen := int(le.Uint16(b[off+26:])), int(le.Uint16(b[off+28:]))
		name := string(b[off+30 : off+30+nlen])
		extra := b[off+30+nlen : off+30+nlen+xlen]
		data := off + 30 + nlen + xlen
		if data+csize > len(b) {
			t.Fatalf("%s: %s: data runs past the end", what, name)
		}
		r, rel, ok := strings.Cut(name, "/")
		if !ok || rel == "" {
			t.Errorf("%s: record %q is not below a root folder", what, name)
		}
		if root == "" {
			root = r
		} else if r != root {
			t.Errorf("%s: record %q is not below the root %s/", what, name, root)
		}
		if method != 0 || csize != usize {
			t.Errorf("%s: %s is not stored (method %d, %d of %d bytes)", what, rel, method, csize, usize)
		}
		if flags&0x8 != 0 {
			t.Errorf("%s: %s has a data descriptor; PyTorch writes sizes in the local header", what, rel)
		}
		if data%64 != 0 {
			t.Errorf("%s: %s: data starts at %d, not on a 64-byte boundary", what, rel, data)
		}
		if xlen > 0 && (xlen < 4 || extra[0] != 'F' || extra[1] != 'B' || int(le.Uint16(extra[2:])) != xlen-4 ||
			bytes.Count(extra[4:], []byte{'Z'}) != xlen-4) {
			t.Errorf("%s: %s: the extra field %q is not PyTorch's FB padding", what, rel, extra)
		}
		payload := b[data : data+csize]
		if crc32.ChecksumIEEE(payload) != crc {
			t.Errorf("%s: %s: CRC mismatch", what, rel)
		}
		recs = append(recs, zipRecord{name: rel, header: off, dataOffset: data, data: payload})
		off = data + csize
	}
	// The central directory lists the same records at the same offsets.
	if len(b) < 22 || le.Uint32(b[len(b)-22:]) != endSig {
		t.Fatalf("%s: no end of central directory record (or a comment after it)", what)
	}
	end := b[len(b)-22:]
	count, cdSize, cdOff := int(le.Uint16(end[10:])), int(le.Uint32(end[12:])), int(le.Uint32(end[16:]))
	if count != len(recs) {
		t.Errorf("%s: the central directory has %d entries, the file %d records", what, count, len(recs))
	}
	if cdOff != off || cdOff+cdSize != len(b)-22 {
		t.Errorf("%s: central directory at %d (+%d), records end at %d, file %d", what, cdOff, cdSize, off, len(b))
	}
	p := cdOff
	for i := 0; i < count && p+46 <= len(b); i++ {
		if le.Uint32(b[p:]) != centralSig {
			t.Fatalf("%s: central entry %d: bad signature", what, i)
		}
		nlen, xlen, clen := int(le.Uint16(b[p+28:])), int(le.Uint16(b[p+30:])), int(le.Uint16(b[p+32:]))
		name, hdr := string(b[p+46:p+46+nlen]), int(le.Uint32(b[p+42:]))
		if i < len(recs) && (hdr != recs[i].header || name != root+"/"+recs[i].name) {
			t.Errorf("%s: central entry %d is %s at %d, the file has %s at %d", what, i, name, hdr, recs[i].name, recs[i].header)
		}
		p += 46 + nlen + xlen + clen
	}
	seen := map[string]bool{}
	for _, r := range recs {
		if seen[r.name] {
			t.Errorf("%s: %s is written twice", what, r.name)
		}
		seen[r.name] = true
	}
	return recs
}

var numbered = regexp.MustCompile(`^(data/(?:weights|constants)/[a-z_]+?)_?(\d+)$`)

// checkOrder checks the order torch.export.save writes records in: per
// model its weight files (weight_0, weight_1, ... by number), the weights
// config, its constant files, the constants config, models/<model>.json
// and data/sample_inputs/<model>.pt; then anything else (extra files;
// seam's delegate records); then archive_format, archive_version,
// .data/version, byteorder and last .data/serialization_id.
func checkOrder(t *testing.T, what string, recs []zipRecord) {
	t.Helper()
	tail := []string{"archive_format", "archive_version", ".data/version", "byteorder", ".data/serialization_id"}
	if len(recs) < len(tail) {
		t.Fatalf("%s: %d records", what, len(recs))
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.name)
	}
	if got := names[len(names)-len(tail):]; strings.Join(got, " ") != strings.Join(tail, " ") {
		t.Errorf("%s: the archive ends with %v, PyTorch's with %v", what, got, tail)
	}
	i, models := 0, 0
	for i < len(names) && (strings.HasPrefix(names[i], "data/weights/") || strings.HasPrefix(names[i], "data/constants/")) {
		// One model's block.
		var model string
		for _, kind := range []string{"weights", "constants"} {
			last := -1
			for i < len(names) && numbered.MatchString(names[i]) && strings.HasPrefix(names[i], "data/"+kind+"/") {
				n, _ := strconv.Atoi(numbered.FindStringSubmatch(names[i])[2])
				if n <= last {
					t.Errorf("%s: %s after number %d", what, names[i], last)
				}
				last = n
				i++
			}
			suffix := "_" + kind + "_config.json"
			if i >= len(names) || !strings.HasPrefix(names[i], "data/"+kind+"/") || !strings.HasSuffix(names[i], suffix) {
				t.Fatalf("%s: record %d is %q, want the %s config", what, i, at(names, i), kind)
			}
			m := strings.TrimSuffix(strings.TrimPrefix(names[i], "data/"+kind+"/"), suffix)
			if model != "" && m != model {
				t.Errorf("%s: %s in the block of model %s", what, names[i], model)
			}
			model = m
			i++
		}
		for _, want := range []string{"models/" + model + ".json", "data/sample_inputs/" + model + ".pt"} {
			if at(names, i) != want {
				t.Fatalf("%s: record %d is %q, want %s", what, i, at(names, i), want)
			}
			i++
		}
		models++
	}
	if models == 0 {
		t.Errorf("%s: no model block", what)
	}
	for ; i < len(names)-len(tail); i++ {
		if n := names[i]; !strings.HasPrefix(n, "extra/") && !strings.HasPrefix(n, "data/delegates/") && !strings.HasPrefix(n, "data/aotinductor/") {
			t.Errorf("%s: %s between the models and the version records", what, n)
		}
	}
}

func at(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return "(end)"
}

// versionRecords are the records PyTorch's writer adds, with what it
// writes in them (serialization_id: 40 decimal digits, two hashes).
func checkVersions(t *testing.T, what string, recs []zipRecord) {
	t.Helper()
	want := map[string]string{"archive_format": "pt2", "archive_version": "0", ".data/version": "6\n", "byteorder": "little"}
	found := 0
	for _, r := range recs {
		if w, ok := want[r.name]; ok {
			found++
			if string(r.data) != w {
				t.Errorf("%s: %s holds %q, PyTorch writes %q", what, r.name, r.data, w)
			}
		}
		if r.name == ".data/serialization_id" {
			found++
			if ok, _ := regexp.Match(`^[0-9]{40}$`, r.data); !ok {
				t.Errorf("%s: serialization_id %q is not 40 digits", what, r.data)
			}
		}
	}
	if found != 5 {
		t.Errorf("%s: %d of the 5 version records", what, found)
	}
}

func checkLayout(t *testing.T, what string, b []byte) []zipRecord {
	t.Helper()
	recs := layoutOf(t, what, b)
	checkOrder(t, what, recs)
	checkVersions(t, what, recs)
	return recs
}

// TestFixtureLayouts: the checker accepts what PyTorch wrote.
func TestFixtureLayouts(t *testing.T) {
	models := fixtures.Models()
	for _, name := range models {
		b, err := os.ReadFile(fixtures.Model(name))
		if err != nil {
			t.Fatal(err)
		}
		checkLayout(t, name, b)
	}
}

// TestWrittenLayoutIsPyTorchs: every fixture, read and written again by
// seam, has PyTorch's layout: each record's data on a 64-byte boundary,
// PyTorch's records in PyTorch's order with what PyTorch writes in the
// version records, every record exactly where torch.export.save put it,
// the payloads byte for byte, and the JSON records (the program and the
// payload configs) byte for byte as json.dumps wrote them but for the
// order of map keys, which seam sorts.
func TestWrittenLayoutIsPyTorchs(t *testing.T) {
	models := fixtures.Models()
	for _, name := range models {
		orig, err := os.ReadFile(fixtures.Model(name))
		if err != nil {
			t.Fatal(err)
		}
		a, err := pt2.Open(fixtures.Model(name))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		err = pt2.Write(&buf, a, "model")
		a.Close()
		if err != nil {
			t.Fatal(err)
		}
		what := name + " (written by seam)"
		got := checkLayout(t, what, buf.Bytes())
		want := layoutOf(t, name, orig)
		if len(got) != len(want) {
			t.Errorf("%s: %d records, PyTorch's file %d", what, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i].name != want[i].name {
				t.Errorf("%s: record %d is %s, PyTorch's %s", what, i, got[i].name, want[i].name)
				continue
			}
			if got[i].dataOffset != want[i].dataOffset {
				t.Errorf("%s: %s at %d, PyTorch's at %d", what, got[i].name, got[i].dataOffset, want[i].dataOffset)
			}
			wantData := want[i].data
			if strings.HasSuffix(want[i].name, ".json") {
				if same := reorderMaps(t, wantData, false); !bytes.Equal(same, wantData) {
					t.Fatalf("%s: %s: reorderMaps does not keep PyTorch's bytes", name, want[i].name)
				}
				wantData = reorderMaps(t, wantData, true)
			}
			if want[i].name != ".data/serialization_id" && !bytes.Equal(got[i].data, wantData) {
				t.Errorf("%s: %s differs from PyTorch's: %s", what, got[i].name, firstDifference(got[i].data, wantData))
			}
		}
	}
}

// jsonMaps are the keys whose values are maps in the export schema (the
// rest are structs, with fields in the schema's order).
var jsonMaps = map[string]bool{
	"config": true, "tensor_values": true, "sym_int_values": true, "sym_bool_values": true,
	"sym_float_values": true, "custom_obj_values": true, "range_constraints": true,
	"treespec_namedtuple_fields": true, "metadata": true,
}

// reorderMaps rewrites JSON as json.dumps writes it (", " and ": "), every
// token kept byte for byte, with the entries of maps (jsonMaps) sorted by
// key when sorted is set.
func reorderMaps(t *testing.T, b []byte, sorted bool) []byte {
	t.Helper()
	var out []byte
	i := 0
	var value func(key string)
	token := func() []byte {
		start := i
		if b[i] == '"' {
			for i++; b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			i++
			return b[start:i]
		}
		for i < len(b) && !strings.ContainsRune(",]} ", rune(b[i])) {
			i++
		}
		return b[start:i]
	}
	sep := func(want byte) bool {
		for b[i] == ' ' {
			i++
		}
		if b[i] == want {
			i++
			for i < len(b) && b[i] == ' ' {
				i++
			}
			return true
		}
		return false
	}
	value = func(key string) {
		switch b[i] {
		case '{':
			i++
			type member struct {
				key  string
				data []byte
			}
			var ms []member
			for !sep('}') {
				raw := token()
				var k string
				if err := json.Unmarshal(raw, &k); err != nil {
					t.Fatalf("key %s: %v", raw, err)
				}
				sep(':')
				saved := out
				out = append(append([]byte(nil), raw...), ": "...)
				value(k)
				ms = append(ms, member{k, out})
				out = saved
				sep(',')
			}
			if sorted && jsonMaps[key] {
				sort.SliceStable(ms, func(a, c int) bool { return ms[a].key < ms[c].key })
			}
			out = append(out, '{')
			for j, m := range ms {
				if j > 0 {
					out = append(out, ", "...)
				}
				out = append(out, m.data...)
			}
			out = append(out, '}')
		case '[':
			i++
			out = append(out, '[')
			for j := 0; !sep(']'); j++ {
				if j > 0 {
					out = append(out, ", "...)
				}
				value("")
				sep(',')
			}
			out = append(out, ']')
		default:
			out = append(out, token()...)
		}
	}
	value("")
	if i != len(b) {
		t.Fatalf("reorderMaps stopped at byte %d of %d", i, len(b))
	}
	return out
}

// firstDifference shows where two byte strings part.
func firstDifference(got, want []byte) string {
	n := 0
	for n < len(got) && n < len(want) && got[n] == want[n] {
		n++
	}
	from := max(0, n-40)
	return fmt.Sprintf("at byte %d (of %d, PyTorch's %d): %q, PyTorch's %q", n, len(got), len(want),
		got[from:min(len(got), n+40)], want[from:min(len(want), n+40)])
}

// TestLoweredLayout: a lowered archive (several models, delegate records)
// keeps the layout too.
func TestLoweredLayout(t *testing.T) {
	for _, name := range []string{"gpt2_tiny", "cnn", "cond"} {
		a, err := pt2.Open(fixtures.Model(name))
		if err != nil {
			t.Fatal(err)
		}
		p, err := a.Program()
		if err != nil {
			t.Fatal(err)
		}
		prof, _ := backend.Builtin("tensor-only")
		res, err := delegate.Program(p, prof, delegate.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		err = pt2.Write(&buf, pt2.FromLowered(res.Lowered, nil), "lowered")
		a.Close()
		if err != nil {
			t.Fatal(err)
		}
		recs := checkLayout(t, name+" lowered", buf.Bytes())
		delegates := 0
		for _, r := range recs {
			if strings.HasPrefix(r.name, "data/delegates/") {
				delegates++
			}
		}
		if delegates == 0 {
			t.Errorf("%s lowered: no delegate records among %d", name, len(recs))
		}
	}
}

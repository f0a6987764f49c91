package pt2_test

import (
	"archive/zip"
	"bytes"
	"hash/crc32"
	"testing"

	"github.com/seam-rt/seam/internal/hostile"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// deflated rebuilds a fixture with every record compressed (PyTorch never
// compresses, other zip tools may) plus an extra file and a record seam
// does not interpret.
func deflated(t *testing.T, model string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	recs := append(fixtureRecords(t, model),
		hostile.Record{Name: "extra/notes.txt", Data: []byte("made by hand")},
		hostile.Record{Name: "data/aotinductor/model/kernel.so", Data: []byte{0x7f, 'E', 'L', 'F'}})
	for _, r := range recs {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "pkg/" + r.Name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(r.Data)
	}
	zw.Close()
	return buf.Bytes()
}

// TestOtherRecordsSurvive: compressed records read, and extra files and
// records seam does not interpret are written back unchanged.
func TestOtherRecordsSurvive(t *testing.T) {
	a, err := pt2.ReadBytes(deflated(t, "mlp"), "deflated.pt2")
	if err != nil {
		t.Fatal(err)
	}
	if string(a.Extra["notes.txt"]) != "made by hand" {
		t.Errorf("extra files: %v", a.Extra)
	}
	if _, ok := a.Other["data/aotinductor/model/kernel.so"]; !ok {
		t.Errorf("other records: %v", ir.SortedKeys(a.Other))
	}
	p, _ := a.Program()
	for fqn, w := range p.Weights {
		if _, err := w.ReadAll(); err != nil {
			t.Errorf("weight %s: %v", fqn, err)
		}
	}
	var out bytes.Buffer
	if err := pt2.Write(&out, a, "model"); err != nil {
		t.Fatal(err)
	}
	b, err := pt2.ReadBytes(out.Bytes(), "rewritten.pt2")
	if err != nil {
		t.Fatal(err)
	}
	if string(b.Extra["notes.txt"]) != "made by hand" {
		t.Errorf("extra file lost: %v", b.Extra)
	}
	blob, ok := b.Other["data/aotinductor/model/kernel.so"]
	if !ok {
		t.Fatal("the uninterpreted record was lost")
	}
	data, _ := (&ir.Weight{Data: blob}).ReadAll()
	if !bytes.Equal(data, []byte{0x7f, 'E', 'L', 'F'}) || crc32.ChecksumIEEE(data) == 0 {
		t.Errorf("record changed: %q", data)
	}
}

func TestDelegateRecordsRoundTrip(t *testing.T) {
	a, err := pt2.ReadBytes(deflated(t, "mlp"), "x.pt2")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := a.Program()
	a.Programs["lowered_module_0"] = p.Clone()
	compiled := ir.Bytes("what the backend made of it\x00\x01")
	a.Delegates = map[string]*ir.Delegate{"lowered_module_0": {Backend: "npu", CompileOptions: map[string]string{"x": "1"}, Contract: []byte(`{"name":"npu"}`), Compiled: compiled}}
	var out bytes.Buffer
	if err := pt2.Write(&out, a, "model"); err != nil {
		t.Fatal(err)
	}
	b, err := pt2.ReadBytes(out.Bytes(), "y.pt2")
	if err != nil {
		t.Fatal(err)
	}
	d := b.Delegates["lowered_module_0"]
	if d == nil || d.Backend != "npu" || d.CompileOptions["x"] != "1" || string(d.Contract) != `{"name":"npu"}` {
		t.Errorf("delegate record %+v", d)
	}
	// What the backend compiled comes back with its record, byte for byte.
	if d != nil {
		got, err := (&ir.Weight{Data: d.Compiled}).ReadAll()
		if d.Compiled == nil || err != nil || string(got) != string(compiled) {
			t.Errorf("compiled blob %q, %v; want %q", got, err, compiled)
		}
	}
	if names := b.ModelNames(); len(names) != 2 || names[0] != "model" {
		t.Errorf("models %v", names)
	}
	// Both programs view the same weight files: written once, shared.
	for fqn, w := range b.Programs["lowered_module_0"].Weights {
		if pw := b.Programs["model"].Weights[fqn]; pw == nil || pw.Path != w.Path {
			t.Errorf("%s: module path %s, parent %v", fqn, w.Path, pw)
		}
	}
}

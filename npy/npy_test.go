package npy

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/tensor"
)

// The files in testdata were written by NumPy (testdata/gen.py).
func TestReadNumPyFiles(t *testing.T) {
	want := map[string]struct {
		dtype tensor.DType
		vals  []float64
	}{
		"f4": {tensor.Float32, []float64{0, .25, .5, .75, 1, 1.25}},
		"f8": {tensor.Float64, []float64{0, 1.0 / 3, 2.0 / 3, 1, 4.0 / 3, 5.0 / 3}},
		"i8": {tensor.Int64, []float64{-2, -1, 0, 1, 2, 3}},
		"i4": {tensor.Int32, []float64{0, 1000, 2000, 3000, 4000, 5000}},
		"i2": {tensor.Int16, []float64{-3, -2, -1, 0, 1, 2}},
		"i1": {tensor.Int8, []float64{-3, -2, -1, 0, 1, 2}},
		"u1": {tensor.Uint8, []float64{0, 40, 80, 120, 160, 200}},
		"b1": {tensor.Bool, []float64{0, 1, 0, 1, 0, 1}},
		"f2": {tensor.Float16, []float64{0, .125, .25, .375, .5, .625}},
	}
	for name, w := range want {
		x, err := ReadFile(filepath.Join("testdata", name+".npy"))
		if err != nil {
			t.Fatal(err)
		}
		if x.DType() != w.dtype || !tensor.EqualInts(x.Sizes(), []int{2, 3}) {
			t.Fatalf("%s: %v", name, x.Type())
		}
		got := x.Float64s()
		for i := range got {
			if got[i] != w.vals[i] {
				t.Errorf("%s: %v, want %v", name, got, w.vals)
				break
			}
		}
		roundTrip(t, x)
	}
	s, err := ReadFile("testdata/scalar.npy")
	if err != nil || s.Dim() != 0 || s.Float() != 3.5 {
		t.Errorf("scalar: %v %v", s, err)
	}
	roundTrip(t, s)
	e, err := ReadFile("testdata/empty.npy")
	if err != nil || !tensor.EqualInts(e.Sizes(), []int{0, 4}) {
		t.Errorf("empty: %v %v", e, err)
	}
	roundTrip(t, e)
	f, err := ReadFile("testdata/fortran.npy")
	if err != nil {
		t.Fatal(err)
	}
	if f.Int(1, 2, 3) != 23 || f.Int(0, 1, 2) != 6 || f.IsContiguous() {
		t.Errorf("fortran order read wrong: %v", f.Int64s())
	}
	roundTrip(t, f)
	for _, v := range []string{"v2", "v3"} {
		x, err := ReadFile("testdata/" + v + ".npy")
		if err != nil || x.Numel() != 5 || x.Float(4) != 4 {
			t.Errorf("%s: %v %v", v, x, err)
		}
	}
}

func roundTrip(t *testing.T, x *tensor.Tensor) {
	t.Helper()
	b, err := Encode(x)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte(magic)) {
		t.Fatal("no magic")
	}
	hlen := int(b[8]) | int(b[9])<<8
	if (10+hlen)%64 != 0 {
		t.Errorf("header not padded to 64: %d", 10+hlen)
	}
	y, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !tensor.Equal(y, x) {
		t.Errorf("round trip: %v != %v", y, x)
	}
}

func TestWrittenFileMatchesNumPyBytes(t *testing.T) {
	// NumPy 1.x/2.x write exactly this for a C-order f4 array.
	want, _ := os.ReadFile("testdata/f4.npy")
	x, _ := ReadFile("testdata/f4.npy")
	var buf bytes.Buffer
	if err := Write(&buf, x); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("bytes differ:\n%q\n%q", buf.Bytes()[:80], want[:80])
	}
}

func TestMalformedFiles(t *testing.T) {
	good, _ := os.ReadFile("testdata/f4.npy")
	hdr := func(dict string) []byte {
		b := []byte(magic + "\x01\x00")
		b = append(b, byte(len(dict)), byte(len(dict)>>8))
		return append(b, dict...)
	}
	cases := map[string][]byte{
		"empty":          nil,
		"bad magic":      append([]byte("NUMPY!"), good[6:]...),
		"version":        append(append([]byte(magic), 9, 0), good[8:]...),
		"truncated hlen": []byte(magic + "\x01\x00\x05"),
		"truncated hdr":  good[:40],
		"truncated data": good[:len(good)-1],
		"trailing data":  append(append([]byte{}, good...), 0),
		"not dict":       hdr("['descr']"),
		"unknown key":    hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}"),
		"missing shape":  hdr("{'descr': '<f4', 'fortran_order': False}"),
		"dup key":        hdr("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}"),
		"big endian":     hdr("{'descr': '>f4', 'fortran_order': False, 'shape': ()}"),
		"complex":        hdr("{'descr': '<c8', 'fortran_order': False, 'shape': ()}"),
		"object":         hdr("{'descr': '|O', 'fortran_order': False, 'shape': ()}"),
		"bad fortran":    hdr("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}"),
		"neg shape":      hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}"),
		"huge shape":     hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999)}"),
		"overflow entry": hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,)}"),
		"unterminated":   hdr("{'descr': '<f4"),
		"v2 huge hlen":   []byte(magic + "\x02\x00\xff\xff\xff\xff{"),
		"bad bool":       append(hdr("{'descr': '|b1', 'fortran_order': False, 'shape': (1,)}"), 7),
	}
	for name, b := range cases {
		_, err := Decode(b)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v does not wrap ErrFormat", name, err)
		}
	}
	if _, err := Encode(mustNew(tensor.BFloat16, 2)); err == nil || !strings.Contains(err.Error(), "bf16") {
		t.Errorf("bf16 encode: %v", err)
	}
}

func mustNew(dt tensor.DType, sizes ...int) *tensor.Tensor {
	x, err := tensor.New(dt, sizes...)
	if err != nil {
		panic(err)
	}
	return x
}

func fixtureNPYs(tb testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(fixtures.Dir(), "models", "*", "io", "*", "*.npy"))
	if len(files) == 0 {
		tb.Fatal("no fixture .npy files")
	}
	return files
}

func TestReadFixtures(t *testing.T) {
	for _, f := range fixtureNPYs(t) {
		x, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, x)
	}
}

// FuzzRead: Decode never panics, and whatever it accepts re-encodes to an
// equal tensor.
func FuzzRead(f *testing.F) {
	for _, p := range fixtureNPYs(f) {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	for _, p := range []string{"f4", "b1", "f2", "scalar", "fortran", "v2", "v3", "empty"} {
		b, _ := os.ReadFile("testdata/" + p + ".npy")
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := Decode(b)
		// The streaming reader (files, case folders) accepts exactly what
		// Decode accepts, as the same tensor.
		y, rerr := Read(bytes.NewReader(b))
		if (err == nil) != (rerr == nil) {
			t.Fatalf("Decode: %v, Read: %v", err, rerr)
		}
		if err != nil {
			return
		}
		if !tensor.Equal(x, y) {
			t.Fatalf("Read gave %v, Decode %v", y, x)
		}
		enc, err := Encode(x)
		if err != nil {
			t.Fatal(err)
		}
		z, err := Decode(enc)
		if err != nil {
			t.Fatal(err)
		}
		if !tensor.Equal(x, z) {
			t.Fatalf("round trip changed %v to %v", x, z)
		}
	})
}

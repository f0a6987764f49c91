//go:build unix

package npy

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/seam-rt/seam/limits"
	"github.com/seam-rt/seam/tensor"
)

// TestReadFileChecksBeforeReading: files that are not regular, or whose
// size the header does not account for, are refused without reading
// their payload (a sparse 3 GB file here would otherwise cost 3 GB).
func TestReadFileChecksBeforeReading(t *testing.T) {
	dir := t.TempDir()
	small, _ := Encode(tensor.Scalar(float32(1)))
	sparse := filepath.Join(dir, "sparse.npy")
	f, _ := os.Create(sparse)
	f.Write(small)
	f.Truncate(3 << 30)
	f.Close()
	fifo := filepath.Join(dir, "fifo.npy")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	defer limits.Reset()
	big := filepath.Join(dir, "big.npy")
	bt, _ := tensor.New(tensor.Float32, 1<<19)
	bb, _ := Encode(bt)
	os.WriteFile(big, bb, 0o644)
	for _, c := range []struct{ path, want string }{
		{sparse, "payload is 3221225344 bytes; shape [] of f32 needs 4"},
		{fifo, "not a regular file"},
		{"/dev/zero", "not a regular file"},
		{dir, "not a regular file"},
		{big, "over the npy-bytes limit"},
	} {
		path, want := c.path, c.want
		if path == big {
			limits.Set("npy-bytes", "1MiB")
		}
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(path)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: %v, want %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still reading", path)
		}
	}
}

func TestReadCaseRefusesWhatIsNotAFile(t *testing.T) {
	good, _ := Encode(tensor.Scalar(float32(1)))
	fsys := fstest.MapFS{
		"in_0.npy":  {Data: good},
		"in_1.npy":  {Mode: os.ModeNamedPipe},
		"out_0.npy": {Data: good},
	}
	if _, err := ReadCase(fsys); err == nil || !strings.Contains(err.Error(), "in_1.npy: not a regular file") {
		t.Errorf("pipe in a case: %v", err)
	}
	delete(fsys, "in_1.npy")
	fsys["out_0.npy"] = &fstest.MapFile{Data: append(bytes.Clone(good), 0)}
	if _, err := ReadCase(fsys); err == nil || !strings.Contains(err.Error(), "out_0.npy") {
		t.Errorf("trailing byte: %v", err)
	}
}

// Read and Decode agree on what they accept.
func TestReadMatchesDecode(t *testing.T) {
	for _, name := range []string{"f4", "b1", "f2", "scalar", "fortran", "v2", "v3", "empty"} {
		b, err := os.ReadFile("testdata/" + name + ".npy")
		if err != nil {
			t.Fatal(err)
		}
		x, err1 := Decode(b)
		y, err2 := Read(bytes.NewReader(b))
		if err1 != nil || err2 != nil || !tensor.Equal(x, y) {
			t.Errorf("%s: Decode %v, Read %v", name, err1, err2)
		}
	}
}

// TestReadDoesNotTrustTheHeader: a stream whose header declares 3.7 GB
// but holds 24 bytes is refused having allocated only what arrived
// (found by FuzzRead: testdata/fuzz/FuzzRead/stream_declares_3_7GB).
func TestReadDoesNotTrustTheHeader(t *testing.T) {
	hdr := "{'descr': '<i8', 'fortran_order': False, 'shape': (2222232, 212), }"
	hdr += strings.Repeat(" ", (64-(10+len(hdr)+1)%64)%64) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(hdr)), byte(len(hdr)>>8))
	b = append(append(b, hdr...), make([]byte, 24)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(bytes.NewReader(b))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "needs 3768905472") {
		t.Errorf("Read: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("allocated %d bytes for a 24-byte payload", grew)
	}
}

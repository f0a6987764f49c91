//go:build unix

package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/npy"
)

// TestWritesAreAtomic: seam's outputs go through one atomic writer. A
// link planted at an output's path is replaced, its target untouched; a
// lowered archive is mode 0644 less the umask; a lower that fails while
// writing leaves neither the output nor a temporary file.
func TestWritesAreAtomic(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "precious")
	os.WriteFile(precious, []byte("keep me"), 0o600)
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	if err := os.Symlink(precious, filepath.Join(out, "out_0.npy")); err != nil {
		t.Skip(err)
	}
	caseDir := filepath.Join(fixtures.ModelDir("mlp"), "io", "case0")
	mustSeam(t, "run", fixtures.Model("mlp"), "--input", filepath.Join(caseDir, "in_0.npy"), "--out", out)
	if b, _ := os.ReadFile(precious); string(b) != "keep me" {
		t.Errorf("run --out wrote through a link: %q", b)
	}
	if _, err := npy.ReadFile(filepath.Join(out, "out_0.npy")); err != nil {
		t.Errorf("the output: %v", err)
	}

	old := syscall.Umask(0o027)
	low := filepath.Join(dir, "low.pt2")
	_, _, err := seam(t, "lower", fixtures.Model("mlp"), "--backend", "tensor-only", "-o", low)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(low); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("lowered archive mode %v (umask 027), %v", st.Mode().Perm(), err)
	}
	for _, e := range entries(t, dir) {
		if strings.Contains(e, ".tmp") {
			t.Errorf("left behind: %s", e)
		}
	}
}

// TestLowerKilledLeavesNothing: a seam lower killed while it writes (by
// SIGTERM, or outright) leaves no temporary file in the output's folder.
func TestLowerKilledLeavesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the write in progress through /proc")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		dir := t.TempDir()
		low := filepath.Join(dir, "low.pt2")
		cmd := seamCommand(fixtures.Model("gpt2_l12"), low)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Signal as soon as the output is being written (or give up
		// waiting and signal anyway: nothing may be left either way).
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) && !writing(dir) {
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(sig)
		cmd.Wait()
		for _, e := range entries(t, dir) {
			if e != "low.pt2" {
				t.Errorf("%v: left behind %s", sig, e)
			}
		}
	}
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

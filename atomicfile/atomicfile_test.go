//go:build unix

package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// leftovers lists the files in dir other than want.
func leftovers(t *testing.T, dir string, want ...string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		keep := false
		for _, w := range want {
			keep = keep || e.Name() == w
		}
		if !keep {
			out = append(out, e.Name())
		}
	}
	return out
}

func bothKinds(t *testing.T, fn func(t *testing.T)) {
	for _, named := range []bool{false, true} {
		t.Run(fmt.Sprintf("named=%v", named), func(t *testing.T) {
			old := namedOnly
			namedOnly = named
			defer func() { namedOnly = old }()
			fn(t)
		})
	}
}

func TestWriteReplacesAtomically(t *testing.T) {
	bothKinds(t, func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "out.pt2")
		if err := WriteFile(path, []byte("first")); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(path, []byte("second")); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != "second" {
			t.Errorf("content %q", b)
		}
		// A write that fails half way leaves the last good file.
		err := Write(path, func(w io.Writer) error {
			w.Write([]byte("half of a thi"))
			return errors.New("disk full")
		})
		if err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("failed write: %v", err)
		}
		if b, _ := os.ReadFile(path); string(b) != "second" {
			t.Errorf("after a failed write: %q", b)
		}
		if l := leftovers(t, dir, "out.pt2"); len(l) > 0 {
			t.Errorf("left behind: %v", l)
		}
	})
}

func TestModeFollowsUmask(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no umask")
	}
	bothKinds(t, func(t *testing.T) {
		for _, c := range []struct{ umask, want os.FileMode }{{0o022, 0o644}, {0o077, 0o600}, {0o002, 0o644}} {
			old := syscall.Umask(int(c.umask))
			path := filepath.Join(t.TempDir(), "f")
			err := WriteFile(path, []byte("x"))
			syscall.Umask(old)
			if err != nil {
				t.Fatal(err)
			}
			st, _ := os.Stat(path)
			if st.Mode().Perm() != c.want {
				t.Errorf("umask %o: mode %o, want %o", c.umask, st.Mode().Perm(), c.want)
			}
		}
	})
}

func TestSymlinkIsReplacedNotFollowed(t *testing.T) {
	bothKinds(t, func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "precious")
		os.WriteFile(target, []byte("keep me"), 0o644)
		link := filepath.Join(dir, "out_0.npy")
		if err := os.Symlink(target, link); err != nil {
			t.Skip(err)
		}
		if err := WriteFile(link, []byte("output")); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(target); string(b) != "keep me" {
			t.Errorf("the link's target was written: %q", b)
		}
		st, _ := os.Lstat(link)
		if !st.Mode().IsRegular() {
			t.Errorf("%s is %v, not a regular file", link, st.Mode())
		}
	})
}

func TestRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFile(dir, []byte("x")); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Errorf("folder: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	if err := WriteFile(fifo, []byte("x")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("fifo: %v", err)
	}
	// Into a missing folder, or one that is a file: the error names the
	// destination and its folder, never a temporary file.
	missing := filepath.Join(dir, "missing")
	if err := WriteFile(filepath.Join(missing, "f"), []byte("x")); err == nil ||
		err.Error() != "write "+filepath.Join(missing, "f")+": no folder "+missing {
		t.Errorf("missing folder: %v", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	if err := WriteFile(filepath.Join(file, "f"), []byte("x")); err == nil || strings.Contains(err.Error(), ".tmp") ||
		!strings.Contains(err.Error(), file+" is not a folder") {
		t.Errorf("folder that is a file: %v", err)
	}
}

// TestSignalRemovesTemporaryFile runs a child that is half way through a
// write when it gets SIGTERM (or, with an unnamed file, SIGKILL): nothing
// may be left in the folder.
func TestSignalRemovesTemporaryFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no signals")
	}
	for _, c := range []struct {
		named bool
		sig   syscall.Signal
	}{{true, syscall.SIGTERM}, {true, syscall.SIGINT}, {false, syscall.SIGTERM}, {false, syscall.SIGKILL}} {
		if c.sig == syscall.SIGKILL && runtime.GOOS != "linux" {
			continue
		}
		t.Run(fmt.Sprintf("named=%v/%v", c.named, c.sig), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHalfWrite$")
			cmd.Env = append(os.Environ(), "ATOMICFILE_HELPER_DIR="+dir, fmt.Sprintf("ATOMICFILE_HELPER_NAMED=%v", c.named))
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			if !strings.HasPrefix(line, "writing") {
				cmd.Process.Kill()
				t.Fatalf("helper said %q", line)
			}
			cmd.Process.Signal(c.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				var ee *exec.ExitError
				if !errors.As(err, &ee) {
					t.Errorf("helper exited %v", err)
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("helper did not die")
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left behind: %v", l)
			}
		})
	}
}

func TestHelperHalfWrite(t *testing.T) {
	dir := os.Getenv("ATOMICFILE_HELPER_DIR")
	if dir == "" {
		t.Skip("run by TestSignalRemovesTemporaryFile")
	}
	namedOnly = os.Getenv("ATOMICFILE_HELPER_NAMED") == "true"
	f, err := Create(filepath.Join(dir, "out.pt2"))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("part of an archive"))
	fmt.Println("writing")
	time.Sleep(time.Minute)
}

// Package atomicfile writes files so that they are never seen half
// written: every file seam writes (lowered archives, outputs, reports)
// goes through it.
//
// A write goes to a temporary file in the destination's folder, is synced
// to disk, and is renamed over the destination only once complete. A
// failed write, a full disk or a crash leaves the destination as it was.
// On Linux the temporary file has no name until it is complete (O_TMPFILE),
// so even a process killed outright leaves nothing behind; elsewhere it is
// a hidden file that SIGINT, SIGTERM and SIGHUP remove before the process
// dies. The destination is replaced, never followed: a symbolic link there
// is replaced by the file, its target untouched. A destination that exists
// and is neither a regular file nor a link (a folder, a device, a pipe) is
// refused. Files are created mode 0644 less the umask.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// File is a write in progress. Write to it, then Commit, or Abort to
// leave the destination as it was. Abort after Commit does nothing, so
// `defer f.Abort()` is always safe.
type File struct {
	path string
	f    *os.File
	// tmp is the temporary file's name ("" while it has none).
	tmp  string
	done bool
}

// Create starts a write to path.
func Create(path string) (*File, error) {
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("write %s: no folder %s", path, dir)
		}
		return nil, fmt.Errorf("write %s: %w", path, err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("write %s: %s is not a folder", path, dir)
	}
	if err := checkDestination(path); err != nil {
		return nil, err
	}
	f, tmp, err := createTemp(dir, filepath.Base(path))
	if err != nil {
		// The temporary file's name means nothing to the user: say what
		// went wrong with the destination's.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &File{path: path, f: f, tmp: tmp}, nil
}

func checkDestination(path string) error {
	st, err := os.Lstat(path)
	switch {
	case err != nil && os.IsNotExist(err):
		return nil
	case err != nil:
		return fmt.Errorf("write %s: %w", path, err)
	case st.Mode().IsRegular() || st.Mode()&fs.ModeSymlink != 0:
		return nil
	case st.IsDir():
		return fmt.Errorf("write %s: it is a folder", path)
	}
	return fmt.Errorf("write %s: it exists and is not a regular file (%s); seam writes only regular files", path, st.Mode().Type())
}

func (f *File) Write(p []byte) (int, error) { return f.f.Write(p) }

// Name is the destination's path.
func (f *File) Name() string { return f.path }

// Commit makes the written file the destination: synced, then renamed
// into place, the folder synced too.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("write %s: already committed or aborted", f.path)
	}
	err := f.f.Sync()
	if err == nil {
		err = f.publish()
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		f.done = true
		f.removeTemp()
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	f.done = true
	syncDir(filepath.Dir(f.path))
	return nil
}

// Abort discards the write.
func (f *File) Abort() error {
	if f.done {
		return nil
	}
	f.done = true
	err := f.f.Close()
	f.removeTemp()
	return err
}

func (f *File) removeTemp() {
	if f.tmp != "" {
		os.Remove(f.tmp)
		forget(f.tmp)
		f.tmp = ""
	}
}

// rename moves the named temporary file over the destination.
func (f *File) rename() error {
	if err := os.Rename(f.tmp, f.path); err != nil {
		return err
	}
	forget(f.tmp)
	f.tmp = ""
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: some file systems refuse to sync a folder
		d.Close()
	}
}

// Write writes path through write, buffered, atomically.
func Write(path string, write func(w io.Writer) error) (err error) {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

func splitPath(path string) (dir, base string) { return filepath.Dir(path), filepath.Base(path) }

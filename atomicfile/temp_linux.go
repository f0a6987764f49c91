package atomicfile

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// createTemp opens an unnamed file in dir (O_TMPFILE): until publish
// links it, nothing on disk names it, so a process killed while writing
// leaves nothing behind. File systems without O_TMPFILE get a named one.
func createTemp(dir, base string) (*os.File, string, error) {
	if namedOnly {
		return createNamed(dir, base)
	}
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return createNamed(dir, base)
	}
	return os.NewFile(uintptr(fd), dir+"/."+base+".tmp"), "", nil
}

// publish gives the file its destination's name: a named temporary file
// is renamed; an unnamed one is linked under a temporary name (the only
// moment it has one) and renamed.
func (f *File) publish() error {
	if f.tmp != "" {
		return f.rename()
	}
	dir, base := splitPath(f.path)
	for range 100 {
		name := tempName(dir, base)
		remember(name)
		err := unix.Linkat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", f.f.Fd()), unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if err == nil {
			f.tmp = name
			return f.rename()
		}
		forget(name)
		if err != unix.EEXIST {
			return err
		}
	}
	return fmt.Errorf("cannot find a free temporary name")
}

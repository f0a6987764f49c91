//go:build !linux

package atomicfile

import "os"

func createTemp(dir, base string) (*os.File, string, error) { return createNamed(dir, base) }

func (f *File) publish() error { return f.rename() }

package npy

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/seam-rt/seam/tensor"
)

// Case is a reference case folder as the fixtures lay it out: the inputs
// in_0.npy, in_1.npy, ... and the expected outputs out_0.npy, ...
type Case struct {
	Inputs, Outputs []*tensor.Tensor
}

// ReadCase reads a case folder: os.DirFS(dir), or a folder of an embedded
// file system. Files are read in order until a number is missing; each
// must be a regular file whose size its header accounts for.
func ReadCase(fsys fs.FS) (*Case, error) {
	c := &Case{}
	var err error
	if c.Inputs, err = readNumbered(fsys, "in"); err != nil {
		return nil, err
	}
	if c.Outputs, err = readNumbered(fsys, "out"); err != nil {
		return nil, err
	}
	return c, nil
}

func readNumbered(fsys fs.FS, prefix string) ([]*tensor.Tensor, error) {
	var out []*tensor.Tensor
	for i := 0; ; i++ {
		name := fmt.Sprintf("%s_%d.npy", prefix, i)
		st, err := fs.Stat(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			return out, nil
		}
		if err := checkRegular(st, err); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		f, err := fsys.Open(name)
		if err != nil {
			return nil, err
		}
		t, err := readFile(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, t)
	}
}

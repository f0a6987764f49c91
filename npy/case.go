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
// file system. Files are read in order until a number is missing.
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
		b, err := fs.ReadFile(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		t, err := Decode(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, t)
	}
}

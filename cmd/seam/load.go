package main

import (
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
)

// openProgram opens an archive and its main program. The caller closes the
// archive when done with the weights.
func openProgram(path string) (*pt2.Archive, *ir.Program, error) {
	a, err := pt2.Open(path)
	if err != nil {
		return nil, nil, err
	}
	p, err := a.Program()
	if err != nil {
		a.Close()
		return nil, nil, &pt2.Error{File: path, Err: err}
	}
	return a, p, nil
}

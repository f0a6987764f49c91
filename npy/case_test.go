package npy

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/seam-rt/seam/fixtures"
)

func TestReadCase(t *testing.T) {
	c, err := ReadCase(os.DirFS(filepath.Join(fixtures.ModelDir("symint_input"), "io", "case0")))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Inputs) != 2 || len(c.Outputs) != 2 || c.Inputs[1].Dim() != 0 {
		t.Errorf("%d inputs, %d outputs", len(c.Inputs), len(c.Outputs))
	}
	_, err = ReadCase(fstest.MapFS{"in_0.npy": {Data: []byte("junk")}})
	if !errors.Is(err, ErrFormat) || err.Error()[:8] != "in_0.npy" {
		t.Errorf("a malformed file: %v", err)
	}
}

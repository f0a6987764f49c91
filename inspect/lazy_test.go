package inspect_test

import (
	"bytes"
	"os"
	"sync/atomic"
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/pt2"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestInspectDoesNotReadWeights: summarising a model reads its JSON, not
// its weights, so inspecting a multi-gigabyte model stays cheap.
func TestInspectDoesNotReadWeights(t *testing.T) {
	data, err := os.ReadFile(fixtures.Model("gpt2_l12"))
	if err != nil {
		t.Fatal(err)
	}
	cr := &countingReader{r: bytes.NewReader(data)}
	a, err := pt2.Read(cr, int64(len(data)), "gpt2_l12.pt2")
	if err != nil {
		t.Fatal(err)
	}
	l, err := a.Lowered()
	if err != nil {
		t.Fatal(err)
	}
	s := inspect.SummarizeLowered(l, inspect.Options{})
	if s.WeightBytes == 0 {
		t.Fatal("no weights")
	}
	if read := cr.n.Load(); read > int64(len(data))-s.WeightBytes {
		t.Errorf("read %d bytes of a %d-byte archive holding %d bytes of weights", read, len(data), s.WeightBytes)
	}
}

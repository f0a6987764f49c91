package runtime

import (
	"encoding/binary"
	"io"
	"math"
	"testing"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/tensor"
)

// blob is a storage held behind a pointer, as the archive reader's are.
type blob struct {
	data  []byte
	reads int
}

func (b *blob) Size() int64 { return int64(len(b.data)) }
func (b *blob) ReadAt(p []byte, off int64) (int, error) {
	b.reads++
	n := copy(p, b.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestTiedWeightsShareStorage: two weights viewing one stored file (tied
// embeddings) are read once and share their bytes.
func TestTiedWeightsShareStorage(t *testing.T) {
	data := make([]byte, 4*6)
	for i := 0; i < 6; i++ {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i)))
	}
	b := &blob{data: data}
	meta := func(sizes, strides []int64, off int64) *ir.TensorMeta {
		m := &ir.TensorMeta{DType: ir.Float32, StorageOffset: ir.IntSym(off)}
		for i := range sizes {
			m.Sizes = append(m.Sizes, ir.IntSym(sizes[i]))
			m.Strides = append(m.Strides, ir.IntSym(strides[i]))
		}
		return m
	}
	whole := &ir.Weight{Path: "weight_0", Meta: meta([]int64{2, 3}, []int64{3, 1}, 0), Data: b}
	row := &ir.Weight{Path: "weight_0", Meta: meta([]int64{3}, []int64{1}, 3), Data: b}
	storages := map[ir.Blob][]byte{}
	x, err := loadWeight(whole, storages)
	if err != nil {
		t.Fatal(err)
	}
	y, err := loadWeight(row, storages)
	if err != nil {
		t.Fatal(err)
	}
	if b.reads != 1 {
		t.Errorf("the storage was read %d times", b.reads)
	}
	if got := tensor.Data[float32](y); got[0] != 3 || y.Numel() != 3 {
		t.Errorf("the second row reads %v", tensor.Data[float32](y)[:3])
	}
	if &x.Storage().Bytes()[0] != &y.Storage().Bytes()[0] {
		t.Error("tied weights do not share their storage")
	}
}

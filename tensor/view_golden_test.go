package tensor

import (
	"encoding/json"
	"os"
	"testing"
)

// view_golden.json records what torch 1.13's view() did for strided inputs
// (testdata/gen_views.py).
func TestViewMatchesTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/view_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Sizes, Strides, View []int
		OK                   bool
		OutSizes             []int `json:"out_sizes"`
		OutStrides           []int `json:"out_strides"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	for i, c := range cases {
		need := 1
		for d, s := range c.Sizes {
			if s == 0 {
				need = 0
				break
			}
			need += (s - 1) * c.Strides[d]
		}
		x, err := FromBytes(Int64, c.Sizes, c.Strides, 0, alignedBytes(8*max(need, 1)))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		v, err := new(Tensor).View(x, c.View)
		if (err == nil) != c.OK {
			t.Errorf("view %v (strides %v) as %v: err %v, torch ok=%v", c.Sizes, c.Strides, c.View, err, c.OK)
			continue
		}
		if err == nil && (!EqualInts(v.Sizes(), c.OutSizes) || !EqualInts(v.Strides(), c.OutStrides)) {
			t.Errorf("view %v (strides %v) as %v: got %v %v, torch %v %v", c.Sizes, c.Strides, c.View, v.Sizes(), v.Strides(), c.OutSizes, c.OutStrides)
		}
	}
}

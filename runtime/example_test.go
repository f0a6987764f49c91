package runtime_test

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/npy"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/value"
)

// A service loads a program once and runs it as often as it likes, from
// as many goroutines as it likes.
func Example() {
	a, err := pt2.Open(fixtures.Model("gpt2_tiny"))
	if err != nil {
		panic(err)
	}
	defer a.Close()
	p, err := a.Program()
	if err != nil {
		panic(err)
	}
	prog, err := runtime.Load(p, runtime.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("inputs:", prog.Inputs())

	dir := filepath.Join(fixtures.ModelDir("gpt2_tiny"), "io", "case1")
	ids, _ := npy.ReadFile(filepath.Join(dir, "in_0.npy"))
	mask, _ := npy.ReadFile(filepath.Join(dir, "in_1.npy"))
	outs, err := prog.Run(context.Background(), []value.Value{value.FromTensor(ids), value.FromTensor(mask)})
	if err != nil {
		panic(err)
	}
	fmt.Println("logits:", outs[0].Tensor().Type())

	// A wrong input is refused before anything runs.
	short, _ := npy.ReadFile(filepath.Join(fixtures.ModelDir("gpt2_tiny"), "io", "case0", "in_1.npy"))
	_, err = prog.Run(context.Background(), []value.Value{value.FromTensor(ids), value.FromTensor(short)})
	fmt.Println(err)
	// Output:
	// inputs: [input_ids attention_mask]
	// logits: f32[1, 5, 1000]
	// input attention_mask: s53: input attention_mask dim 1 is 8 but input input_ids dim 1 is 5
}

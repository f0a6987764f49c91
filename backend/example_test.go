package backend_test

import (
	"context"
	"fmt"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/value"
)

// myNPU is a backend: it compiles a lowered module once and runs it.
type myNPU struct{}

func (myNPU) Compile(module *ir.Program, options map[string]string) (backend.Executable, error) {
	return compiled{inputs: len(module.UserInputs())}, nil
}

type compiled struct{ inputs int }

func (c compiled) Execute(ctx context.Context, inputs []value.Value) ([]value.Value, error) {
	// A real backend hands the tensors (and the scalars its contract
	// accepts) to its device here.
	return nil, fmt.Errorf("not a real device: got %d of %d inputs", len(inputs), c.inputs)
}

// A backend registers its compiler under its profile's name; programs
// lowered for that profile then run on it.
func ExampleRegister() {
	backend.Register("my-npu", myNPU{})
	c, ok := backend.CompilerFor("my-npu")
	fmt.Println(ok, c != nil)
	// Output: true true
}

package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures/multisym"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func i64(t *testing.T, sizes ...int) value.Value {
	x, err := tensor.New(tensor.Int64, sizes...)
	if err != nil {
		t.Fatal(err)
	}
	return value.FromTensor(x)
}

// TestBadInputs: every wrong input is an error naming the input, the dim
// and the symbol, found before any kernel runs.
func TestBadInputs(t *testing.T) {
	gpt2 := loadProgram(t, "gpt2_tiny")
	symint := loadProgram(t, "symint_input")
	f32 := func(sizes ...int) value.Value {
		x, _ := tensor.New(tensor.Float32, sizes...)
		return value.FromTensor(x)
	}
	cases := []struct {
		name   string
		p      *runtime.Program
		inputs []value.Value
		want   []string
	}{
		{"too few inputs", gpt2, []value.Value{i64(t, 1, 5)}, []string{"takes 2 user inputs", "got 1"}},
		{"wrong dtype", gpt2, []value.Value{f32(1, 5), i64(t, 1, 5)}, []string{"input input_ids", "dtype is f32, want i64"}},
		{"wrong rank", gpt2, []value.Value{i64(t, 5), i64(t, 1, 5)}, []string{"input input_ids", "1 dims", "want 2"}},
		{"static dim", gpt2, []value.Value{i64(t, 2, 5), i64(t, 2, 5)}, []string{"input input_ids", "dim 0 is 2, want 1 (i64[1, s53])"}},
		{"outside range", gpt2, []value.Value{i64(t, 1, 500), i64(t, 1, 500)}, []string{"s53 = 500 outside [2, 200]"}},
		{"symbols disagree", gpt2, []value.Value{i64(t, 1, 5), i64(t, 1, 7)},
			[]string{"s53", "input input_ids dim 1", "input attention_mask dim 1"}},
		{"tensor for an int", symint, []value.Value{f32(3, 10), f32(3)}, []string{"input n", "want an int"}},
		{"int outside range", symint, []value.Value{f32(3, 10), value.FromInt(100)}, []string{"s86 = 100 outside [0, 64]"}},
		{"none for a tensor", symint, []value.Value{value.NoneValue(), value.FromInt(3)}, []string{"input x", "want a tensor f32[3, s27]"}},
	}
	for _, c := range cases {
		_, err := c.p.Run(context.Background(), c.inputs)
		var ie *runtime.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: %v, want an InputError", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", c.name, err, w)
			}
		}
	}
}

func TestConcurrentRuns(t *testing.T) {
	p := loadProgram(t, "gpt2_tiny")
	cases := loadCases(t, "gpt2_tiny")
	done := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func(g int) {
			c := cases[g%len(cases)]
			for i := 0; i < 5; i++ {
				outs, err := p.Run(context.Background(), c.Inputs)
				if err != nil {
					done <- err
					return
				}
				got, _ := runtime.OutputTensor(outs[0])
				if _, err := tensor.AllClose(got, c.Outputs[0], 1e-4, 1e-5); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}(g)
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestSizesAsUnits: a program given only f32[s0*s1, 4] (a lowered module
// after a flatten) needs neither s0 nor s1: it runs on any size the
// product's range admits, but two sizes with one expression must agree
// and each must lie in its range.
func TestSizesAsUnits(t *testing.T) {
	b := multisym.New(1)
	s0, s1 := b.Symbol("s0", 1, 8), b.Symbol("s1", 2, 32)
	x := b.Input("x", ir.Float32, sym.Mul(s0, s1), 4)
	y := b.Input("y", ir.Float32, sym.Mul(s1, s0), 4)
	b.Output(b.Add(x, y))
	p, err := runtime.Load(b.Program(), runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f32 := func(sizes ...int) value.Value {
		x, _ := tensor.New(tensor.Float32, sizes...)
		return value.FromTensor(x)
	}
	for _, n := range []int{2, 7, 24, 256} {
		if _, err := p.Run(context.Background(), []value.Value{f32(n, 4), f32(n, 4)}); err != nil {
			t.Errorf("size %d: %v", n, err)
		}
	}
	for _, c := range []struct {
		n, m int
		want string
	}{
		{6, 8, "input y dim 0 is 8 but input x dim 0 is 6"},
		{1, 1, "input x dim 0 is 1, outside the range [2, 256]"},
		{300, 300, "is 300, outside the range [2, 256]"},
	} {
		_, err := p.Run(context.Background(), []value.Value{f32(c.n, 4), f32(c.m, 4)})
		var ie *runtime.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("sizes %d, %d: %v, want an InputError saying %q", c.n, c.m, err, c.want)
		}
	}
}

// TestConstantInputs: a constant input (what torch.export writes for an
// int input it specialised) is passed by the caller in its place among
// the user inputs, as the in_spec lists it, and any other value is
// refused naming the input and both values.
func TestConstantInputs(t *testing.T) {
	b := multisym.New(1)
	s0 := b.Symbol("s0", 1, 8)
	x := b.Input("x", ir.Float32, s0, 4)
	b.Output(b.Relu(x))
	p := b.Program()
	p.Signature.Inputs = append(p.Signature.Inputs, ir.InputSpec{Kind: ir.InputConstant, Name: "n", Arg: ir.IntArg(5)})
	p.Graph.Inputs = append(p.Graph.Inputs, ir.IntArg(5))
	prog, err := runtime.Load(p, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := prog.Inputs(); len(got) != 2 || got[1] != "n" {
		t.Errorf("inputs %v, want x then n", got)
	}
	xv, _ := tensor.New(tensor.Float32, 3, 4)
	bind, err := prog.Bindings([]value.Value{value.FromTensor(xv), value.FromInt(5)})
	if err != nil || len(bind) != 1 || bind["s0"] != 3 {
		t.Errorf("bindings %v, %v; want s0 = 3", bind, err)
	}
	for _, bad := range []value.Value{value.FromInt(4), value.FromDouble(5), value.FromTensor(xv)} {
		_, err := prog.Run(context.Background(), []value.Value{value.FromTensor(xv), bad})
		var ie *runtime.InputError
		if !errors.As(err, &ie) || ie.Input != "n" || !strings.Contains(ie.Msg, "n = 5") {
			t.Errorf("n = %s: %v, want a refusal naming n = 5", bad, err)
		}
	}
}

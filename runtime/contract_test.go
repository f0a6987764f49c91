package runtime

import (
	"errors"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

func meta(dt ir.ScalarType, sizes ...ir.SymInt) *ir.TensorMeta {
	return &ir.TensorMeta{DType: dt, Sizes: sizes}
}

func tensorValue(t *testing.T, dt tensor.DType, sizes ...int) value.Value {
	x, err := tensor.New(dt, sizes...)
	if err != nil {
		t.Fatal(err)
	}
	return value.FromTensor(x)
}

// TestContractChecks: every kind of argument a contract can refuse is
// caught at the delegate call, before the backend runs.
func TestContractChecks(t *testing.T) {
	prof := func(name string) *backend.Profile {
		p, _ := backend.Builtin(name)
		return p
	}
	f32only, err := backend.Parse([]byte(`{"name": "f32-npu", "ops": {"include": ["*"]}, "dtypes": ["f32"]}`))
	if err != nil {
		t.Fatal(err)
	}
	f32box, err := backend.Parse([]byte(`{"name": "f32-box-npu", "ops": {"include": ["*"]}, "dtypes": ["f32"], "placeholders": {"sym_int": "tensor"}}`))
	if err != nil {
		t.Fatal(err)
	}
	s0 := ir.ExprSym("Symbol('s0', positive=True, integer=True)")
	cases := []struct {
		name  string
		prof  *backend.Profile
		param param
		arg   value.Value
		want  string // "" accepts
	}{
		{"sym_int refused", prof("tensor-only"), param{"n", ir.ValueSymInt, nil}, value.FromInt(7), "a sym_int (7) reaches a backend whose contract says sym_int: refuse"},
		{"sym_bool refused", prof("tensor-only"), param{"b", ir.ValueSymBool, nil}, value.FromBool(true), "sym_bool: refuse"},
		{"sym_float refused", prof("tensor-only"), param{"f", ir.ValueSymFloat, nil}, value.FromDouble(0.5), "sym_float: refuse"},
		{"sym_int as a boxed tensor wanted", f32box, param{"n", ir.ValueSymInt, nil}, value.FromInt(7), "sym_int: tensor"},
		{"a box its contract declares", f32box, param{"n_box", ir.ValueTensor, meta(ir.Int64)}, tensorValue(t, tensor.Int64), ""},
		{"sym_int accepted", prof("scalar-args"), param{"n", ir.ValueSymInt, nil}, value.FromInt(7), ""},
		{"sym_int given a double", prof("scalar-args"), param{"n", ir.ValueSymInt, nil}, value.FromDouble(7), "takes a sym_int, given Double"},
		{"sym_float accepted", prof("scalar-args"), param{"f", ir.ValueSymFloat, nil}, value.FromDouble(0.5), ""},
		{"boxed scalar of a refused dtype", f32only, param{"n_box", ir.ValueTensor, meta(ir.Int64)}, tensorValue(t, tensor.Int64), "a i64 tensor, which f32-npu refuses"},
		{"boxed scalar accepted", prof("tensor-only"), param{"n_box", ir.ValueTensor, meta(ir.Int64)}, tensorValue(t, tensor.Int64), ""},
		{"tensor of the wrong dtype", prof("tensor-only"), param{"x", ir.ValueTensor, meta(ir.Float32, ir.IntSym(2))}, tensorValue(t, tensor.Int64, 2), "a i64 tensor where the module takes f32"},
		{"dynamic size to a static backend", prof("static-shapes"), param{"x", ir.ValueTensor, meta(ir.Float32, s0)}, tensorValue(t, tensor.Float32, 3), "dynamic size"},
		{"other size than compiled", prof("static-shapes"), param{"x", ir.ValueTensor, meta(ir.Float32, ir.IntSym(2), ir.IntSym(3))}, tensorValue(t, tensor.Float32, 2, 4), "dim 1 is 4; static-shapes compiled it as 3"},
		{"static tensor accepted", prof("static-shapes"), param{"x", ir.ValueTensor, meta(ir.Float32, ir.IntSym(2), ir.IntSym(3))}, tensorValue(t, tensor.Float32, 2, 3), ""},
		{"an int for a tensor", prof("reference"), param{"x", ir.ValueTensor, meta(ir.Float32)}, value.FromInt(1), "takes a tensor, given Int"},
	}
	for _, c := range cases {
		call := &delegateCall{module: "lowered_module_0", backend: c.prof.Name, profile: c.prof, params: []param{c.param}}
		err := call.check([]value.Value{c.arg})
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var ce *backend.ContractError
		if !errors.As(err, &ce) {
			t.Errorf("%s: %v, want a ContractError", c.name, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || ce.Input != c.param.name || ce.Module != "lowered_module_0" {
			t.Errorf("%s: %q (input %s), want %q", c.name, err, ce.Input, c.want)
		}
	}
}

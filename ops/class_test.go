package ops

import "testing"

// TestClass: every kind of op lands in its class, by the table and, for a
// target the table does not know, by its namespace.
func TestClass(t *testing.T) {
	for target, want := range map[string]Class{
		"aten.add.Tensor":                           Compute,
		"torch.ops.aten.addmm.default":              Compute,
		"aten._local_scalar_dense.default":          Compute,
		"aten.add_.Tensor":                          Compute, // writes its input, returns it
		"aten.view.default":                         View,
		"aten.split_with_sizes.default":             View,
		"aten.sym_size.int":                         Symbolic,
		"aten.sym_numel.default":                    Symbolic,
		"aten.sym_stride.int":                       Symbolic,
		"aten.sym_storage_offset.default":           Symbolic,
		"_operator.floordiv":                        Symbolic,
		"math.ceil":                                 Symbolic,
		"torch.sym_max":                             Symbolic,
		"aten._assert_scalar.default":               Check,
		"aten._assert_async.msg":                    Check,
		"aten._assert_tensor_metadata.default":      Check,
		"aten.sym_constrain_range_for_size.default": Check,
		"higher_order.cond":                         Control,
		// Not in the table: by namespace.
		"_operator.lshift":          Symbolic,
		"torch.ops.aten.sym_foo.x":  Symbolic,
		"aten._assert_foo.default":  Check,
		"aten.no_such_op.default":   Compute,
		"higher_order.no_such_loop": Compute,
	} {
		if got := ClassOf(target); got != want {
			t.Errorf("%s: %s, want %s", target, got, want)
		}
	}
}

// TestExecutorOwned: the executor evaluates symbolic ops, checks on
// scalars and control flow; checks on tensors and compute ops are kernels.
func TestExecutorOwned(t *testing.T) {
	for target, want := range map[string]bool{
		"aten.sym_size.int":                    true,
		"_operator.add":                        true,
		"aten._assert_scalar.default":          true,
		"aten.sym_constrain_range.default":     true,
		"higher_order.cond":                    true,
		"aten._assert_async.msg":               false,
		"aten._assert_tensor_metadata.default": false,
		"aten._local_scalar_dense.default":     false,
		"aten.view.default":                    false,
	} {
		s, ok := Lookup(target)
		if !ok {
			t.Fatalf("no schema for %s", target)
		}
		if got := s.ExecutorOwned(); got != want {
			t.Errorf("%s: executor-owned %v, want %v", target, got, want)
		}
	}
}

// TestScalarResult: ops whose one result is a scalar.
func TestScalarResult(t *testing.T) {
	for target, want := range map[string]bool{
		"aten._local_scalar_dense.default": true,
		"aten.sym_size.int":                true,
		"_operator.truediv":                true,
		"aten.add.Tensor":                  false,
		"aten._assert_scalar.default":      false,
		"aten.var_mean.correction":         false,
		"torch.sym_ite":                    false,
	} {
		s, _ := Lookup(target)
		if got := s.ScalarResult(); got != want {
			t.Errorf("%s: scalar result %v, want %v", target, got, want)
		}
	}
}

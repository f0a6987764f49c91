package kernels

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/seam-rt/seam/ops"
	"github.com/seam-rt/seam/value"
)

// Kernel runs one op: args in schema order (defaults filled), results into
// out (one slot per schema return). See the package documentation.
type Kernel func(ctx *Context, args []value.Value, out []value.Value) error

var registry = map[string]Kernel{}

// register adds kernels for targets (without "torch.ops."). Each is wrapped
// so that errors and recovered panics name the target, and so that a short
// argument or result slice is an error rather than a crash.
func register(k Kernel, targets ...string) {
	for _, target := range targets {
		s, ok := ops.Lookup(target)
		if !ok {
			panic("kernels: no schema for " + target)
		}
		if _, dup := registry[target]; dup {
			panic("kernels: duplicate kernel for " + target)
		}
		registry[target] = wrap(target, s, k)
	}
}

// PanicError is a kernel that panicked (an index out of range, a nil
// tensor): a bug in seam's kernels, which must refuse bad arguments with
// an error, not in the program or its inputs.
type PanicError struct {
	Target string
	Value  any
}

func (e *PanicError) Error() string { return fmt.Sprintf("%s: internal error: %v", e.Target, e.Value) }

func wrap(target string, s *ops.Schema, k Kernel) Kernel {
	nargs, nret := len(s.Args), len(s.Returns)
	return func(ctx *Context, args, out []value.Value) (err error) {
		if len(args) < nargs {
			return fmt.Errorf("%s: %d arguments, the schema has %d", target, len(args), nargs)
		}
		if len(out) < nret {
			return fmt.Errorf("%s: %d result slots, the schema returns %d", target, len(out), nret)
		}
		defer func() {
			if r := recover(); r != nil {
				err = &PanicError{Target: target, Value: r}
			}
		}()
		if err := k(ctx, args, out); err != nil {
			return fmt.Errorf("%s: %w", target, nameArg(err, target, s))
		}
		return nil
	}
}

// nameArg gives an argument error the op and, from the schema, the name
// of the argument at its position.
func nameArg(err error, target string, s *ops.Schema) error {
	var ae *ArgError
	if errors.As(err, &ae) && ae.Op == "" {
		ae.Op = target
		if ae.Arg == "" && ae.Index < len(s.Args) {
			ae.Arg = s.Args[ae.Index].Name
		}
	}
	return err
}

// Lookup finds the kernel for a target ("aten.add.Tensor"; a leading
// "torch.ops." is accepted).
func Lookup(target string) (Kernel, bool) {
	k, ok := registry[strings.TrimPrefix(target, "torch.ops.")]
	return k, ok
}

// Targets lists the targets that have kernels, sorted.
func Targets() []string {
	out := make([]string, 0, len(registry))
	for t := range registry {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// ExecutorOwned reports targets that the executor runs itself rather than
// through a kernel (ops.Schema.ExecutorOwned): symbolic size queries,
// Python scalar functions, runtime asserts on scalars and higher-order ops.
func ExecutorOwned(target string) bool {
	s, ok := ops.Lookup(target)
	return ok && s.ExecutorOwned()
}

// Missing lists, sorted and without duplicates, the targets that neither
// have a kernel nor are executor-owned, so that a runtime can report every
// unsupported op at once before it runs anything.
func Missing(targets []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range targets {
		key := strings.TrimPrefix(t, "torch.ops.")
		if seen[key] {
			continue
		}
		seen[key] = true
		if _, ok := registry[key]; ok || ExecutorOwned(key) {
			continue
		}
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

package backend

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/value"
)

// Executable is a lowered module compiled by a backend, ready to run.
// Execute receives the module's user inputs in signature order (tensors,
// and symbolic scalars as the plain Int, Double or Bool values the
// contract accepts) and returns its user outputs in order. It must be
// safe to call from several goroutines at once.
type Executable interface {
	Execute(ctx context.Context, inputs []value.Value) ([]value.Value, error)
}

// Compiler compiles lowered modules for one backend. The module is the
// lowered module's program as seam wrote it (its signature says exactly
// what each input is); options are the compile options of its delegate
// record.
type Compiler interface {
	Compile(module *ir.Program, options map[string]string) (Executable, error)
}

// Availability is implemented by a compiler whose backend needs something
// installed: Available says why it cannot run here, and how to install it.
type Availability interface {
	Available() error
}

// Preprocessor is implemented by a compiler whose backend compiles a
// module when it is lowered, as ExecuTorch's BackendDetails.preprocess
// does. Lowering stores Preprocess's bytes with the module
// (ir.Delegate.Compiled, data/delegates/NAME.bin in an archive); verify
// asks CheckCompiled whether stored bytes are a form of the module the
// backend can load; the runtime loads them with Load instead of calling
// Compile. A module of such a backend without its compiled form is
// refused: the backend needs it.
type Preprocessor interface {
	// Preprocess compiles a lowered module. It needs nothing installed
	// (lowering runs where the backend may not).
	Preprocess(module *ir.Program, options map[string]string) ([]byte, error)
	// CheckCompiled reports why compiled is not a form of module the
	// backend can load (it does not decode, its inputs or outputs are not
	// the module's), or nil. It needs nothing installed.
	CheckCompiled(module *ir.Program, compiled []byte) error
	// Load makes an executable of the compiled form, after checking it as
	// CheckCompiled does.
	Load(module *ir.Program, compiled []byte, options map[string]string) (Executable, error)
}

// PreprocessorFor finds the registered compiler of a backend that
// compiles at lowering time.
func PreprocessorFor(name string) (Preprocessor, bool) {
	c, ok := CompilerFor(name)
	if !ok {
		return nil, false
	}
	p, ok := c.(Preprocessor)
	return p, ok
}

// Available reports whether the named backend can run here (nil for a
// backend that needs nothing installed, or has no compiler).
func Available(name string) error {
	c, ok := CompilerFor(name)
	if !ok {
		return nil
	}
	if a, ok := c.(Availability); ok {
		return a.Available()
	}
	return nil
}

// CompilerFunc adapts a function to Compiler.
type CompilerFunc func(module *ir.Program, options map[string]string) (Executable, error)

func (f CompilerFunc) Compile(m *ir.Program, o map[string]string) (Executable, error) { return f(m, o) }

var (
	registryMu sync.RWMutex
	compilers  = map[string]Compiler{}
)

// Register makes a backend's compiler known by the backend's name, so
// that programs lowered for it can run. Registering a name twice replaces
// the earlier compiler (a user's own implementation may replace a
// built-in).
func Register(name string, c Compiler) {
	if name == "" || c == nil {
		panic("backend: Register needs a name and a compiler")
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	compilers[name] = c
}

// CompilerFor finds the compiler registered for a backend name.
func CompilerFor(name string) (Compiler, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	c, ok := compilers[name]
	return c, ok
}

// Registered lists the backend names with a compiler, sorted.
func Registered() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(compilers))
	for n := range compilers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ContractError is an argument a backend's contract refuses, caught at a
// delegate call before the backend runs.
type ContractError struct {
	Backend, Module, Input string
	Msg                    string
}

func (e *ContractError) Error() string {
	return fmt.Sprintf("contract of %s violated calling %s: input %s: %s", e.Backend, e.Module, e.Input, e.Msg)
}

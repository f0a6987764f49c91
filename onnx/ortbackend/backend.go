// Package ortbackend is the built-in backend "onnxruntime": lowered
// modules translated to ONNX (package onnx) and run by ONNX Runtime
// (package ort). Its contract is derived from the translation: the ops
// onnx translates, the dtypes ONNX Runtime's CPU kernels take, tensors
// only (a symbolic placeholder is refused, so lowering rederives, hoists
// or boxes it), dynamic shapes allowed.
//
// Compiling a module is translating it, at lowering time: Translate's
// bytes are the module's compiled form, stored with it in the lowered
// program (data/delegates/NAME.bin), and Load makes an executable of
// them at run time.
package ortbackend

import (
	"context"
	"fmt"
	"strconv"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort"
	"github.com/seam-rt/seam/value"
)

// Name is the backend's name.
const Name = "onnxruntime"

// Profile is the backend's contract.
func Profile() *backend.Profile {
	return &backend.Profile{
		Name: Name,
		Description: "ONNX Runtime " + ort.Version + " (CPU) running seam's ONNX translation (opset 18): " +
			"tensors only (symbolic placeholders refused), dynamic shapes allowed",
		Ops:          backend.OpSet{Include: onnx.Ops()},
		Placeholders: backend.Placeholders{SymInt: backend.Refuse, SymBool: backend.Refuse, SymFloat: backend.Refuse},
		// The dtypes ONNX Runtime's CPU kernels take for the translated ops
		// (float16 and bfloat16 kernels are few there).
		DTypes:        backend.DTypeList{ir.Float32, ir.Float64, ir.Int64, ir.Int32, ir.Int16, ir.Int8, ir.Uint8, ir.Bool},
		DynamicShapes: true,
		// ONNX Runtime runs any op seam translates; a lone cond (an If whose
		// branches hold the compute) is a single node too.
		SingleNodePartitions: true,
		OwnsWeights:          true,
		// Some ops translate only with some arguments (no boolean mask
		// index, no training-mode batch norm): those nodes stay with seam.
		NodeCheck: onnx.Supports,
	}
}

func init() {
	if err := backend.AddBuiltin(Profile(), compiler{}); err != nil {
		panic("ortbackend: " + err.Error())
	}
}

// compiler compiles lowered modules for ONNX Runtime: at lowering time
// (backend.Preprocessor), into the module's ONNX model, which the
// lowered program stores; at run time it loads that model.
type compiler struct{}

// Available reports whether ONNX Runtime can be loaded, and if not, how
// to install it.
func (compiler) Available() error {
	_, err := ort.Open()
	return err
}

// Preprocess translates the module into its ONNX model (Translate).
func (compiler) Preprocess(m *ir.Program, _ map[string]string) ([]byte, error) {
	return Translate(m)
}

// CheckCompiled checks that a stored model is one of this module: it
// decodes, and its inputs and outputs are the module's (onnx.CheckIO).
func (compiler) CheckCompiled(m *ir.Program, blob []byte) error {
	return onnx.CheckIO(m, blob)
}

// Load loads a module's stored ONNX model into ONNX Runtime, after
// checking it is the module's. Options: "threads" is the intra-op thread
// count (default 1; 0 lets ONNX Runtime use every core).
func (compiler) Load(m *ir.Program, blob []byte, options map[string]string) (backend.Executable, error) {
	if err := onnx.CheckIO(m, blob); err != nil {
		return nil, fmt.Errorf("its stored ONNX model is not the module's: %w", err)
	}
	lib, err := ort.Open()
	if err != nil {
		return nil, err
	}
	return Load(lib, blob, m, options)
}

// Compile translates the module and loads it, for a caller that has the
// module without its stored model.
func (c compiler) Compile(m *ir.Program, options map[string]string) (backend.Executable, error) {
	blob, err := Translate(m)
	if err != nil {
		return nil, err
	}
	return c.Load(m, blob, options)
}

// Translate is a module's compiled form: its ONNX model. It refuses what
// the contract refuses (symbolic placeholders, buffers the module would
// own) and names every node it cannot translate.
func Translate(m *ir.Program) ([]byte, error) {
	for _, s := range m.Signature.Inputs {
		if s.Kind == ir.InputUser && s.Arg.Name != "" {
			if t := m.Graph.TypeOf(s.Arg.Name); t != ir.ValueTensor {
				return nil, fmt.Errorf("input %s is a %s; %s takes tensors only", s.Arg.Name, t, Name)
			}
		}
	}
	for _, o := range m.Signature.Outputs {
		if o.Kind == ir.OutputBufferMutation {
			return nil, fmt.Errorf("the module mutates buffer %s; %s does not own buffers", o.Target, Name)
		}
	}
	tr, err := onnx.Translate(m)
	if err != nil {
		return nil, err
	}
	return tr.Model.Marshal(), nil
}

// Load makes an executable of a module's compiled form.
func Load(lib *ort.Library, blob []byte, m *ir.Program, options map[string]string) (*Executable, error) {
	threads := 1
	if s, ok := options["threads"]; ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("compile option threads=%q: want a count (0: one per core)", s)
		}
		threads = n
	}
	r, err := NewRunner(lib, blob, m, Options{Threads: threads})
	if err != nil {
		return nil, err
	}
	return &Executable{runner: r}, nil
}

// Executable runs one lowered module in ONNX Runtime.
type Executable struct{ runner *Runner }

// Execute runs the module on its user inputs, after binding and checking
// every symbol of their sizes.
func (e *Executable) Execute(ctx context.Context, inputs []value.Value) ([]value.Value, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.runner.Run(inputs)
}

// Close releases the session.
func (e *Executable) Close() { e.runner.Close() }

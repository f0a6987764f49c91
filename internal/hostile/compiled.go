package hostile

import (
	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/onnx/ortbackend"
	"github.com/seam-rt/seam/pt2"
)

// compiledCases are programs lowered for onnxruntime whose stored ONNX
// model (the module's compiled form) is not one of the module, or is
// missing (an archive of an older seam): verify reports it and run
// refuses it, before ONNX Runtime is even loaded.
func compiledCases() ([]Case, error) {
	prof, _ := backend.Builtin(ortbackend.Name)
	low, done, err := lowerFixture("mlp", prof)
	if err != nil {
		return nil, err
	}
	defer done()
	archive := func(compiled ir.Blob) ([]byte, error) {
		la := pt2.FromLowered(low, nil)
		for _, d := range la.Delegates {
			c := *d
			c.Compiled = compiled
			*d = c
		}
		return writeArchive(la)
	}
	garbage, err := archive(ir.Bytes("\x0a\xff\xff\xff\xff\x0f"))
	if err != nil {
		return nil, err
	}
	missing, err := archive(nil)
	if err != nil {
		return nil, err
	}
	mlpCase := func(dir string) error { return CopyCase(dir, "mlp", "case0") }
	return []Case{
		{Name: "compiled_garbage_verify", Class: "contract", Archive: garbage, Args: []string{"verify", Model},
			Want: []string{"compiled", "lowered_module_0", "ModelProto"}},
		{Name: "compiled_garbage_run", Class: "contract", Make: withArchive(garbage, mlpCase), Args: []string{"run", Model, "--case", "DIR/case"},
			Want: []string{"lowered_module_0", "not the module's", "ModelProto"}},
		{Name: "compiled_missing_verify", Class: "contract", Archive: missing, Args: []string{"verify", Model},
			Want: []string{"compiled", "no compiled form", "lower the program again"}},
		{Name: "compiled_missing_run", Class: "contract", Make: withArchive(missing, mlpCase), Args: []string{"run", Model, "--case", "DIR/case"},
			Want: []string{"no compiled form", "data/delegates/lowered_module_0.bin", "lower the program again"}},
	}, nil
}

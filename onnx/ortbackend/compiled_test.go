package ortbackend_test

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/onnx"
	"github.com/seam-rt/seam/onnx/ort/orttest"
	"github.com/seam-rt/seam/onnx/ortbackend"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/verify"
)

// lowerFor lowers a fixture for onnxruntime.
func lowerFor(t *testing.T, dir string) *ir.Lowered {
	t.Helper()
	prof, _ := backend.Builtin(ortbackend.Name)
	res, err := delegate.Program(loadProgram(t, dir), prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Lowered
}

// writeAndRead writes a lowered program as an archive and reads it back.
func writeAndRead(t *testing.T, l *ir.Lowered) (*ir.Lowered, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lowered.pt2")
	if err := pt2.WriteFile(path, pt2.FromLowered(l, nil)); err != nil {
		t.Fatal(err)
	}
	return readLowered(t, path), path
}

func readLowered(t *testing.T, path string) *ir.Lowered {
	t.Helper()
	a, err := pt2.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	l, err := a.Lowered()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// runArchived writes a lowered program as an archive, reads it back,
// verifies it (each module against its backend's contract) and runs every
// case of the fixture in dir through it, comparing with PyTorch.
func runArchived(t *testing.T, low *ir.Lowered, dir string) {
	t.Helper()
	l, _ := writeAndRead(t, low)
	if vs := verify.Errors(verify.Lowered(l)); len(vs) > 0 {
		t.Fatalf("verify: %v", vs)
	}
	prog, err := runtime.LoadLowered(l, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range loadCases(t, dir) {
		outs, err := prog.Run(context.Background(), c.inputs)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkOutputs(t, c.name, outs, c.outputs)
	}
}

// compiledViolations are verify's errors of the compiled rule.
func compiledViolations(l *ir.Lowered) []verify.Violation {
	var out []verify.Violation
	for _, v := range verify.Errors(verify.Lowered(l)) {
		if v.Rule == verify.Compiled {
			out = append(out, v)
		}
	}
	return out
}

// TestCompiledAtLowering: lowering stores each module's ONNX model with
// it (the translation's bytes), the archive keeps it, and verify accepts
// it.
func TestCompiledAtLowering(t *testing.T) {
	l := lowerFor(t, filepath.Join("..", "..", "fixtures", "models", "gpt2_tiny"))
	if len(l.Modules) == 0 {
		t.Fatal("no module")
	}
	for name, m := range l.Modules {
		blob, err := m.Delegate.ReadCompiled()
		if err != nil || blob == nil {
			t.Fatalf("%s: compiled form %v, %v", name, blob, err)
		}
		want, err := ortbackend.Translate(m.Program)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(blob, want) {
			t.Errorf("%s: the stored form is not the module's translation", name)
		}
	}
	back, _ := writeAndRead(t, l)
	for name, m := range back.Modules {
		blob, err := m.Delegate.ReadCompiled()
		want, _ := l.Modules[name].Delegate.ReadCompiled()
		if err != nil || !bytes.Equal(blob, want) {
			t.Errorf("%s: the archive's compiled form differs (%v)", name, err)
		}
	}
	if vs := verify.Errors(verify.Lowered(back)); len(vs) > 0 {
		t.Errorf("verify: %v", vs)
	}
	for _, m := range inspect.SummarizeLowered(back, inspect.Options{}).Modules {
		blob, _ := back.Modules[m.Name].Delegate.ReadCompiled()
		if m.CompiledBytes != int64(len(blob)) || m.CompiledBytes == 0 {
			t.Errorf("inspect: %s compiled into %d bytes, the archive holds %d", m.Name, m.CompiledBytes, len(blob))
		}
	}
}

// TestRunLoadsTheStoredModel: what runs is the stored model, not a new
// translation. The stored model of mlp's module is changed to negate its
// output (same inputs and outputs, so it still checks): the run returns
// the negated reference.
func TestRunLoadsTheStoredModel(t *testing.T) {
	orttest.Library(t)
	dir := filepath.Join("..", "..", "fixtures", "models", "mlp")
	l := lowerFor(t, dir)
	if len(l.Modules) != 1 {
		t.Fatalf("%d modules, want 1", len(l.Modules))
	}
	for _, m := range l.Modules {
		blob, _ := m.Delegate.ReadCompiled()
		model, err := onnx.Unmarshal(blob)
		if err != nil {
			t.Fatal(err)
		}
		g := model.Graph
		out := g.Outputs[0].Name
		for _, n := range g.Nodes {
			for i, o := range n.Outputs {
				if o == out {
					n.Outputs[i] = out + "_before_neg"
				}
			}
		}
		g.Nodes = append(g.Nodes, &onnx.Node{OpType: "Neg", Name: "neg", Inputs: []string{out + "_before_neg"}, Outputs: []string{out}})
		m.Delegate.Compiled = ir.Bytes(model.Marshal())
	}
	back, _ := writeAndRead(t, l)
	if vs := verify.Errors(verify.Lowered(back)); len(vs) > 0 {
		t.Fatalf("verify: %v", vs)
	}
	prog, err := runtime.LoadLowered(back, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range loadCases(t, dir) {
		outs, err := prog.Run(context.Background(), c.inputs)
		if err != nil {
			t.Fatal(err)
		}
		neg, err := tensor.Clone(c.outputs[0])
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range tensor.Data[float32](neg) {
			tensor.Data[float32](neg)[i] = -x
		}
		checkOutputs(t, c.name, outs, []*tensor.Tensor{neg})
	}
}

// TestCompiledRefused: a module without its compiled form (an archive of
// an older seam), with bytes that are no ONNX model, with another module's
// model, or with bytes the archive's CRC does not match, is a verify
// violation naming the module, and the runtime refuses to load it with
// the same reason: never a crash when it runs.
func TestCompiledRefused(t *testing.T) {
	dir := filepath.Join("..", "..", "fixtures", "models", "gpt2_tiny")
	other := lowerFor(t, filepath.Join("..", "..", "fixtures", "models", "mlp"))
	var otherBlob []byte
	for _, m := range other.Modules {
		otherBlob, _ = m.Delegate.ReadCompiled()
	}
	for _, c := range []struct {
		name   string
		change func(*ir.Delegate)
		want   string
	}{
		{"missing", func(d *ir.Delegate) { d.Compiled = nil }, "no compiled form"},
		{"garbage", func(d *ir.Delegate) { d.Compiled = ir.Bytes("not an onnx model") }, "ModelProto"},
		{"another module's", func(d *ir.Delegate) { d.Compiled = ir.Bytes(otherBlob) }, "the model"},
		{"empty", func(d *ir.Delegate) { d.Compiled = ir.Bytes{} }, "no graph"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := lowerFor(t, dir)
			name := l.ModuleNames()[0]
			c.change(l.Modules[name].Delegate)
			back, _ := writeAndRead(t, l)
			checkRefused(t, back, name, c.want)
		})
	}
	t.Run("crc", func(t *testing.T) {
		l := lowerFor(t, dir)
		name := l.ModuleNames()[0]
		_, path := writeAndRead(t, l)
		corrupt(t, path, "data/delegates/"+name+".bin")
		checkRefused(t, readLowered(t, path), name, "CRC")
	})
}

// checkRefused: verify reports module name's compiled form with want in
// its message, and loading the program fails saying the same.
func checkRefused(t *testing.T, l *ir.Lowered, name, want string) {
	t.Helper()
	vs := compiledViolations(l)
	if len(vs) != 1 || vs[0].Node != name || !strings.Contains(vs[0].Msg, want) {
		t.Errorf("verify: %v; want one compiled violation of %s mentioning %q", vs, name, want)
	}
	if _, err := runtime.LoadLowered(l, runtime.Options{}); err == nil || !strings.Contains(err.Error(), name) ||
		(!strings.Contains(err.Error(), want) && !strings.Contains(err.Error(), "ONNX Runtime")) {
		t.Errorf("loading: %v; want a refusal of %s mentioning %q", err, name, want)
	}
}

// corrupt flips a byte in the middle of a stored record of a zip file.
func corrupt(t *testing.T, path, record string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/"+record) {
			off, err := f.DataOffset()
			if err != nil {
				t.Fatal(err)
			}
			data[off+int64(f.UncompressedSize64)/2] ^= 0x55
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("%s has no record %s", path, record)
}

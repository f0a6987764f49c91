// Package ort runs ONNX models in ONNX Runtime through its C API, loaded
// at run time with purego: no cgo, so seam builds and tests with Go alone
// and the library is needed only by what runs a model.
//
// The library is found by Open: SEAM_ONNXRUNTIME_LIB when set, else the
// system's library paths, else where InstallCommand puts it.
package ort

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// EnvVar names the library file to load.
const EnvVar = "SEAM_ONNXRUNTIME_LIB"

// Version is the ONNX Runtime release seam is tested with.
const Version = "1.30.0"

// installDir is where InstallCommand installs the library, relative to the
// home directory.
const installDir = ".cache/seam/onnxruntime"

// InstallCommand is the one command that installs ONNX Runtime where Open
// finds it: the npm package onnxruntime-node ships the plain shared library
// with the C API (its install script, which fetches GPU files, is skipped).
func InstallCommand() string {
	return "npm install --prefix ~/" + installDir + " --ignore-scripts --no-audit --no-fund onnxruntime-node@" + Version
}

// NotFoundError says that no usable library was found, where seam looked,
// and how to install one.
type NotFoundError struct {
	// Tried lists each place looked at with why it failed.
	Tried []string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("ONNX Runtime library not found (tried %s); install it with\n  %s\nor set %s to its libonnxruntime file",
		strings.Join(e.Tried, "; "), InstallCommand(), EnvVar)
}

// candidates lists the library paths Open tries when EnvVar is unset: the
// names the dynamic loader resolves through the usual paths
// (LD_LIBRARY_PATH, the loader cache, /usr/lib), then the install location.
func candidates() []string {
	names := []string{"libonnxruntime.so.1", "libonnxruntime.so"}
	if runtime.GOOS == "darwin" {
		names = []string{"libonnxruntime.dylib"}
	}
	if home, err := os.UserHomeDir(); err == nil {
		if sub, ok := npmLibDir(); ok {
			names = append(names, filepath.Join(home, installDir, "node_modules", "onnxruntime-node", "bin", "napi-v6", sub, "libonnxruntime.so.1"))
		}
	}
	return names
}

// npmLibDir is the folder of the npm package that holds this platform's library.
func npmLibDir() (string, bool) {
	if runtime.GOOS != "linux" {
		return "", false
	}
	switch runtime.GOARCH {
	case "amd64":
		return "linux/x64", true
	case "arm64":
		return "linux/arm64", true
	}
	return "", false
}

// Library is a loaded ONNX Runtime: its C API and one environment.
type Library struct {
	Path    string
	version string
	api     *api
	env     uintptr
	cpu     uintptr // OrtMemoryInfo for tensors in seam's memory
}

var (
	openOnce sync.Once
	opened   *Library
	openErr  error
)

// Open loads the library once per process: the file EnvVar names when it
// is set (an unusable file is then an error, never a fallback), else the
// first candidate that loads.
func Open() (*Library, error) {
	openOnce.Do(func() { opened, openErr = open() })
	return opened, openErr
}

func open() (*Library, error) { return find(os.Getenv(EnvVar), candidates()) }

// find loads the library named by the environment variable's value, or
// else the first candidate that loads.
func find(env string, candidates []string) (*Library, error) {
	if env != "" {
		l, err := Load(env)
		if err != nil {
			return nil, &UnusableError{Path: env, Err: err}
		}
		return l, nil
	}
	nf := &NotFoundError{}
	for _, c := range candidates {
		l, err := Load(c)
		if err == nil {
			return l, nil
		}
		nf.Tried = append(nf.Tried, c)
	}
	return nil, nf
}

// UnusableError is a library EnvVar names that does not load.
type UnusableError struct {
	Path string
	Err  error
}

func (e *UnusableError) Error() string {
	return fmt.Sprintf("%s=%s cannot be used: %v; install ONNX Runtime with\n  %s\nand point %s at its libonnxruntime file, or unset it",
		EnvVar, e.Path, e.Err, InstallCommand(), EnvVar)
}

func (e *UnusableError) Unwrap() error { return e.Err }

// Load loads the library at path (or a name the dynamic loader resolves).
func Load(path string) (*Library, error) {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, err
	}
	sym, err := purego.Dlsym(h, "OrtGetApiBase")
	if err != nil {
		return nil, fmt.Errorf("%s is not ONNX Runtime (no OrtGetApiBase): %w", path, err)
	}
	var getAPIBase func() unsafe.Pointer
	purego.RegisterFunc(&getAPIBase, sym)
	base := getAPIBase()
	if base == nil {
		return nil, fmt.Errorf("%s: OrtGetApiBase returned nothing", path)
	}
	// struct OrtApiBase { const OrtApi* (*GetApi)(uint32_t); const char* (*GetVersionString)(void); }
	var getAPI func(version uint32) unsafe.Pointer
	var getVersion func() string
	purego.RegisterFunc(&getAPI, *(*uintptr)(base))
	purego.RegisterFunc(&getVersion, *(*uintptr)(unsafe.Add(base, unsafe.Sizeof(uintptr(0)))))
	version := getVersion()
	table := getAPI(apiVersion)
	if table == nil {
		return nil, fmt.Errorf("%s (ONNX Runtime %s) does not serve C API version %d", path, version, apiVersion)
	}
	l := &Library{Path: path, version: version, api: bindAPI(table)}
	const logFatal = 4 // ORT_LOGGING_LEVEL_FATAL: errors come back as values; logging them too would print them twice
	if err := l.api.check(l.api.createEnv(logFatal, "seam", &l.env), "CreateEnv"); err != nil {
		return nil, err
	}
	const deviceAllocator, memTypeDefault = 0, 0
	if err := l.api.check(l.api.createCPUMemoryInfo(deviceAllocator, memTypeDefault, &l.cpu), "CreateCpuMemoryInfo"); err != nil {
		return nil, err
	}
	return l, nil
}

// Version is the library's version string.
func (l *Library) Version() string { return l.version }

// SessionOptions configure a session.
type SessionOptions struct {
	// IntraOpThreads is the thread count inside an op; 0 is ONNX Runtime's
	// default (one per core).
	IntraOpThreads int
	// InterOpThreads is the thread count across ops (parallel execution
	// only); 0 is the default.
	InterOpThreads int
}

// Session is a model ready to run. Run may be called from several
// goroutines at once.
type Session struct {
	lib       *Library
	handle    uintptr
	inputs    []string
	outputs   []string
	inNames   []*byte // C strings, pinned for the session's life
	outNames  []*byte
	pinner    runtime.Pinner
	closeOnce sync.Once
}

// NewSession loads a model (ONNX bytes) whose graph inputs and outputs
// are named inputs and outputs, in the order Run takes and returns them.
func (l *Library) NewSession(model []byte, inputs, outputs []string, opt SessionOptions) (*Session, error) {
	if len(model) == 0 {
		return nil, errors.New("onnxruntime: empty model")
	}
	a := l.api
	var so uintptr
	if err := a.check(a.createSessionOptions(&so), "CreateSessionOptions"); err != nil {
		return nil, err
	}
	defer a.releaseSessionOptions(so)
	const sequential, enableAll = 0, 99
	for _, step := range []struct {
		st   status
		what string
	}{
		{a.setExecutionMode(so, sequential), "SetSessionExecutionMode"},
		{a.setLogSeverityLevel(so, 4), "SetSessionLogSeverityLevel"},
		{a.setGraphOptimization(so, enableAll), "SetSessionGraphOptimizationLevel"},
		{a.setIntraOpNumThreads(so, int32(opt.IntraOpThreads)), "SetIntraOpNumThreads"},
		{a.setInterOpNumThreads(so, int32(opt.InterOpThreads)), "SetInterOpNumThreads"},
	} {
		if err := a.check(step.st, step.what); err != nil {
			return nil, err
		}
	}
	s := &Session{lib: l, inputs: inputs, outputs: outputs}
	err := a.check(a.createSessionFromArray(l.env, unsafe.Pointer(&model[0]), uintptr(len(model)), so, &s.handle), "CreateSessionFromArray")
	runtime.KeepAlive(model)
	if err != nil {
		return nil, err
	}
	var nIn, nOut uintptr
	if err := a.check(a.sessionGetInputCount(s.handle, &nIn), "SessionGetInputCount"); err != nil {
		s.Close()
		return nil, err
	}
	if err := a.check(a.sessionGetOutputCount(s.handle, &nOut), "SessionGetOutputCount"); err != nil {
		s.Close()
		return nil, err
	}
	// The input count leaves out inputs backed by initializers (which
	// callers may still feed, as the state of a mutable buffer).
	if int(nIn) > len(inputs) || int(nOut) != len(outputs) {
		s.Close()
		return nil, fmt.Errorf("onnxruntime: the model has %d inputs without defaults and %d outputs; seam named %d and %d", nIn, nOut, len(inputs), len(outputs))
	}
	s.inNames = s.cStrings(inputs)
	s.outNames = s.cStrings(outputs)
	runtime.SetFinalizer(s, (*Session).Close)
	return s, nil
}

func (s *Session) cStrings(names []string) []*byte {
	ptrs := make([]*byte, len(names))
	for i, n := range names {
		b := append([]byte(n), 0)
		s.pinner.Pin(&b[0])
		ptrs[i] = &b[0]
	}
	if len(ptrs) > 0 {
		s.pinner.Pin(&ptrs[0])
	}
	return ptrs
}

// Close releases the session.
func (s *Session) Close() {
	s.closeOnce.Do(func() {
		if s.handle != 0 {
			s.lib.api.releaseSession(s.handle)
			s.handle = 0
		}
		s.pinner.Unpin()
	})
}

// ElementType is ONNXTensorElementDataType; its numbers are ONNX's
// TensorProto.DataType numbers.
type ElementType int32

// Tensor is a dense row-major tensor in Go memory.
type Tensor struct {
	Type  ElementType
	Shape []int64
	Data  []byte
}

// elemSizes are the element sizes of the types seam passes.
var elemSizes = map[ElementType]int{1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8, 16: 2}

// ElemSize is the size in bytes of one element (0 for types seam does not pass).
func (t ElementType) ElemSize() int { return elemSizes[t] }

// Alloc returns the memory an output of that type and shape is copied
// into (len = element size × element count).
type Alloc func(output int, typ ElementType, shape []int64) ([]byte, error)

// Run runs the model on inputs (in the order NewSession named them; the
// last ones, when backed by initializers, may be left out) and copies each
// output into memory from alloc.
func (s *Session) Run(inputs []Tensor, alloc Alloc) ([]Tensor, error) {
	if len(inputs) > len(s.inputs) {
		return nil, fmt.Errorf("onnxruntime: %d inputs given, the session takes %d", len(inputs), len(s.inputs))
	}
	a := s.lib.api
	var pin runtime.Pinner
	defer pin.Unpin()
	vals := make([]uintptr, len(inputs))
	defer func() {
		for _, v := range vals {
			if v != 0 {
				a.releaseValue(v)
			}
		}
	}()
	var dummy [8]byte
	for i, in := range inputs {
		size := in.Type.ElemSize()
		if size == 0 {
			return nil, fmt.Errorf("onnxruntime: input %s: element type %d is not supported", s.inputs[i], in.Type)
		}
		n := 1
		for _, d := range in.Shape {
			if d < 0 {
				return nil, fmt.Errorf("onnxruntime: input %s: negative dimension %d", s.inputs[i], d)
			}
			n *= int(d)
		}
		if len(in.Data) != n*size {
			return nil, fmt.Errorf("onnxruntime: input %s: %d bytes for shape %v of %d-byte elements", s.inputs[i], len(in.Data), in.Shape, size)
		}
		data := unsafe.Pointer(&dummy[0])
		if len(in.Data) > 0 {
			data = unsafe.Pointer(&in.Data[0])
		}
		pin.Pin(data)
		var shape unsafe.Pointer
		if len(in.Shape) > 0 {
			shape = unsafe.Pointer(&in.Shape[0])
			pin.Pin(shape)
		}
		if err := a.check(a.createTensorWithData(s.lib.cpu, data, uintptr(len(in.Data)), shape, uintptr(len(in.Shape)), int32(in.Type), &vals[i]), "CreateTensorWithDataAsOrtValue "+s.inputs[i]); err != nil {
			return nil, err
		}
	}
	outs := make([]uintptr, len(s.outputs))
	defer func() {
		for _, v := range outs {
			if v != 0 {
				a.releaseValue(v)
			}
		}
	}()
	var inNames, inVals, outNames unsafe.Pointer
	if len(vals) > 0 {
		inNames, inVals = unsafe.Pointer(&s.inNames[0]), unsafe.Pointer(&vals[0])
		pin.Pin(inVals)
	}
	if len(outs) == 0 {
		return nil, nil
	}
	outNames = unsafe.Pointer(&s.outNames[0])
	outVals := unsafe.Pointer(&outs[0])
	pin.Pin(outVals)
	if err := a.check(a.run(s.handle, 0, inNames, inVals, uintptr(len(vals)), outNames, uintptr(len(outs)), outVals), "Run"); err != nil {
		return nil, err
	}
	runtime.KeepAlive(inputs)
	result := make([]Tensor, len(outs))
	for j, v := range outs {
		t, err := s.readOutput(j, v, alloc)
		if err != nil {
			return nil, err
		}
		result[j] = t
	}
	return result, nil
}

func (s *Session) readOutput(j int, v uintptr, alloc Alloc) (Tensor, error) {
	a := s.lib.api
	name := s.outputs[j]
	var info uintptr
	if err := a.check(a.getTensorTypeAndShape(v, &info), "GetTensorTypeAndShape "+name); err != nil {
		return Tensor{}, err
	}
	defer a.releaseTypeAndShape(info)
	var typ int32
	var rank, count uintptr
	if err := a.check(a.getTensorElementType(info, &typ), "GetTensorElementType "+name); err != nil {
		return Tensor{}, err
	}
	if err := a.check(a.getDimensionsCount(info, &rank), "GetDimensionsCount "+name); err != nil {
		return Tensor{}, err
	}
	shape := make([]int64, rank)
	if rank > 0 {
		if err := a.check(a.getDimensions(info, unsafe.Pointer(&shape[0]), rank), "GetDimensions "+name); err != nil {
			return Tensor{}, err
		}
	}
	if err := a.check(a.getTensorShapeElementCnt(info, &count), "GetTensorShapeElementCount "+name); err != nil {
		return Tensor{}, err
	}
	et := ElementType(typ)
	size := et.ElemSize()
	if size == 0 {
		return Tensor{}, fmt.Errorf("onnxruntime: output %s has element type %d, which seam does not read", name, typ)
	}
	data, err := alloc(j, et, shape)
	if err != nil {
		return Tensor{}, fmt.Errorf("output %s: %w", name, err)
	}
	if len(data) != int(count)*size {
		return Tensor{}, fmt.Errorf("onnxruntime: output %s: %d bytes given for %d elements", name, len(data), count)
	}
	if count > 0 {
		var p unsafe.Pointer
		if err := a.check(a.getTensorMutableData(v, &p), "GetTensorMutableData "+name); err != nil {
			return Tensor{}, err
		}
		copy(data, unsafe.Slice((*byte)(p), len(data)))
	}
	return Tensor{Type: et, Shape: shape, Data: data}, nil
}

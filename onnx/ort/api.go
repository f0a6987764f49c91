package ort

import (
	"unsafe"

	"github.com/ebitengine/purego"
)

// apiVersion is the C API version seam asks for. Newer libraries serve
// older versions, so asking for an old one keeps old libraries usable;
// every function below exists since ONNX Runtime 1.14 (API 14).
const apiVersion = 14

// Indices of the functions seam calls in the OrtApi struct
// (onnxruntime_c_api.h). The struct only ever grows at its end, so an
// index, once published, never changes.
const (
	idxGetErrorMessage                = 2
	idxCreateEnv                      = 3
	idxCreateSessionFromArray         = 8
	idxRun                            = 9
	idxCreateSessionOptions           = 10
	idxSetSessionExecutionMode        = 13
	idxSetSessionLogSeverityLevel     = 22
	idxSetSessionGraphOptimization    = 23
	idxSetIntraOpNumThreads           = 24
	idxSetInterOpNumThreads           = 25
	idxSessionGetInputCount           = 30
	idxSessionGetOutputCount          = 31
	idxCreateTensorWithDataAsOrtValue = 49
	idxGetTensorMutableData           = 51
	idxGetTensorElementType           = 60
	idxGetDimensionsCount             = 61
	idxGetDimensions                  = 62
	idxGetTensorShapeElementCount     = 64
	idxGetTensorTypeAndShape          = 65
	idxCreateCpuMemoryInfo            = 69
	idxReleaseEnv                     = 92
	idxReleaseStatus                  = 93
	idxReleaseMemoryInfo              = 94
	idxReleaseSession                 = 95
	idxReleaseValue                   = 96
	idxReleaseTensorTypeAndShapeInfo  = 99
	idxReleaseSessionOptions          = 100
)

// status is an OrtStatus*: 0 on success.
type status = uintptr

// api holds the C functions seam uses, bound once per library.
type api struct {
	getErrorMessage func(st status) string
	releaseStatus   func(st status)

	createEnv  func(level int32, logid string, out *uintptr) status
	releaseEnv func(env uintptr)

	createSessionOptions     func(out *uintptr) status
	releaseSessionOptions    func(opts uintptr)
	setExecutionMode         func(opts uintptr, mode int32) status
	setLogSeverityLevel      func(opts uintptr, level int32) status
	setGraphOptimization     func(opts uintptr, level int32) status
	setIntraOpNumThreads     func(opts uintptr, n int32) status
	setInterOpNumThreads     func(opts uintptr, n int32) status
	createSessionFromArray   func(env uintptr, data unsafe.Pointer, n uintptr, opts uintptr, out *uintptr) status
	releaseSession           func(s uintptr)
	sessionGetInputCount     func(s uintptr, out *uintptr) status
	sessionGetOutputCount    func(s uintptr, out *uintptr) status
	run                      func(s uintptr, runOpts uintptr, inNames unsafe.Pointer, ins unsafe.Pointer, nIn uintptr, outNames unsafe.Pointer, nOut uintptr, outs unsafe.Pointer) status
	createCPUMemoryInfo      func(allocType int32, memType int32, out *uintptr) status
	releaseMemoryInfo        func(info uintptr)
	createTensorWithData     func(info uintptr, data unsafe.Pointer, n uintptr, shape unsafe.Pointer, rank uintptr, typ int32, out *uintptr) status
	releaseValue             func(v uintptr)
	getTensorMutableData     func(v uintptr, out *unsafe.Pointer) status
	getTensorTypeAndShape    func(v uintptr, out *uintptr) status
	releaseTypeAndShape      func(info uintptr)
	getTensorElementType     func(info uintptr, out *int32) status
	getDimensionsCount       func(info uintptr, out *uintptr) status
	getDimensions            func(info uintptr, dims unsafe.Pointer, n uintptr) status
	getTensorShapeElementCnt func(info uintptr, out *uintptr) status
}

// bindAPI reads the function table the library returned for apiVersion.
func bindAPI(table unsafe.Pointer) *api {
	fn := func(ptr any, idx int) {
		purego.RegisterFunc(ptr, *(*uintptr)(unsafe.Add(table, idx*int(unsafe.Sizeof(uintptr(0))))))
	}
	a := &api{}
	fn(&a.getErrorMessage, idxGetErrorMessage)
	fn(&a.releaseStatus, idxReleaseStatus)
	fn(&a.createEnv, idxCreateEnv)
	fn(&a.releaseEnv, idxReleaseEnv)
	fn(&a.createSessionOptions, idxCreateSessionOptions)
	fn(&a.releaseSessionOptions, idxReleaseSessionOptions)
	fn(&a.setExecutionMode, idxSetSessionExecutionMode)
	fn(&a.setLogSeverityLevel, idxSetSessionLogSeverityLevel)
	fn(&a.setGraphOptimization, idxSetSessionGraphOptimization)
	fn(&a.setIntraOpNumThreads, idxSetIntraOpNumThreads)
	fn(&a.setInterOpNumThreads, idxSetInterOpNumThreads)
	fn(&a.createSessionFromArray, idxCreateSessionFromArray)
	fn(&a.releaseSession, idxReleaseSession)
	fn(&a.sessionGetInputCount, idxSessionGetInputCount)
	fn(&a.sessionGetOutputCount, idxSessionGetOutputCount)
	fn(&a.run, idxRun)
	fn(&a.createCPUMemoryInfo, idxCreateCpuMemoryInfo)
	fn(&a.releaseMemoryInfo, idxReleaseMemoryInfo)
	fn(&a.createTensorWithData, idxCreateTensorWithDataAsOrtValue)
	fn(&a.releaseValue, idxReleaseValue)
	fn(&a.getTensorMutableData, idxGetTensorMutableData)
	fn(&a.getTensorTypeAndShape, idxGetTensorTypeAndShape)
	fn(&a.releaseTypeAndShape, idxReleaseTensorTypeAndShapeInfo)
	fn(&a.getTensorElementType, idxGetTensorElementType)
	fn(&a.getDimensionsCount, idxGetDimensionsCount)
	fn(&a.getDimensions, idxGetDimensions)
	fn(&a.getTensorShapeElementCnt, idxGetTensorShapeElementCount)
	return a
}

// check turns a status into an error and releases it.
func (a *api) check(st status, what string) error {
	if st == 0 {
		return nil
	}
	msg := a.getErrorMessage(st)
	a.releaseStatus(st)
	return &Error{Op: what, Msg: msg}
}

// Error is a failure ONNX Runtime reported.
type Error struct {
	Op, Msg string
}

func (e *Error) Error() string { return "onnxruntime: " + e.Op + ": " + e.Msg }

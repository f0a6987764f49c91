package pt2

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/seam-rt/seam/ir"
)

// MainModel is the name torch.export.save gives the program it saves.
const MainModel = "model"

// Archive is the content of one .pt2 file.
type Archive struct {
	// Programs by model name ("model" for torch.export.save).
	Programs map[string]*ir.Program
	// Delegates holds, per lowered module name, the backend that runs it.
	Delegates map[string]*Delegate
	// Extra holds the extra/<name> files (extra_files of torch.export.save).
	Extra map[string][]byte
	// SampleInputs holds data/sample_inputs/<model>.pt per model: a
	// torch.save pickle seam keeps but does not interpret.
	SampleInputs map[string]ir.Blob
	// Other holds records seam does not interpret (AOTInductor folders and
	// the like), by path below the root, so that writing keeps them.
	Other map[string]ir.Blob

	closer func() error
	// check reads every record of a read archive, CRC checked.
	check func() error
}

// Delegate is a lowered module's record: which backend compiles it and the
// options it is compiled with.
type Delegate struct {
	Backend        string            `json:"backend"`
	CompileOptions map[string]string `json:"compile_options"`
	// Profile is the backend's declared contract as lowering used it, so
	// the runtime can check every call against it even for a backend
	// described in the user's own profile file.
	Profile json.RawMessage `json:"profile,omitempty"`
}

// Program returns the main program ("model"), or the only one.
func (a *Archive) Program() (*ir.Program, error) {
	if p, ok := a.Programs[MainModel]; ok {
		return p, nil
	}
	if len(a.Programs) == 1 {
		for _, p := range a.Programs {
			return p, nil
		}
	}
	return nil, fmt.Errorf("no program named %q among %v", MainModel, a.ModelNames())
}

// ModelNames lists the programs, "model" first and the rest sorted.
func (a *Archive) ModelNames() []string {
	names := ir.SortedKeys(a.Programs)
	if i := slices.Index(names, MainModel); i > 0 {
		names = append(append([]string{MainModel}, names[:i]...), names[i+1:]...)
	}
	return names
}

// Close releases the file behind a lazily read archive. Weights cannot be
// read after Close.
func (a *Archive) Close() error {
	if a.closer == nil {
		return nil
	}
	err := a.closer()
	a.closer = nil
	return err
}

// CheckBytes reads every byte of every record of the archive and checks
// it against the record's CRC-32 (a read archive checks each record when
// first read anyway; this checks those nothing reads). An archive built
// in memory has nothing to check.
func (a *Archive) CheckBytes() error {
	if a.check == nil {
		return nil
	}
	return a.check()
}

// NewArchive wraps programs for writing.
func NewArchive(programs map[string]*ir.Program) *Archive {
	return &Archive{Programs: programs}
}

// Error is a problem with an archive: the file, the record in it (if any)
// and what is wrong.
type Error struct {
	File   string
	Record string
	Err    error
}

func (e *Error) Error() string {
	s := e.File
	if s == "" {
		s = "archive"
	}
	if e.Record != "" {
		s += ": " + e.Record
	}
	return s + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

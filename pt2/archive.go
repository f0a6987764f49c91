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
	// Delegates holds, per lowered module name, its delegate record
	// (data/delegates/<module>.json, and <module>.bin for what the backend
	// compiled).
	Delegates map[string]*ir.Delegate
	// Specializations lists data/specializations.json's entries: the
	// programs that run instead of the main one at bindings of its
	// symbols (ir.Specialization); nil when there is no such record.
	Specializations []Specialization
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

// delegateRecord is a delegate record in its file form.
type delegateRecord struct {
	Backend        string            `json:"backend"`
	CompileOptions map[string]string `json:"compile_options"`
	// Profile is the backend's declared contract as lowering used it.
	Profile json.RawMessage `json:"profile,omitempty"`
}

// Lowered is the archive's content as a lowered program: the main program
// (Program), the programs data/specializations.json names as its
// specializations, and every other program as a module with its delegate
// record (nil where the archive has none). A program nothing was delegated
// from is a Lowered without modules.
func (a *Archive) Lowered() (*ir.Lowered, error) {
	main, err := a.Program()
	if err != nil {
		return nil, err
	}
	specs, taken, err := a.specializations(main)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SpecializationsRecord, err)
	}
	l := &ir.Lowered{Main: main, Modules: map[string]*ir.LoweredModule{}, Specializations: specs}
	for name, p := range a.Programs {
		if p != main && !taken[name] {
			l.Modules[name] = &ir.LoweredModule{Program: p, Delegate: a.Delegates[name]}
		}
	}
	return l, nil
}

// FromLowered is the archive of a lowered program: the main program as
// "model", each module as a program of its own with its delegate record,
// each specialization's main program as specialization_N, listed with its
// binding in data/specializations.json.
// from, when not nil, is the archive the program was lowered from: the
// sample inputs of its main program carry over, since the lowered program
// takes the same inputs.
func FromLowered(l *ir.Lowered, from *Archive) *Archive {
	a := &Archive{Programs: map[string]*ir.Program{MainModel: l.Main}, Delegates: map[string]*ir.Delegate{}}
	for name, m := range l.Modules {
		a.Programs[name] = m.Program
		if m.Delegate != nil {
			a.Delegates[name] = m.Delegate
		}
	}
	for i, s := range l.Specializations {
		name := specializationName(i, l.Modules)
		a.Programs[name] = s.Main
		a.Specializations = append(a.Specializations, Specialization{Bind: s.Bind, Program: name})
	}
	if from != nil {
		if s := from.SampleInputs[from.mainName()]; s != nil {
			a.SampleInputs = map[string]ir.Blob{MainModel: s}
		}
	}
	return a
}

// Program returns the main program ("model"), or the only one.
func (a *Archive) Program() (*ir.Program, error) {
	if p, ok := a.Programs[a.mainName()]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("no program named %q among %v", MainModel, a.ModelNames())
}

// mainName names the main program: "model", or the only program when
// none is named so.
func (a *Archive) mainName() string {
	if _, ok := a.Programs[MainModel]; ok || len(a.Programs) != 1 {
		return MainModel
	}
	for name := range a.Programs {
		return name
	}
	return ""
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

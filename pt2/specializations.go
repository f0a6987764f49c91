package pt2

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/seam-rt/seam/ir"
)

// SpecializationsRecord is where a lowered program lists its
// specializations (ir.Specialization): each binding and the program, among
// models/, that runs at it.
const SpecializationsRecord = "data/specializations.json"

// Specialization is one entry of data/specializations.json.
type Specialization struct {
	Bind map[string]int64 `json:"bind"`
	// Program names the specialization's main program (models/<name>.json).
	Program string `json:"program"`
}

// specializationsFile is data/specializations.json.
type specializationsFile struct {
	Specializations []Specialization `json:"specializations"`
}

// decodeSpecializations reads data/specializations.json: every entry has
// a program name and a non-empty binding of named symbols.
func decodeSpecializations(data []byte) ([]Specialization, error) {
	var f specializationsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("malformed specializations record: %v", err)
	}
	if f.Specializations == nil {
		return nil, fmt.Errorf("malformed specializations record: no \"specializations\" list")
	}
	for i, s := range f.Specializations {
		if s.Program == "" {
			return nil, fmt.Errorf("specialization %d names no program", i)
		}
		if len(s.Bind) == 0 {
			return nil, fmt.Errorf("specialization %d (%s) binds no symbol", i, s.Program)
		}
		for name := range s.Bind {
			if name == "" {
				return nil, fmt.Errorf("specialization %d (%s) binds a symbol without a name", i, s.Program)
			}
		}
	}
	return f.Specializations, nil
}

// specializations resolves the archive's specialization entries to their
// programs: each must name a program of the archive other than the main
// one, and no program twice.
func (a *Archive) specializations(main *ir.Program) ([]*ir.Specialization, map[string]bool, error) {
	taken := map[string]bool{}
	var out []*ir.Specialization
	for i, s := range a.Specializations {
		p, ok := a.Programs[s.Program]
		switch {
		case !ok:
			return nil, nil, fmt.Errorf("specialization %d names program %s, which the archive does not have (models/%s.json)", i, s.Program, s.Program)
		case p == main:
			return nil, nil, fmt.Errorf("specialization %d names the main program %s", i, s.Program)
		case taken[s.Program]:
			return nil, nil, fmt.Errorf("specialization %d names program %s, which another specialization names too", i, s.Program)
		case a.Delegates[s.Program] != nil:
			return nil, nil, fmt.Errorf("specialization %d names program %s, which has a delegate record: a lowered module, not a main program", i, s.Program)
		}
		taken[s.Program] = true
		out = append(out, &ir.Specialization{Bind: s.Bind, Main: p})
	}
	return out, taken, nil
}

// specializationName is the program name specialization i is written
// under: specialization_i, or the first free specialization_i_N where a
// module has that name.
func specializationName(i int, modules map[string]*ir.LoweredModule) string {
	name := "specialization_" + strconv.Itoa(i)
	for n := 1; modules[name] != nil || name == MainModel; n++ {
		name = fmt.Sprintf("specialization_%d_%d", i, n)
	}
	return name
}

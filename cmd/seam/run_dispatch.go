package main

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/runtime"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/value"
)

// dispatchRecord says what a run of a program with specializations ran:
// Path "specialization" (the one whose binding Bind is) or "general" (no
// specialization binds the symbols to Bind's values).
type dispatchRecord struct {
	Path string       `json:"path"`
	Bind sym.Bindings `json:"bind"`
	// Among lists the specializations' bindings, for a general run.
	Among []sym.Bindings `json:"among,omitempty"`
}

func (d *dispatchRecord) String() string {
	if d.Path == "specialization" {
		return "the specialization at " + d.Bind.String()
	}
	among := make([]string, len(d.Among))
	for i, b := range d.Among {
		among[i] = b.String()
	}
	return fmt.Sprintf("the general path, no specialization being at %s (they are at %s)", d.Bind, strings.Join(among, "; "))
}

// dispatchOf is what prog runs for inputs, nil for a program without
// specializations or inputs it refuses (the run says why).
func dispatchOf(prog *runtime.Program, inputs []value.Value) *dispatchRecord {
	specs := prog.Specializations()
	if len(specs) == 0 {
		return nil
	}
	bind, err := prog.Bindings(inputs)
	if err != nil {
		return nil
	}
	d := &dispatchRecord{Path: "specialization", Bind: sym.Bindings{}}
	for name := range specs[0] {
		if v, ok := bind[name]; ok {
			d.Bind[name] = v
		}
	}
	if prog.Dispatch(bind) < 0 {
		d.Path, d.Among = "general", specs
	}
	return d
}

package runtime

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/value"
)

// dispatch is a lowered program's specializations (ir.Specialization):
// the symbols they bind, and each binding's program.
type dispatch struct {
	symbols []string
	specs   []*specialization
	byKey   map[string]*specialization
}

type specialization struct {
	index int
	bind  sym.Bindings
	prog  *Program
}

// loadSpecializations compiles each specialization's main program with
// the lowered program's modules. They share the main program's buffer
// state: whichever runs, the next run sees what it left.
func (p *Program) loadSpecializations(l *ir.Lowered, opt Options, table []pass, compiled map[string]*delegateCall) error {
	if len(l.Specializations) == 0 {
		return nil
	}
	d := &dispatch{byKey: map[string]*specialization{}}
	for i, s := range l.Specializations {
		if s == nil || s.Main == nil {
			return fmt.Errorf("specialization %d has no program", i)
		}
		names := ir.SortedKeys(s.Bind)
		if i == 0 {
			d.symbols = names
		}
		where := "specialization " + sym.Bindings(s.Bind).String()
		if len(names) == 0 || !slices.Equal(names, d.symbols) {
			return fmt.Errorf("%s: every specialization must bind the same symbols, and the first binds %v", where, d.symbols)
		}
		key := d.key(s.Bind)
		if _, ok := d.byKey[key]; ok {
			return fmt.Errorf("%s: two specializations bind these values", where)
		}
		sp, err := loadLowered(&ir.Lowered{Main: s.Main, Modules: l.Modules}, opt, table, compiled)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		for target := range sp.state {
			if _, ok := p.state[target]; !ok {
				return fmt.Errorf("%s mutates buffer %s, which the program does not", where, target)
			}
		}
		if len(sp.state) != len(p.state) {
			return fmt.Errorf("%s mutates %d buffers, the program %d", where, len(sp.state), len(p.state))
		}
		sp.state = p.state
		spec := &specialization{index: i, bind: sym.Bindings(s.Bind), prog: sp}
		d.specs = append(d.specs, spec)
		d.byKey[key] = spec
	}
	p.dispatch = d
	return nil
}

// key is the values b gives the dispatch's symbols, in their order.
func (d *dispatch) key(b map[string]int64) string {
	var sb strings.Builder
	for _, name := range d.symbols {
		v, ok := b[name]
		if !ok {
			return ""
		}
		sb.WriteString(strconv.FormatInt(v, 10))
		sb.WriteByte(',')
	}
	return sb.String()
}

// find is the specialization for a run's bindings, nil for the general
// path.
func (d *dispatch) find(b sym.Bindings) *specialization {
	if d == nil {
		return nil
	}
	return d.byKey[d.key(b)]
}

// runSpecialization runs s on inputs the main program accepted, under the
// main program's lock on the state they share.
func (p *Program) runSpecialization(ctx context.Context, s *specialization, inputs []value.Value, timed bool) ([]value.Value, []DelegateTime, error) {
	bind, err := s.prog.checkInputs(inputs)
	if err != nil {
		return nil, nil, fmt.Errorf("specialization %s refuses inputs the program takes (the lowered program is inconsistent): %w", s.bind, err)
	}
	if p.mutates {
		p.mu.Lock()
		defer p.mu.Unlock()
	}
	return s.prog.exec(ctx, inputs, bind, timed)
}

// Specializations lists the bindings the program dispatches on, in the
// lowered program's order; nil for a program without specializations.
func (p *Program) Specializations() []sym.Bindings {
	if p.dispatch == nil {
		return nil
	}
	out := make([]sym.Bindings, len(p.dispatch.specs))
	for i, s := range p.dispatch.specs {
		out[i] = s.bind
	}
	return out
}

// Dispatch says what a run whose inputs bind b runs: the index of the
// specialization whose binding b matches (Specializations), or -1 for the
// general path, the main program.
func (p *Program) Dispatch(b sym.Bindings) int {
	if s := p.dispatch.find(b); s != nil {
		return s.index
	}
	return -1
}

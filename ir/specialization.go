package ir

// Specialization is a lowered program's main program at one binding of
// some of its symbols (package specialize), partitioned and lowered on its
// own: with every size constant, a static-shape backend takes what the
// general program's symbolic sizes kept from it. Its delegate calls name
// modules of the Lowered it belongs to; modules of identical content are
// stored once and shared.
//
// Dispatch is exact: a run whose inputs bind every symbol of Bind to its
// value runs Main here; a run that matches no specialization runs the
// Lowered's Main. Every specialization of a Lowered binds the same
// symbols, each to values in its range, and no two the same values.
type Specialization struct {
	Bind map[string]int64
	Main *Program
}

// Mains lists the programs a run may take: Main, then each
// specialization's, in order.
func (l *Lowered) Mains() []*Program {
	out := make([]*Program, 0, 1+len(l.Specializations))
	if l.Main != nil {
		out = append(out, l.Main)
	}
	for _, s := range l.Specializations {
		if s != nil && s.Main != nil {
			out = append(out, s.Main)
		}
	}
	return out
}

package specialize_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/fixtures/multisym"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/specialize"
	"github.com/seam-rt/seam/sym"
	"github.com/seam-rt/seam/verify"
)

// TestSpecializeThenRun: for random admissible bindings of the
// multi-symbol programs (the three built ones and random ones, all of
// their symbols or only some), the specialization verifies and computes
// exactly what the general program computes on inputs of those sizes.
func TestSpecializeThenRun(t *testing.T) {
	models := multisym.Models()
	for seed := uint64(0); seed < 8; seed++ {
		models = append(models, multisym.Random(seed))
	}
	rapid.Check(t, func(rt *rapid.T) {
		m := rapid.SampledFrom(models).Draw(rt, "program")
		p := m.Program
		full, bind := sym.Bindings{}, sym.Bindings{}
		for _, name := range ir.SortedKeys(p.RangeConstraints) {
			rc := p.RangeConstraints[name]
			full[name] = rapid.Int64Range(*rc.Min, *rc.Max).Draw(rt, name)
			if rapid.IntRange(0, 3).Draw(rt, "bind "+name) > 0 {
				bind[name] = full[name]
			}
		}
		res, err := specialize.Program(p, bind)
		if err != nil {
			rt.Fatalf("%s at %v: %v", m.Name, bind, err)
		}
		if vs := verify.Errors(verify.Program(res.Program, verify.Options{})); len(vs) > 0 {
			rt.Fatalf("%s at %v: %v", m.Name, bind, vs)
		}
		if len(bind) == len(full) {
			checkStatic(rt, m.Name, res.Program)
		}
		in := toValues(m.Inputs(full, 7))
		sameOutputs(rt, m.Name, run(rt, p, in), run(rt, res.Program, in))
	})
}

// FuzzSpecialize: no binding, however wrong (unknown names, values far
// outside any range, overflowing products), makes specialization panic;
// it either refuses with a *specialize.Error or gives a program that
// verifies.
func FuzzSpecialize(f *testing.F) {
	var programs []*ir.Program
	for _, name := range fixtures.Models() {
		programs = append(programs, readProgram(f, fixtures.ModelDir(name)))
	}
	for _, name := range fixtures.Extras() {
		programs = append(programs, readProgram(f, fixtures.ExtraDir(name)))
	}
	f.Add(uint8(0), "s53", int64(4), "", int64(0))
	f.Add(uint8(3), "s77", int64(6), "s77", int64(7))
	f.Add(uint8(9), "s27", int64(8), "s86", int64(0))
	f.Add(uint8(10), "s0", int64(math.MaxInt64), "s1", int64(math.MinInt64))
	f.Add(uint8(11), "s0", int64(-1), "s1", int64(1<<40))
	f.Add(uint8(12), "s0", int64(64), "u0", int64(3))
	f.Add(uint8(14), "s9", int64(1), "", int64(0))
	f.Fuzz(func(t *testing.T, which uint8, n1 string, v1 int64, n2 string, v2 int64) {
		p := programs[int(which)%len(programs)]
		bind := sym.Bindings{}
		for _, kv := range []struct {
			n string
			v int64
		}{{n1, v1}, {n2, v2}} {
			if kv.n != "" {
				bind[kv.n] = kv.v
			}
		}
		res, err := specialize.Program(p, bind)
		if err != nil {
			var se *specialize.Error
			if !errors.As(err, &se) {
				t.Fatalf("binding %v: an error that is not a *specialize.Error: %v", bind, err)
			}
			return
		}
		if vs := verify.Errors(verify.Program(res.Program, verify.Options{})); len(vs) > 0 {
			t.Fatalf("binding %v: %v", bind, vs)
		}
		for name := range bind {
			if slices.Contains(res.Free, name) || res.Program.RangeConstraints[name] != (ir.RangeConstraint{}) {
				t.Fatalf("binding %v: %s is still free", bind, name)
			}
		}
	})
}

// TestAnyBinding runs the fuzz target's check over many random bindings
// of every fixture, drawn near and far from the symbols' ranges.
func TestAnyBinding(t *testing.T) {
	type prog struct {
		name    string
		p       *ir.Program
		symbols []string
	}
	var programs []prog
	for _, f := range allFixtures(t) {
		p := readProgram(t, f.dir)
		programs = append(programs, prog{f.name, p, ir.SortedKeys(p.RangeConstraints)})
	}
	rapid.Check(t, func(rt *rapid.T) {
		pr := rapid.SampledFrom(programs).Draw(rt, "program")
		names := append(slices.Clone(pr.symbols), "s9", "u0", "")
		bind := sym.Bindings{}
		for i := rapid.IntRange(0, 3).Draw(rt, "count"); i > 0; i-- {
			name := rapid.SampledFrom(names).Draw(rt, "name")
			v := rapid.OneOf(rapid.Int64Range(-3, 300), rapid.Int64()).Draw(rt, "value")
			bind[name] = v
		}
		res, err := specialize.Program(pr.p, bind)
		if err != nil {
			var se *specialize.Error
			if !errors.As(err, &se) {
				rt.Fatalf("%s at %v: %v", pr.name, bind, err)
			}
			return
		}
		if vs := verify.Errors(verify.Program(res.Program, verify.Options{})); len(vs) > 0 {
			rt.Fatalf("%s at %v: %v", pr.name, bind, vs)
		}
	})
}

// FuzzSpecializeProgram: no program the archive reader would accept (its
// JSON decodes and its structure checks) makes specialization panic, at
// every symbol's lowest value or at an arbitrary one; and a program that
// verifies specializes to one that verifies.
func FuzzSpecializeProgram(f *testing.F) {
	// Small programs without their nodes' metadata (stack traces): the
	// fuzzer slows to a crawl on inputs of tens of kilobytes.
	seed := func(p *ir.Program) []byte {
		p = p.Clone()
		_ = p.Graph.Walk(func(_ string, g *ir.Graph) error {
			for _, n := range g.Nodes {
				n.Metadata = nil
			}
			return nil
		})
		return programJSON(f, p)
	}
	for _, name := range []string{"cond", "symint_input", "sym_float", "buffer_mutation"} {
		f.Add(seed(readProgram(f, fixtures.ModelDir(name))), int64(-1))
	}
	f.Add(seed(withAssert(f)), int64(9))
	f.Add(seed(readProgram(f, fixtures.ExtraDir("convpool2d"))), int64(5))
	f.Fuzz(func(t *testing.T, data []byte, v int64) {
		p, err := ir.DecodeProgram(data)
		if err != nil || p.CheckStructure() != nil {
			return
		}
		bind := sym.Bindings{}
		for name, rc := range p.RangeConstraints {
			bind[name] = v
			if v < 0 && rc.Min != nil {
				bind[name] = *rc.Min
			}
		}
		clean := len(verify.Errors(verify.Program(p, verify.Options{}))) == 0
		res, err := specialize.Program(p, bind)
		if err != nil || !clean {
			return
		}
		if vs := verify.Errors(verify.Program(res.Program, verify.Options{})); len(vs) > 0 {
			t.Fatalf("binding %v of a program that verifies: %v", bind, vs)
		}
	})
}

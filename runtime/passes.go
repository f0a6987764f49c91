package runtime

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/tensor"
)

// A pass rewrites a graph's plan once every node has its step. Load runs
// planPasses in order on every graph (cond branches too), each skippable
// by name through Options.Disable, and checks the plan after each one
// (checker.check): a pass that leaves a step reading a value nothing defines,
// or a value released twice or read after its release, fails the load
// with a PlanError naming the pass, not a run with a wrong answer.
type pass struct {
	name string
	// at lists the ops a rewrite is anchored at: rewrite runs at every
	// step computing one, in plan order, on a fresh def-use index, and
	// the steps it absorbs are dropped after the pass.
	at      []string
	rewrite func(f *fuser, step int) bool
	// plan, for a pass over the whole plan, is run instead.
	plan func(gp *graphPlan)
}

// planPasses are the plan's rewrites in the order they run. The fusions
// are exact (same float32 arithmetic in the same order, so the same bits);
// foldbn and pack read constant weights and round differently. convact
// runs after foldbn and hardact, whose results it fuses into a
// convolution; moves needs the release lists lifetimes writes.
var planPasses = []pass{
	{name: "gelu", at: []string{"aten.tanh.default"}, rewrite: (*fuser).geluTanh},
	{name: "softmax", at: []string{"aten._softmax.default"}, rewrite: (*fuser).scaledMaskedSoftmax},
	{name: "hardact", at: []string{"aten.div.Tensor"}, rewrite: (*fuser).hardActivation},
	{name: "foldbn", at: []string{"aten._native_batch_norm_legit_no_training.default"}, rewrite: (*fuser).foldBatchNorm},
	{name: "pack", at: []string{"aten.addmm.default", "aten.mm.default", "aten.convolution.default"}, rewrite: (*fuser).packWeight},
	{name: "poolvalues", at: []string{"aten.max_pool2d_with_indices.default"}, rewrite: (*fuser).poolValues},
	{name: "convact", at: []string{"aten.relu.default", "aten.hardswish.default", "aten.hardsigmoid.default"}, rewrite: (*fuser).convActivation},
	{name: "lifetimes", plan: (*graphPlan).planLifetimes},
	{name: "moves", plan: (*graphPlan).planMoves},
}

// PassNames lists the plan rewrites Load runs, in order: the names
// Options.Disable takes.
func PassNames() []string {
	names := make([]string, len(planPasses))
	for i, p := range planPasses {
		names[i] = p.name
	}
	return names
}

// PlanError is a plan a rewrite pass left inconsistent: a bug in seam,
// found by the check Load runs after every pass.
type PlanError struct {
	Graph string // "" for the top-level graph
	Pass  string
	Err   error
}

func (e *PlanError) Error() string {
	where := "the plan"
	if e.Graph != "" {
		where = "the plan of " + e.Graph
	}
	return fmt.Sprintf("internal error: pass %s left %s broken: %v", e.Pass, where, e.Err)
}

func (e *PlanError) Unwrap() error { return e.Err }

// enabled returns the passes that run, refusing a name in disable that
// is not a pass's.
func enabled(passes []pass, disable []string) ([]pass, error) {
	off := map[string]bool{}
	for _, name := range disable {
		if !slices.ContainsFunc(passes, func(p pass) bool { return p.name == name }) {
			var names []string
			for _, p := range passes {
				names = append(names, p.name)
			}
			return nil, fmt.Errorf("Options.Disable: no pass %q (the passes are %s)", name, strings.Join(names, ", "))
		}
		off[name] = true
	}
	var on []pass
	for _, p := range passes {
		if !off[p.name] {
			on = append(on, p)
		}
	}
	return on, nil
}

// runPasses rewrites gp with each pass in turn, checking the plan first
// and after every pass that runs (a rewrite pass none of whose ops the
// plan has does not).
func (l *Loader) runPasses(gp *graphPlan, consts map[int32]*tensor.Tensor) error {
	gp.dead = make([][]int32, len(gp.steps))
	var c checker
	if err := c.check(gp); err != nil {
		return &PlanError{Graph: gp.path, Pass: "compile", Err: err}
	}
	f := &fuser{gp: gp, consts: consts, g: gp.g, names: gp.names, shared: l.opt.shared}
	for _, p := range l.passes {
		if p.plan != nil {
			p.plan(gp)
		} else {
			if !slices.ContainsFunc(gp.steps, func(st step) bool { return slices.Contains(p.at, st.op()) }) {
				continue
			}
			f.index()
			for i := range gp.steps {
				if slices.Contains(p.at, f.op(i)) {
					p.rewrite(f, i)
				}
			}
			f.drop()
		}
		if err := c.check(gp); err != nil {
			return &PlanError{Graph: gp.path, Pass: p.name, Err: err}
		}
	}
	return nil
}

// fuser is a pass's view of a plan: who defines and who reads each slot,
// and which steps the pass has absorbed so far.
type fuser struct {
	gp     *graphPlan
	consts map[int32]*tensor.Tensor // constant weights by slot
	g      *ir.Graph
	names  []string // slot -> value name
	prod   []int    // slot -> the step that defines it, -1 for inputs
	uses   []int    // slot -> references by steps and graph outputs
	users  []int    // slot -> the last step that reads it
	gone   []bool   // steps fused away
	buf    []int32
	shared *sharedConsts // folds and packs made for other programs too
}

// index builds the def-use view of the plan as it is now.
func (f *fuser) index() {
	gp, n := f.gp, f.gp.nslots
	f.prod, f.uses, f.users = zeroed(f.prod, n), zeroed(f.uses, n), zeroed(f.users, n)
	f.gone = zeroed(f.gone, len(gp.steps))
	for i := range f.prod {
		f.prod[i], f.users[i] = -1, -1
	}
	ref := func(t *argTmpl, step int) {
		f.buf = t.appendSlots(f.buf[:0])
		for _, s := range f.buf {
			f.uses[s]++
			f.users[s] = step
		}
	}
	for i := range gp.steps {
		st := &gp.steps[i]
		for j := range st.args {
			ref(&st.args[j], i)
		}
		f.buf = st.appendDefs(f.buf[:0])
		for _, s := range f.buf {
			f.prod[s] = i
		}
	}
	for j := range gp.outputs {
		ref(&gp.outputs[j], -1)
	}
}

// zeroed returns s with n zero elements, reusing its storage.
func zeroed[T any](s []T, n int) []T {
	s = resize(s, n)
	clear(s)
	return s
}

// drop removes the steps the pass absorbed.
func (f *fuser) drop() {
	if !slices.Contains(f.gone, true) {
		return
	}
	steps := f.gp.steps[:0]
	for i := range f.gp.steps {
		if !f.gone[i] {
			st := f.gp.steps[i]
			st.pos = len(steps)
			steps = append(steps, st)
		}
	}
	clear(f.gp.steps[len(steps):])
	f.gp.steps = steps
	f.gp.dead = f.gp.dead[:len(steps)]
}

// op is the op a kernel step runs: its node's, or what a rewrite made it
// run; "" for any other step and one without a kernel (the load will fail).
func (st *step) op() string {
	switch {
	case st.kind != stepKernel || st.kernel == nil:
		return ""
	case st.runs != "":
		return st.runs
	}
	return ir.OpName(st.node.Target)
}

// target is a kernel step's op ("aten.mul.Tensor"), or "" for any other
// step, one without a kernel (the load will fail) or one fused away.
func (f *fuser) target(i int) string {
	if i < 0 || f.gone[i] || f.gp.steps[i].kind != stepKernel || f.gp.steps[i].kernel == nil {
		return ""
	}
	return ir.OpName(f.gp.steps[i].node.Target)
}

// op is the op step i computes: its node's target, or what a rewrite made
// it run instead.
func (f *fuser) op(i int) string {
	if t := f.target(i); t == "" || f.gp.steps[i].runs == "" {
		return t
	}
	return f.gp.steps[i].runs
}

// appendSlots appends the slots a template reads to out.
func (t *argTmpl) appendSlots(out []int32) []int32 {
	switch t.kind {
	case tmplSlot:
		out = append(out, t.slot)
	case tmplList:
		for _, e := range t.elems {
			if e.slot >= 0 {
				out = append(out, e.slot)
			}
		}
	}
	return out
}

// appendDefs appends the slots a step fills to out.
func (st *step) appendDefs(out []int32) []int32 {
	for _, o := range st.outs {
		if o.slot >= 0 {
			out = append(out, o.slot)
		}
		for _, s := range o.list {
			if s >= 0 {
				out = append(out, s)
			}
		}
	}
	return out
}

// checker is the plan's sanity check, its buffers kept from one check
// to the next.
type checker struct {
	defined, kept []bool
	released      []int // the step after which a slot dies, -1 while alive
	buf           []int32
}

// check checks the plan: steps in order, every slot a step or the graph's
// outputs read defined before by a graph input or an earlier step (a step
// fused away defines nothing), no slot defined twice, and lifetimes
// consistent: a slot is released at most once, after it is defined, never
// while a later step or the outputs read it, and never a graph input or
// output; a moved copy's input dies at that step.
func (c *checker) check(gp *graphPlan) error {
	name := func(s int32) string {
		if int(s) < len(gp.names) && gp.names[s] != "" {
			return fmt.Sprintf("%s (slot %d)", gp.names[s], s)
		}
		return fmt.Sprintf("slot %d", s)
	}
	inRange := func(s int32) error {
		if s < 0 || int(s) >= gp.nslots {
			return fmt.Errorf("slot %d is out of range (%d slots)", s, gp.nslots)
		}
		return nil
	}
	c.defined, c.kept, c.released = zeroed(c.defined, gp.nslots), zeroed(c.kept, gp.nslots), zeroed(c.released, gp.nslots)
	defined, kept, released := c.defined, c.kept, c.released
	for i := range released {
		released[i] = -1
	}
	for _, s := range gp.inputs {
		if s < 0 {
			continue
		}
		if err := inRange(s); err != nil {
			return fmt.Errorf("graph input: %w", err)
		}
		defined[s], kept[s] = true, true
	}
	for j := range gp.outputs {
		c.buf = gp.outputs[j].appendSlots(c.buf[:0])
		for _, s := range c.buf {
			if err := inRange(s); err != nil {
				return fmt.Errorf("output %d: %w", j, err)
			}
			kept[s] = true
		}
	}
	read := func(t *argTmpl) error {
		c.buf = t.appendSlots(c.buf[:0])
		for _, s := range c.buf {
			if err := inRange(s); err != nil {
				return err
			}
			if !defined[s] {
				return fmt.Errorf("reads %s, which no graph input or earlier step defines", name(s))
			}
			if at := released[s]; at >= 0 {
				return fmt.Errorf("reads %s, released after step %d (%s)", name(s), at, gp.steps[at].node.Name)
			}
		}
		return nil
	}
	if len(gp.dead) != len(gp.steps) {
		return fmt.Errorf("%d release lists for %d steps", len(gp.dead), len(gp.steps))
	}
	for i := range gp.steps {
		st := &gp.steps[i]
		where := func(err error) error { return fmt.Errorf("step %d (%s): %w", i, st.node.Name, err) }
		if st.pos != i {
			return where(fmt.Errorf("is placed at %d", st.pos))
		}
		for j := range st.args {
			if err := read(&st.args[j]); err != nil {
				return where(fmt.Errorf("argument %d %w", j, err))
			}
		}
		c.buf = st.appendDefs(c.buf[:0])
		for _, s := range c.buf {
			if err := inRange(s); err != nil {
				return where(err)
			}
			if defined[s] {
				return where(fmt.Errorf("defines %s, which is already defined", name(s)))
			}
			defined[s] = true
		}
		for _, s := range gp.dead[i] {
			switch {
			case inRange(s) != nil:
				return where(fmt.Errorf("releases %w", inRange(s)))
			case !defined[s]:
				return where(fmt.Errorf("releases %s, which is not defined yet", name(s)))
			case released[s] >= 0:
				return where(fmt.Errorf("releases %s again (released after step %d)", name(s), released[s]))
			case kept[s]:
				return where(fmt.Errorf("releases %s, a graph input or output", name(s)))
			}
			released[s] = i
		}
		if st.move {
			if st.kind != stepKernel || len(st.args) == 0 || st.args[0].kind != tmplSlot || !slices.Contains(gp.dead[i], st.args[0].slot) {
				return where(fmt.Errorf("moves an input that does not die at this step"))
			}
		}
	}
	for j := range gp.outputs {
		if err := read(&gp.outputs[j]); err != nil {
			return fmt.Errorf("output %d %w", j, err)
		}
	}
	return nil
}

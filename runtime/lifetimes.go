package runtime

import (
	"slices"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/value"
)

// Lifetimes: after each step the executor releases the values whose last
// use it was (releaseDead), so that the kernels' pool recycles their
// storage for the steps after; and a copy whose input dies at it may take
// the input's storage instead of copying (planMoves, moveCopy).

// planLifetimes lists, after each step, the slots whose last use it was.
// Graph inputs and outputs are never released; a value nothing uses dies
// right after the step that made it.
func (gp *graphPlan) planLifetimes() {
	last := make([]int, gp.nslots)
	for i := range last {
		last[i] = -1
	}
	keep := make([]bool, gp.nslots)
	for _, s := range gp.inputs {
		if s >= 0 {
			keep[s] = true
		}
	}
	var buf []int32
	for i := range gp.steps {
		st := &gp.steps[i]
		for j := range st.args {
			buf = st.args[j].appendSlots(buf[:0])
			for _, s := range buf {
				last[s] = i
			}
		}
		buf = st.appendDefs(buf[:0])
		for _, s := range buf {
			if last[s] < i {
				last[s] = i
			}
		}
	}
	for j := range gp.outputs {
		buf = gp.outputs[j].appendSlots(buf[:0])
		for _, s := range buf {
			keep[s] = true
		}
	}
	gp.dead = make([][]int32, len(gp.steps))
	for s, i := range last {
		if i >= 0 && !keep[s] {
			gp.dead[i] = append(gp.dead[i], int32(s))
		}
	}
}

// copyTargets are the ops whose result is a contiguous copy of their one
// tensor argument (cloneKernel's targets).
var copyTargets = map[string]bool{
	"aten.clone.default": true, "aten.alias_copy.default": true, "aten.lift_fresh_copy.default": true,
}

// planMoves marks the copies whose input dies at them (see step.move).
func (gp *graphPlan) planMoves() {
	for i := range gp.steps {
		st := &gp.steps[i]
		if st.kind != stepKernel || !copyTargets[ir.OpName(st.node.Target)] || len(st.args) == 0 {
			continue
		}
		if a := st.args[0]; a.kind == tmplSlot && slices.Contains(gp.dead[i], a.slot) {
			st.move = true
		}
	}
}

// releaseDead recycles the values whose last use was the step just run.
func (f *frame) releaseDead(dead []int32, slots []value.Value) {
	for _, d := range dead {
		f.kctx.Release(slots[d])
		slots[d] = value.Value{}
	}
}

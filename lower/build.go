package lower

import (
	"fmt"
	"slices"

	"github.com/seam-rt/seam/ir"
)

// moduleIO is what one partition's module receives and returns.
type moduleIO struct {
	name string
	// owned are weight placeholders the module takes over, in spec order
	// (parameters, buffers, constants); takenOver the mutated buffers whose
	// state moves into it.
	owned     []string
	takenOver map[string]bool
	// inputs are the module's user inputs as the parent passes them.
	inputs []string
	// outputs are its user outputs as the parent receives them.
	outputs []string
	// mutations are the values written back to taken-over buffers.
	mutations []string
	// added are the nodes lowering puts at the start (recomputing or
	// unboxing inputs) and end (boxing outputs) of the module.
	head, tail []*created
	// replace maps values the module need not compute to what stands for
	// them: a literal, or another value with the same expression.
	replace map[string]ir.Argument
	// boxes are the inputs that are box tensors, with the type they box.
	boxes map[string]ir.ValueType
}

// build rewrites the graph: each partition becomes a lowered module and a
// delegate call in its place.
func (gc *graphCut) build() error {
	d := gc.dec
	parts := gc.plan.Partitions
	ios := make([]*moduleIO, len(parts))
	for k := range parts {
		ios[k] = gc.moduleIO(k)
		gc.label[k] = ios[k].name
	}
	for _, e := range gc.earlier {
		gc.lw.res.Crossings = append(gc.lw.res.Crossings, e.Crossing)
	}
	for _, k := range sortedKeys(d.in) {
		gc.lw.res.Crossings = append(gc.lw.res.Crossings, gc.inCrossing(d.in[k]))
	}
	for _, k := range sortedKeys(d.out) {
		gc.lw.res.Crossings = append(gc.lw.res.Crossings, gc.outCrossing(d.out[k]))
	}
	calls := make([]*ir.Node, len(parts))
	for k := range parts {
		m, err := gc.buildModule(ios[k], k)
		if err != nil {
			return err
		}
		gc.lw.res.Modules = append(gc.lw.res.Modules, m)
		gc.lw.res.Lowered.Modules[m.Name] = m.LoweredModule
		calls[k] = gc.callNode(ios[k])
	}
	return gc.rewriteParent(ios, calls)
}

// sortedKeys orders decisions by partition, then by the order values
// were first used.
func sortedKeys[T any](m map[[2]any]T) [][2]any {
	keys := make([][2]any, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]any) int {
		if a[0].(int) != b[0].(int) {
			return a[0].(int) - b[0].(int)
		}
		switch x, y := a[1].(string), b[1].(string); {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return keys
}

func (gc *graphCut) moduleName() string {
	for {
		name := fmt.Sprintf("lowered_module_%d", gc.lw.modules)
		gc.lw.modules++
		if gc.lw.names.take(name) {
			return name
		}
	}
}

func (gc *graphCut) moduleIO(k int) *moduleIO {
	d := gc.dec
	io := &moduleIO{name: gc.moduleName(), takenOver: map[string]bool{}, replace: map[string]ir.Argument{},
		boxes: map[string]ir.ValueType{}}
	prof := gc.lw.prof
	var params, buffers, consts []string
	defined := map[string]bool{}
	addHead := func(cs []*created) {
		for _, c := range cs {
			dup := false
			c.node.ForEachOutputRef(func(o string) { dup = dup || defined[o] })
			if dup {
				continue
			}
			c.node.ForEachOutputRef(func(o string) { defined[o] = true })
			io.head = append(io.head, c)
		}
	}
	for _, b := range gc.ins(k) {
		v := b.Name
		if dec, ok := d.in[key(k, v)]; ok {
			switch dec.how {
			case doRederive, doHoist:
				if dec.replace != nil {
					io.replace[v] = *dec.replace
				}
				addHead(dec.added)
			case doPass:
				io.inputs = append(io.inputs, v)
			case doBox:
				io.inputs = append(io.inputs, dec.box)
				io.boxes[dec.box] = gc.typeOf(v)
				addHead(dec.added)
			}
			continue
		}
		spec := gc.specOf[v]
		owned := spec != nil && prof.OwnsWeights &&
			(spec.Kind == ir.InputParameter || spec.Kind == ir.InputBuffer || spec.Kind == ir.InputTensorConstant)
		if spec != nil && spec.Kind == ir.InputBuffer && gc.mutated[v] != "" {
			owned = prof.OwnsBuffers && gc.canTakeOver(k, v)
			if owned {
				io.takenOver[v] = true
				io.mutations = append(io.mutations, gc.mutated[v])
			}
		}
		switch {
		case !owned:
			io.inputs = append(io.inputs, v)
		case spec.Kind == ir.InputParameter:
			params = append(params, v)
		case spec.Kind == ir.InputBuffer:
			buffers = append(buffers, v)
		default:
			consts = append(consts, v)
		}
	}
	io.owned = append(append(params, buffers...), consts...)
	mutation := map[string]bool{}
	for _, m := range io.mutations {
		mutation[m] = true
	}
	for _, b := range gc.outs(k) {
		v := b.Name
		if mutation[v] && !gc.usedOutsideBesidesMutation(k, v) {
			continue
		}
		if !isSymbolic(gc.typeOf(v)) {
			io.outputs = append(io.outputs, v)
			continue
		}
		dec, ok := d.out[key(k, v)]
		if !ok {
			continue // every outside use recomputes it
		}
		switch dec.how {
		case doPass:
			io.outputs = append(io.outputs, v)
		case doBox:
			io.outputs = append(io.outputs, dec.box)
			io.tail = append(io.tail, dec.inside)
		}
	}
	return io
}

// canTakeOver: a mutated buffer moves into the module when only the
// module reads it and the module computes its new value.
func (gc *graphCut) canTakeOver(k int, buf string) bool {
	for _, u := range gc.users(buf) {
		if gc.part(u) != k {
			return false
		}
	}
	if gc.outUseOtherThanMutation(buf) {
		return false
	}
	i := gc.producer(gc.mutated[buf])
	return i >= 0 && gc.part(i) == k
}

// usedOutsideBesidesMutation: v is used outside k other than as the value
// written back to a buffer.
func (gc *graphCut) usedOutsideBesidesMutation(k int, v string) bool {
	for _, u := range gc.users(v) {
		if gc.part(u) != k {
			return true
		}
	}
	return gc.outUseOtherThanMutation(v)
}

func (gc *graphCut) outUseOtherThanMutation(v string) bool {
	if gc.prog == nil {
		return gc.outUse(v)
	}
	for i, o := range gc.prog.Signature.Outputs {
		if o.Kind == ir.OutputBufferMutation {
			continue
		}
		used := false
		gc.g.Outputs[i].ForEachRef(func(s string) { used = used || s == v })
		if used {
			return true
		}
	}
	return false
}

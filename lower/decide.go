package lower

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/partition"
)

// inDecision says how a symbolic value reaches the inside of a partition.
type inDecision struct {
	value string
	part  int
	how   outcome
	// added are the nodes that recompute it inside (rederive, hoist, or
	// the unboxing node); replace stands for it when it folds to a constant
	// or another value already computes its expression.
	added   []*created
	replace *ir.Argument
	// box is the name of the rank-0 tensor it travels in.
	box     string
	dropped []string
	detail  string
	// why says why the ways tried before exclude failed.
	why []string
}

// outDecision says how a symbolic value made inside a partition reaches
// the parent.
type outDecision struct {
	value string
	part  int
	how   outcome
	// added are the parent's nodes that recompute or unbox it; inside
	// holds the boxing node added to the module.
	added   []*created
	inside  *created
	box     string
	dropped []string
	detail  string
	why     []string
}

// decided is what a decision says, for judgements: how, and why.
type decided struct {
	how    outcome
	detail string
}

func (d *inDecision) outcome() *decided {
	if d == nil {
		return nil
	}
	return &decided{d.how, d.detail}
}

func (d *outDecision) outcome() *decided {
	if d == nil {
		return nil
	}
	return &decided{d.how, d.detail}
}

type decisions struct {
	in  map[[2]any]*inDecision // by (partition, value)
	out map[[2]any]*outDecision
	// exclusions are the crossings whose nodes go to the parent; when
	// there are any, the partitions must be proposed again.
	exclusions []Exclusion
}

func key(part int, v string) [2]any { return [2]any{part, v} }

// decide chooses, for every symbolic value crossing a cut, how it crosses.
func (gc *graphCut) decide() (*decisions, error) {
	d := &decisions{in: map[[2]any]*inDecision{}, out: map[[2]any]*outDecision{}}
	gc.emitters = map[int]*emitter{}
	needInParent := map[string]bool{}
	for k := range gc.plan.Partitions {
		for _, b := range gc.ins(k) {
			if !b.Symbolic() {
				continue
			}
			v := b.Name
			dec, err := gc.decideIn(k, v)
			if gc.onDecision != nil {
				gc.onDecision(k, v, true, dec.outcome(), err)
				if err != nil {
					continue
				}
			}
			if err != nil {
				return nil, err
			}
			d.in[key(k, v)] = dec
			switch dec.how {
			case doPass, doBox:
				needInParent[v] = true
			case doExclude:
				d.exclusions = append(d.exclusions, Exclusion{Graph: gc.path, Crossing: gc.inCrossing(dec), Why: dec.why})
			}
		}
	}
	for k := range gc.plan.Partitions {
		for _, b := range gc.outs(k) {
			if !b.Symbolic() || !gc.neededInParent(b, needInParent) {
				continue
			}
			v := b.Name
			dec, err := gc.decideOut(k, v)
			if gc.onDecision != nil {
				gc.onDecision(k, v, false, dec.outcome(), err)
				if err != nil {
					continue
				}
			}
			if err != nil {
				return nil, err
			}
			d.out[key(k, v)] = dec
			if dec.how == doExclude {
				d.exclusions = append(d.exclusions, Exclusion{Graph: gc.path, Crossing: gc.outCrossing(dec), Why: dec.why})
			}
		}
	}
	return d, nil
}

// neededInParent: the parent must hold a value a partition makes if a
// parent node or the graph output uses it, or a partition receives it
// from the parent.
func (gc *graphCut) neededInParent(b partition.BoundaryValue, viaParent map[string]bool) bool {
	if b.GraphOutput || viaParent[b.Name] {
		return true
	}
	for _, u := range b.Users {
		if gc.part(u) < 0 {
			return true
		}
	}
	return false
}

func (gc *graphCut) acceptance(v string) backend.Acceptance {
	return gc.lw.prof.Placeholders.For(gc.typeOf(v))
}

// refusesScalar says why v cannot reach the backend as a plain scalar.
func (gc *graphCut) refusesScalar(v, what string) string {
	prof, t := gc.lw.prof, gc.typeOf(v)
	if gc.acceptance(v) == backend.Tensor {
		return fmt.Sprintf("%s takes %s %s only as rank-0 %s tensors", prof.Name, t, what, backend.BoxDType(t).Short())
	}
	return fmt.Sprintf("%s refuses %s %s", prof.Name, t, what)
}

// canBox: the backend takes rank-0 tensors of the value's box dtype.
func (gc *graphCut) canBox(v string) bool {
	t := gc.typeOf(v)
	return gc.lw.prof.AcceptsTensor(backend.BoxDType(t), 0)
}

func (gc *graphCut) decideIn(k int, v string) (*inDecision, error) {
	var why []string
	for _, how := range gc.lw.opt.Policy.chain(gc.lw.prof, gc.typeOf(v)) {
		dec := &inDecision{value: v, part: k, how: how}
		switch how {
		case doRederive:
			lit, nodes, err := gc.rederive(v, gc.emitterFor(k))
			if err != nil {
				why = append(why, "rederive: "+err.Error())
				continue
			}
			dec.added, dec.replace = nodes, lit
			dec.detail = "recomputed from the sizes of tensors the module receives"
		case doHoist:
			nodes, err := gc.hoistInto(k, v)
			if err != nil {
				why = append(why, "hoist: "+err.Error())
				continue
			}
			dec.added = nodes
			dec.detail = "the scalar ops producing it are copied into the module"
		case doPass:
			if gc.acceptance(v) != backend.Scalar {
				why = append(why, "pass: "+gc.refusesScalar(v, "placeholders"))
				continue
			}
			dec.detail = fmt.Sprintf("%s accepts %s placeholders as plain scalars", gc.lw.prof.Name, gc.typeOf(v))
		case doBox:
			if !gc.canBox(v) {
				why = append(why, fmt.Sprintf("box: %s refuses %s tensors", gc.lw.prof.Name, backend.BoxDType(gc.typeOf(v)).Short()))
				continue
			}
			dec.box = gc.boxName(gc.inBoxes, v)
			dec.added = []*created{gc.unboxNode(v, dec.box)}
			dec.detail = fmt.Sprintf("passed as a rank-0 %s tensor and unboxed inside", backend.BoxDType(gc.typeOf(v)).Short())
		case doExclude:
			for _, u := range gc.users(v) {
				if gc.part(u) == k {
					dec.dropped = append(dec.dropped, gc.g.Nodes[u].Name)
				}
			}
			dec.detail, dec.why = "its consumers are left to the parent", why
		}
		return dec, nil
	}
	return nil, gc.refusal(k, v, true, why)
}

func (gc *graphCut) decideOut(k int, v string) (*outDecision, error) {
	var why []string
	for _, how := range gc.lw.opt.Policy.chain(gc.lw.prof, gc.typeOf(v)) {
		dec := &outDecision{value: v, part: k, how: how}
		switch how {
		case doRederive:
			lit, nodes, err := gc.rederive(v, gc.emitterFor(-1))
			if err != nil {
				why = append(why, "rederive: "+err.Error())
				continue
			}
			if lit != nil {
				// A constant needs no crossing at all; parent uses keep
				// the name, so define it by a node anyway.
				why = append(why, "rederive: folds to a constant")
				continue
			}
			dec.added = nodes
			dec.detail = "recomputed in the parent from the sizes of its inputs"
		case doHoist:
			nodes, err := gc.hoistToParent(v)
			if err != nil {
				why = append(why, "hoist: "+err.Error())
				continue
			}
			dec.added = nodes
			dec.detail = "the scalar ops producing it are copied into the parent"
		case doPass:
			if gc.acceptance(v) != backend.Scalar {
				why = append(why, "pass: "+gc.refusesScalar(v, "outputs"))
				continue
			}
			dec.detail = fmt.Sprintf("%s returns it as a plain scalar", gc.lw.prof.Name)
		case doBox:
			if !gc.canBox(v) {
				why = append(why, fmt.Sprintf("box: %s refuses %s tensors", gc.lw.prof.Name, backend.BoxDType(gc.typeOf(v)).Short()))
				continue
			}
			dec.box = gc.boxName(gc.outBoxes, v)
			dec.inside = boxNode(dec.box, v, gc.typeOf(v))
			dec.added = []*created{gc.unboxNode(v, dec.box)}
			dec.detail = fmt.Sprintf("returned as a rank-0 %s tensor and unboxed in the parent", backend.BoxDType(gc.typeOf(v)).Short())
		case doExclude:
			dec.dropped = []string{gc.g.Nodes[gc.producer(v)].Name}
			dec.detail, dec.why = "its producer is left to the parent", why
		}
		return dec, nil
	}
	return nil, gc.refusal(k, v, false, why)
}

// refusal explains why no allowed policy could take v across.
func (gc *graphCut) refusal(k int, v string, into bool, why []string) error {
	consumer := ""
	for _, u := range gc.users(v) {
		if (into && gc.part(u) == k) || (!into && gc.part(u) != k) {
			consumer = gc.g.Nodes[u].Name
			break
		}
	}
	if consumer == "" && gc.outUse(v) {
		consumer = "the graph output"
	}
	dir := fmt.Sprintf("into the %s", gc.region(k))
	if !into {
		dir = fmt.Sprintf("out of the %s", gc.region(k))
	}
	mode := "policy " + gc.lw.opt.Policy.String()
	if gc.lw.prof.FullGraph {
		mode = "full_graph, " + mode
	}
	msg := fmt.Sprintf("%s: %s %s (%s), produced by %s and consumed by %s, cannot cross %s for backend %s",
		mode, gc.typeOf(v), v, gc.printExpr(v), gc.producerName(v), consumer, dir, gc.lw.prof.Name)
	if len(why) > 0 {
		msg += ": " + strings.Join(why, "; ")
	}
	return &Error{Value: v, Producer: gc.producerName(v), Consumer: consumer, Why: why, Msg: msg}
}

// tensorInputs lists a partition's tensor inputs in order of first use.
func (gc *graphCut) tensorInputs(k int) []string {
	var out []string
	for _, b := range gc.ins(k) {
		if b.Type == ir.ValueTensor {
			out = append(out, b.Name)
		}
	}
	return out
}

// parentTensors lists the tensors every point of the parent can use: the
// graph's tensor inputs.
func (gc *graphCut) parentTensors() []string {
	var out []string
	for _, v := range gc.g.InputNames() {
		if gc.typeOf(v) == ir.ValueTensor {
			out = append(out, v)
		}
	}
	return out
}

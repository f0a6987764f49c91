package runtime

import (
	"fmt"

	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/tensor"
	"github.com/seam-rt/seam/value"
)

// argTmpl is an argument as compiled: a literal, a value slot, or a list
// whose elements mix literals and slots (rebuilt each run in a buffer the
// run owns).
type argTmpl struct {
	kind  tmplKind
	lit   value.Value
	slot  int32
	elems []elemTmpl
	list  int32      // index of the run's list buffer
	lkind value.Kind // IntList, DoubleList, BoolList, TensorList, OptTensorList
}

type tmplKind uint8

const (
	tmplLit tmplKind = iota
	tmplSlot
	tmplList
)

type elemTmpl struct {
	slot int32 // -1: literal
	lit  value.Value
}

func litTmpl(v value.Value) argTmpl { return argTmpl{kind: tmplLit, lit: v} }

// deviceTypes maps device names to c10's DeviceType numbers.
var deviceTypes = map[string]int{"cpu": value.DeviceCPU, "cuda": value.DeviceCUDA, "mps": value.DeviceMPS, "meta": value.DeviceMeta}

// compileArg turns an argument into a template; slot resolves value names.
func (c *compiler) compileArg(a *ir.Argument) (argTmpl, error) {
	switch a.Kind {
	case ir.ArgNone:
		return litTmpl(value.NoneValue()), nil
	case ir.ArgInt:
		return litTmpl(value.FromInt(a.Int)), nil
	case ir.ArgFloat:
		return litTmpl(value.FromDouble(a.Float)), nil
	case ir.ArgBool:
		return litTmpl(value.FromBool(a.Bool)), nil
	case ir.ArgString:
		return litTmpl(value.FromString(a.Str)), nil
	case ir.ArgInts:
		return litTmpl(value.FromInts(a.Ints)), nil
	case ir.ArgFloats:
		return litTmpl(value.FromDoubles(a.Floats())), nil
	case ir.ArgBools:
		return litTmpl(value.FromBools(a.Bools())), nil
	case ir.ArgScalarType:
		return litTmpl(value.FromScalarType(tensor.DType(a.Int))), nil
	case ir.ArgLayout:
		return litTmpl(value.FromLayout(int(a.Int))), nil
	case ir.ArgMemoryFormat:
		return litTmpl(value.FromMemoryFormat(int(a.Int))), nil
	case ir.ArgDevice:
		typ, ok := deviceTypes[a.Device().Type]
		if !ok {
			return argTmpl{}, fmt.Errorf("device type %q", a.Device().Type)
		}
		idx := -1
		if a.Device().Index != nil {
			idx = int(*a.Device().Index)
		}
		return litTmpl(value.FromDevice(typ, idx)), nil
	case ir.ArgTensor, ir.ArgSymInt, ir.ArgSymFloat, ir.ArgSymBool, ir.ArgOptionalTensor:
		if a.Name == "" {
			switch a.Kind {
			case ir.ArgSymInt:
				return litTmpl(value.FromInt(a.Int)), nil
			case ir.ArgSymFloat:
				return litTmpl(value.FromDouble(a.Float)), nil
			case ir.ArgSymBool:
				return litTmpl(value.FromBool(a.Bool)), nil
			case ir.ArgOptionalTensor:
				return litTmpl(value.NoneValue()), nil
			}
			return argTmpl{}, fmt.Errorf("%s without a name", a.Kind)
		}
		s, err := c.slot(a.Name)
		if err != nil {
			return argTmpl{}, err
		}
		return argTmpl{kind: tmplSlot, slot: s}, nil
	case ir.ArgTensors, ir.ArgOptionalTensors, ir.ArgSymInts, ir.ArgSymFloats, ir.ArgSymBools:
		t := argTmpl{kind: tmplList, list: c.newList()}
		switch a.Kind {
		case ir.ArgTensors:
			t.lkind = value.TensorList
		case ir.ArgOptionalTensors:
			t.lkind = value.OptTensorList
		case ir.ArgSymInts:
			t.lkind = value.IntList
		case ir.ArgSymFloats:
			t.lkind = value.DoubleList
		default:
			t.lkind = value.BoolList
		}
		for i := range a.List {
			e, err := c.compileArg(&a.List[i])
			if err != nil {
				return argTmpl{}, err
			}
			if e.kind == tmplSlot {
				t.elems = append(t.elems, elemTmpl{slot: e.slot})
			} else {
				t.elems = append(t.elems, elemTmpl{slot: -1, lit: e.lit})
			}
		}
		return t, nil
	}
	return argTmpl{}, fmt.Errorf("cannot run an argument of kind %s", a.Kind)
}

// listBuf is a run's storage for one list argument.
type listBuf struct {
	ints    []int64
	doubles []float64
	bools   []bool
	tensors []*tensor.Tensor
}

// eval produces the argument's value for this run.
func (t *argTmpl) eval(slots []value.Value, lists []listBuf) (value.Value, error) {
	switch t.kind {
	case tmplLit:
		return t.lit, nil
	case tmplSlot:
		return slots[t.slot], nil
	}
	buf := &lists[t.list]
	n := len(t.elems)
	elem := func(i int) value.Value {
		if e := t.elems[i]; e.slot >= 0 {
			return slots[e.slot]
		}
		return t.elems[i].lit
	}
	switch t.lkind {
	case value.IntList:
		buf.ints = resize(buf.ints, n)
		for i := range t.elems {
			v, err := elem(i).AsInt()
			if err != nil {
				return value.Value{}, fmt.Errorf("list element %d: %w", i, err)
			}
			buf.ints[i] = v
		}
		return value.FromInts(buf.ints), nil
	case value.DoubleList:
		buf.doubles = resize(buf.doubles, n)
		for i := range t.elems {
			buf.doubles[i] = elem(i).Double()
		}
		return value.FromDoubles(buf.doubles), nil
	case value.BoolList:
		buf.bools = resize(buf.bools, n)
		for i := range t.elems {
			buf.bools[i] = elem(i).Bool()
		}
		return value.FromBools(buf.bools), nil
	}
	buf.tensors = resize(buf.tensors, n)
	for i := range t.elems {
		v := elem(i)
		if v.IsNone() && t.lkind == value.OptTensorList {
			buf.tensors[i] = nil
			continue
		}
		tt, err := v.AsTensor()
		if err != nil {
			return value.Value{}, fmt.Errorf("list element %d: %w", i, err)
		}
		buf.tensors[i] = tt
	}
	if t.lkind == value.OptTensorList {
		return value.FromOptTensors(buf.tensors), nil
	}
	return value.FromTensors(buf.tensors), nil
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

package onnx

import "fmt"

// translateFn translates one node: it emits the ONNX nodes that compute
// the node's outputs (named by c.out) or says why it cannot.
type translateFn func(c *call) error

// table maps targets (without `torch.ops.`) to their translations. It is
// the contract of the onnxruntime backend: the ops it can take.
var table = map[string]translateFn{}

func register(fn translateFn, targets ...string) {
	for _, t := range targets {
		if _, dup := table[t]; dup {
			panic(fmt.Sprintf("onnx: %s registered twice", t))
		}
		table[t] = fn
	}
}

// filled is a tensor shaped like x, every element v of type dt.
func (c *call) filled(x string, dt DataType, v float64) string {
	return c.op("Expand", []string{c.t.scalar(dt, v, int64(v)), c.op("Shape", []string{x})})
}

// identity makes out a copy of x (views and copies are the same in ONNX).
func identity(c *call) error {
	x, err := c.tensor("self")
	if err != nil {
		return err
	}
	return c.to(c.out(0), "Identity", []string{x})
}

// nothing translates nodes that only check (asserts): they compute no value.
func nothing(c *call) error { return nil }

package runtime

import "fmt"

// InputError is a problem with the inputs a run was given, found before
// anything ran.
type InputError struct {
	Input string // the input's name, or "" for the whole call
	Msg   string
}

func (e *InputError) Error() string {
	if e.Input == "" {
		return "input: " + e.Msg
	}
	return fmt.Sprintf("input %s: %s", e.Input, e.Msg)
}

// MissingKernelsError lists every op of a program seam cannot run.
type MissingKernelsError struct {
	Targets []string
}

func (e *MissingKernelsError) Error() string {
	return fmt.Sprintf("no kernel for %d ops: %v", len(e.Targets), e.Targets)
}

// NodeError is a failure while running a node.
type NodeError struct {
	Graph, Node string
	Err         error
}

func (e *NodeError) Error() string {
	where := e.Node
	if e.Graph != "" {
		where = e.Graph + ": " + e.Node
	}
	return fmt.Sprintf("node %s: %v", where, e.Err)
}

func (e *NodeError) Unwrap() error { return e.Err }

// PartsError is seam's fault in running a batch in parts (see
// samples.go): the program for a part that does not load, or a part that
// refuses the share of the inputs it was given.
type PartsError struct{ Err error }

func (e *PartsError) Error() string {
	return fmt.Sprintf("internal error: running the batch in parts: %v", e.Err)
}

func (e *PartsError) Unwrap() error { return e.Err }

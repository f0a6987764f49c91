package ir

// DelegateTarget is the target of a delegate call, as ExecuTorch names it:
// its first argument names the lowered module it calls, the rest are the
// module's inputs.
const DelegateTarget = "torch.ops.higher_order.executorch_call_delegate"

// DelegateModule returns the lowered module a delegate call names, and
// false for any other node (or a delegate call without a module name).
func (n *Node) DelegateModule() (string, bool) {
	if n.Target != DelegateTarget || len(n.Inputs) == 0 || n.Inputs[0].Arg.Kind != ArgString {
		return "", false
	}
	return n.Inputs[0].Arg.Str, true
}

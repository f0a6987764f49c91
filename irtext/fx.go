package irtext

import "github.com/seam-rt/seam/ir"

// Getitems names the getitem nodes torch.fx has for node n, in result
// order. The export schema folds them into the node's outputs: a node that
// returns several values (a tuple, a list, a higher-order op's results) is
// one node in FX bound to its own name, and each result something uses is
// taken out by an `operator.getitem` node named after the value
// (`getitem_3 = native_layer_norm_1[0]`). Results nothing uses have no
// getitem node; a node that returns one value has none at all.
func Getitems(n *ir.Node) []string {
	if _, ok := singleOutput(n); ok {
		return nil
	}
	var names []string
	for _, name := range usedResults(n) {
		if name != "" {
			names = append(names, name)
		}
	}
	return names
}

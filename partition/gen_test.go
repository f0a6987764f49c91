package partition

import "math/rand/v2"

// synthDAG generates a graph shaped like fixtures/synthetic/dag_N.json: each
// node is an add (two inputs) or a relu (one), inputs drawn from the 8
// values made just before (two graph inputs come first), and about one node
// in five unsupported, as stress_mod5 leaves it. Deterministic for a seed.
func synthDAG(n int, seed uint64) (*DAG, *Request) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	const inputs, window = 2, 8
	flat := make([]int32, 0, 2*n)
	preds := make([][]int32, n)
	r := &Request{Supported: make([]bool, n), MinCompute: 1}
	for v := range n {
		k := 1 + rng.IntN(2)
		start := len(flat)
		made := inputs + v // values so far: graph inputs, then nodes
		for range k {
			val := made - 1 - rng.IntN(min(window, made))
			if q := int32(val - inputs); q >= 0 && (len(flat) == start || flat[start] != q) {
				flat = append(flat, q)
			}
		}
		preds[v] = flat[start:len(flat):len(flat)]
		r.Supported[v] = rng.IntN(5) != 0
	}
	return &DAG{Preds: preds}, r
}

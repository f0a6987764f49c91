package report

// The graph model is what the pictures draw: every placeholder, node and
// the graph's outputs as items, and every use of a value as an edge.

type itemKind uint8

const (
	// itemInput is a placeholder that carries data in: a user input, a
	// nested graph's input, a token.
	itemInput itemKind = iota
	// itemWeight is a parameter, buffer or constant placeholder. The SVG
	// leaves them out (there are hundreds and the tables list them).
	itemWeight
	itemNode
	// itemOutput stands for the graph's outputs, one per graph.
	itemOutput
)

type item struct {
	name string
	// op is a node's op name, or a placeholder's kind.
	op   string
	kind itemKind
	// part is the global id of the item's partition, -1 outside any.
	part       int
	reason     string
	annotation string
}

type edge struct {
	from, to int
	value    string
	typ      string
	// sink is the output kind when the edge goes to the output item.
	sink string
}

type graphModel struct {
	path  string
	items []item
	edges []edge
	// nodes counts the graph's nodes (items that are nodes).
	nodes int
	// parts are the global ids of this graph's partitions.
	parts []int
	// symbolic holds the annotations of the symbolic values edges carry,
	// for labels.
	symbolic map[string]string
}

// boundary reports whether an edge crosses a partition boundary: it enters
// or leaves a partition.
func (m *graphModel) boundary(e edge) bool {
	a, b := m.items[e.from].part, m.items[e.to].part
	return a != b && (a >= 0 || b >= 0)
}

package report

import (
	"encoding/json"
	"io"
)

// WriteJSON prints the report as indented JSON: backend, summary,
// partitions (id, graph, nodes, inputs, outputs) and unsupported nodes
// (node, target, reason, detail, graph). Scripts rely on these keys.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

package ir

import (
	"slices"
	"strings"
)

// Metadata is a node's metadata: a few string entries (stack_trace,
// nn_module_stack, torch_fn, ...), sorted by key, each key once. A node
// has three or four: as a sorted list they cost a third of a map's memory
// and a fraction of its time to build, and they encode in order.
type Metadata []MetadataEntry

// MetadataEntry is one key of a node's metadata and its value.
type MetadataEntry struct {
	Key, Value string
}

// MetadataOf returns the entries of m as Metadata (nil for an empty m).
func MetadataOf(m map[string]string) Metadata {
	var md Metadata
	for k, v := range m {
		md = append(md, MetadataEntry{k, v})
	}
	slices.SortFunc(md, func(a, b MetadataEntry) int { return strings.Compare(a.Key, b.Key) })
	return md
}

// find returns where key is, or where it would go.
func (m Metadata) find(key string) (int, bool) {
	// A linear search: there are only a few entries.
	for i := range m {
		if c := strings.Compare(m[i].Key, key); c >= 0 {
			return i, c == 0
		}
	}
	return len(m), false
}

// Lookup returns the value of key and whether the metadata has it.
func (m Metadata) Lookup(key string) (string, bool) {
	if i, ok := m.find(key); ok {
		return m[i].Value, true
	}
	return "", false
}

// Get returns the value of key ("" when there is none).
func (m Metadata) Get(key string) string {
	v, _ := m.Lookup(key)
	return v
}

// Set gives key the value v, replacing any it had.
func (m *Metadata) Set(key, v string) {
	i, ok := m.find(key)
	if ok {
		(*m)[i].Value = v
		return
	}
	*m = slices.Insert(*m, i, MetadataEntry{key, v})
}

// Delete removes key.
func (m *Metadata) Delete(key string) {
	if i, ok := m.find(key); ok {
		*m = slices.Delete(*m, i, i+1)
	}
}

// Map returns the entries as a map.
func (m Metadata) Map() map[string]string {
	out := make(map[string]string, len(m))
	for _, e := range m {
		out[e.Key] = e.Value
	}
	return out
}

// Clone returns a copy that shares nothing with m (nil for nil).
func (m Metadata) Clone() Metadata { return slices.Clone(m) }

// canonical returns m sorted by key with each key once, its last value.
func (m Metadata) canonical() Metadata {
	var c Metadata
	for _, e := range m {
		c.Set(e.Key, e.Value)
	}
	return c
}

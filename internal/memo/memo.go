// Package memo remembers what a function of a string gave, for passes
// over large graphs that ask it of each node's op: thousands of nodes
// share each of a graph's few ops.
package memo

// Strings remembers f(key) for each key asked. The last few keys asked
// are compared first, without hashing (a graph's nodes cycle through a
// handful of ops), then a map of every key is.
type Strings[V any] struct {
	f      func(string) V
	recent [4]entry[V]
	next   int
	all    map[string]V
}

type entry[V any] struct {
	key string
	val V
	set bool
}

// New remembers f.
func New[V any](f func(string) V) *Strings[V] {
	return &Strings[V]{f: f, all: map[string]V{}}
}

// Get is f(key), worked out once.
func (m *Strings[V]) Get(key string) V {
	for i := range m.recent {
		if e := &m.recent[i]; e.set && e.key == key {
			return e.val
		}
	}
	v, ok := m.all[key]
	if !ok {
		v = m.f(key)
		m.all[key] = v
	}
	m.recent[m.next] = entry[V]{key, v, true}
	m.next = (m.next + 1) % len(m.recent)
	return v
}

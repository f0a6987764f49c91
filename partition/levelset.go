package partition

import "math/bits"

// levelSet is a set of levels with fast "nearest member" queries: a 64-ary
// tree of bit words, so a query touches about log64(levels) words (4 for a
// million levels) instead of scanning.
type levelSet struct {
	// layers[0] has one bit per level; layers[i+1] one bit per nonzero word
	// of layers[i]. The last layer is a single word.
	layers [][]uint64
}

func newLevelSet(n int) *levelSet {
	s := &levelSet{}
	for {
		words := (n + 63) >> 6
		if words == 0 {
			words = 1
		}
		s.layers = append(s.layers, make([]uint64, words))
		if words == 1 {
			return s
		}
		n = words
	}
}

func (s *levelSet) clear() {
	for _, words := range s.layers {
		clear(words)
	}
}

func (s *levelSet) has(x int32) bool {
	return s.layers[0][x>>6]&(1<<(uint(x)&63)) != 0
}

func (s *levelSet) add(x int32) {
	i := int(x)
	for _, words := range s.layers {
		w := words[i>>6]
		words[i>>6] = w | 1<<(uint(i)&63)
		if w != 0 {
			return
		}
		i >>= 6
	}
}

func (s *levelSet) remove(x int32) {
	i := int(x)
	for _, words := range s.layers {
		w := words[i>>6] &^ (1 << (uint(i) & 63))
		words[i>>6] = w
		if w != 0 {
			return
		}
		i >>= 6
	}
}

// prev is the largest member ≤ x, or -1.
func (s *levelSet) prev(x int32) int32 { return int32(s.prevIn(0, int(x))) }

// next is the smallest member ≥ x, or -1.
func (s *levelSet) next(x int32) int32 { return int32(s.nextIn(0, int(x))) }

func (s *levelSet) prevIn(layer, x int) int {
	if x < 0 {
		return -1
	}
	words := s.layers[layer]
	i := x >> 6
	if i >= len(words) {
		i, x = len(words)-1, len(words)<<6-1
	}
	if w := words[i] & (^uint64(0) >> (63 - uint(x)&63)); w != 0 {
		return i<<6 | (63 - bits.LeadingZeros64(w))
	}
	if layer+1 == len(s.layers) {
		return -1
	}
	j := s.prevIn(layer+1, i-1)
	if j < 0 {
		return -1
	}
	return j<<6 | (63 - bits.LeadingZeros64(words[j]))
}

func (s *levelSet) nextIn(layer, x int) int {
	words := s.layers[layer]
	i := x >> 6
	if x < 0 {
		i, x = 0, 0
	}
	if i >= len(words) {
		return -1
	}
	if w := words[i] & (^uint64(0) << (uint(x) & 63)); w != 0 {
		return i<<6 | bits.TrailingZeros64(w)
	}
	if layer+1 == len(s.layers) {
		return -1
	}
	j := s.nextIn(layer+1, i+1)
	if j < 0 {
		return -1
	}
	return j<<6 | bits.TrailingZeros64(words[j])
}

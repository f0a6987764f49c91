package memo

import (
	"fmt"
	"testing"
)

// TestStrings: every answer is f's, and f is asked once per key, whether
// keys repeat in a short cycle (the recent ones) or a long one (the map).
func TestStrings(t *testing.T) {
	calls := map[string]int{}
	m := New(func(s string) string { calls[s]++; return "f(" + s + ")" })
	for _, cycle := range []int{1, 3, 4, 5, 17} {
		for i := range 200 {
			key := fmt.Sprint("k", cycle, "_", i%cycle)
			if got := m.Get(key); got != "f("+key+")" {
				t.Fatalf("Get(%s) = %s", key, got)
			}
		}
	}
	for k, n := range calls {
		if n != 1 {
			t.Errorf("f(%s) asked %d times", k, n)
		}
	}
	if len(calls) != 1+3+4+5+17 {
		t.Errorf("%d keys asked of f", len(calls))
	}
}

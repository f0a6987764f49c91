package ir

import "testing"

// Every Argument member name but the token's decodes to its kind.
func TestArgKindOf(t *testing.T) {
	for k := ArgNone; k < numArgKinds; k++ {
		got, ok := argKindOf([]byte(argKindNames[k]))
		if k == ArgToken {
			if ok {
				t.Errorf("token is an Argument member")
			}
			continue
		}
		if !ok || got != k {
			t.Errorf("%s: got %v %v", argKindNames[k], got, ok)
		}
	}
}

package verify_test

import (
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/pt2"
	"github.com/seam-rt/seam/verify"
)

func load(t testing.TB, name string) *ir.Program {
	t.Helper()
	a, err := pt2.Open(fixtures.Model(name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	p, err := a.Program()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFixturesVerifyClean(t *testing.T) {
	for _, name := range fixtures.Models() {
		t.Run(name, func(t *testing.T) {
			for _, v := range verify.Program(load(t, name), verify.Options{}) {
				t.Error(v)
			}
		})
	}
}

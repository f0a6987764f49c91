package verify_test

import (
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/ir"
	"github.com/seam-rt/seam/verify"
)

func load(t testing.TB, name string) *ir.Program { return fixtures.Load(t, fixtures.Model(name)) }

func TestFixturesVerifyClean(t *testing.T) {
	for _, name := range fixtures.Models() {
		t.Run(name, func(t *testing.T) {
			for _, v := range verify.Program(load(t, name), verify.Options{}) {
				t.Error(v)
			}
		})
	}
}

package inspect_test

import (
	"testing"

	"github.com/seam-rt/seam/fixtures"
	"github.com/seam-rt/seam/inspect"
	"github.com/seam-rt/seam/pt2"
)

// TestGetitemsMatchGraphTxt: the node count and the folded getitems add up
// to what print_readable shows, fixture by fixture.
func TestGetitemsMatchGraphTxt(t *testing.T) {
	total := 0
	for _, name := range fixtures.Models() {
		graphs, err := fixtures.ReadGraphTxt(name)
		if err != nil {
			t.Fatal(err)
		}
		var calls, getitems int
		for _, g := range graphs {
			for _, n := range g.Nodes {
				switch n.Op {
				case "call_function":
					calls++
				case "getitem":
					getitems++
				}
			}
		}
		a, err := pt2.Open(fixtures.Model(name))
		if err != nil {
			t.Fatal(err)
		}
		l, err := a.Lowered()
		if err != nil {
			t.Fatal(err)
		}
		s := inspect.SummarizeLowered(l, inspect.Options{})
		a.Close()
		if s.Nodes != calls || s.Getitems != getitems {
			t.Errorf("%s: %d nodes and %d folded getitems, graph.txt has %d calls and %d getitems", name, s.Nodes, s.Getitems, calls, getitems)
		}
		total += getitems
	}
	if total == 0 {
		t.Errorf("no fixture has a getitem: the test checks nothing")
	}
}

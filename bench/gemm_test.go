package bench

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// A stand-in for gemmTorch: it reads the shapes, then answers every turn
// with the same two times, 20 ms and 10 ms.
const fakeTorchMM = `read shapes; while read name secs; do echo "[0.02, 0.01]"; done`

// gemmTurns gives seam and torch.mm turns until each has spent the time
// asked, and returns both sides' times sorted.
func TestGemmTurns(t *testing.T) {
	tm, err := startTimer(exec.Command("sh", "-c", fakeTorchMM))
	if err != nil {
		t.Fatal(err)
	}
	defer tm.close()
	s := GemmShape{"tiny", 8, 8, 8, false}
	d := 3 * gemmTurn / 2
	seam, torch, err := gemmTurns(s, tm, d)
	if err != nil {
		t.Fatal(err)
	}
	var spent time.Duration
	for _, v := range torch {
		spent += v
	}
	// Each turn of the stand-in spends 30 ms: enough turns for d, and seam
	// had as many turns, each about gemmTurn of 8x8 products.
	turns := len(torch) / 2
	if spent < d || len(torch)%2 != 0 || turns < int(d/(30*time.Millisecond)) {
		t.Fatalf("torch.mm: %d times, %v in all, for %v asked", len(torch), spent, d)
	}
	if !slices.IsSorted(torch) || torch[0] != 10*time.Millisecond || torch[len(torch)-1] != 20*time.Millisecond {
		t.Fatalf("torch.mm times %v, want 10 ms and 20 ms sorted", torch)
	}
	if len(seam) < turns || !slices.IsSorted(seam) || seam[0] <= 0 {
		t.Fatalf("seam: %d times over %d turns, sorted %v", len(seam), turns, slices.IsSorted(seam))
	}
}

// A timer that answers with something other than times fails the turn
// with what it printed, and one that dies with its stderr's last line.
func TestGemmTurnsBadTimer(t *testing.T) {
	s := GemmShape{"tiny", 8, 8, 8, false}
	for _, c := range []struct{ script, want string }{
		{`read shapes; read turn; echo nonsense`, `printed "nonsense"`},
		{`read shapes; echo 'no module named torch' >&2; exit 1`, "no module named torch"},
	} {
		tm, err := startTimer(exec.Command("sh", "-c", c.script))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = gemmTurns(s, tm, gemmTurn)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.script, err, c.want)
		}
	}
}

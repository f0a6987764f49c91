package bench

import (
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seam-rt/seam/fixtures"
)

// A stand-in for gemmTorch: it reads the shapes, then answers every turn
// with the same two times, 20 ms and 10 ms.
const fakeTorchMM = `read shapes; while read name secs; do echo "[0.02, 0.01]"; done`

// gemmTurns gives seam and torch.mm turns until each has spent the time
// asked, and returns both sides' times sorted.
func TestGemmTurns(t *testing.T) {
	tm, err := startTurns(exec.Command("sh", "-c", fakeTorchMM), "shapes", false)
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
		tm, err := startTurns(exec.Command("sh", "-c", c.script), "shapes", false)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = gemmTurns(s, tm, gemmTurn)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.script, err, c.want)
		}
	}
}

// seam and an anchor take turns on a case until each has its runs and
// time; a failing anchor is an anchorError, not seam's failure.
func TestTimeWithAnchor(t *testing.T) {
	model := fixtures.Model("mlp")
	dir := filepath.Join(filepath.Dir(model), "io", "case0")
	anchor, err := startTurns(exec.Command("sh", "-c", `echo ready; while read secs; do echo "[0.004, 0.002, 0.003]"; done`), "", true)
	if err != nil {
		t.Fatal(err)
	}
	defer anchor.close()
	seam, ort, err := timeWithAnchor(model, dir, anchor, 5, 3*turnFor)
	if err != nil {
		t.Fatal(err)
	}
	if seam.Runs < 5 || seam.Median <= 0 || seam.Fastest > seam.Median || seam.Uses != 1 {
		t.Errorf("seam: %+v", seam)
	}
	if ort.Median != 3*time.Millisecond || ort.Fastest != 2*time.Millisecond || ort.Runs%3 != 0 || ort.Runs < 3*int(3*turnFor/(9*time.Millisecond)) {
		t.Errorf("anchor: %+v", ort)
	}
	dead, err := startTurns(exec.Command("sh", "-c", `echo ready; read secs; echo 'session lost' >&2; exit 1`), "", true)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = timeWithAnchor(model, dir, dead, 5, turnFor)
	var ae *anchorError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "session lost") {
		t.Errorf("a dying anchor: %v", err)
	}
	if _, err := startTurns(exec.Command("sh", "-c", `echo 'no onnxruntime-node' >&2; exit 1`), "", true); err == nil || !strings.Contains(err.Error(), "no onnxruntime-node") {
		t.Errorf("an anchor that never gets ready: %v", err)
	}
}

package bench

import (
	"strings"
	"testing"
	"time"
)

// TestWriteRunsSeamExportColumn: the column on seam's export appears when
// a row has the figure, and a program whose export does not run gets a
// note instead of a figure.
func TestWriteRunsSeamExportColumn(t *testing.T) {
	rs := []RunResult{
		{RunCase: RunCase{Model: "a", Case: "case0"}, Median: 2 * time.Millisecond, Min: time.Millisecond, Runs: 20,
			OrtSeam: 4 * time.Millisecond, OrtSeamMin: 3 * time.Millisecond, OrtSeamRatio: 0.5},
		{RunCase: RunCase{Model: "b", Case: "case0"}, Median: time.Millisecond, Min: time.Millisecond, Runs: 20,
			OrtSeamErr: "node nonzero: op not included"},
	}
	var out strings.Builder
	if err := WriteRuns(&out, rs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ORT on seam's export", "4.000 ms", "3.000 ms", "0.50x", "note: b case0: no ONNX Runtime figure on seam's export: node nonzero"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := WriteRuns(&out, rs[1:]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "ORT on seam's export") {
		t.Errorf("a column without figures:\n%s", out.String())
	}
}

// TestWriteRunsThreadsChosen: on several threads the table says in how
// many rounds the program kept them, beside the one-thread figures timed
// with them.
func TestWriteRunsThreadsChosen(t *testing.T) {
	rs := []RunResult{{RunCase: RunCase{Model: "a", Case: "case0"}, Median: 2 * time.Millisecond, Min: time.Millisecond, Runs: 20,
		Threads: 2, ThreadsOne: 3 * time.Millisecond, ThreadsOneMin: 1500 * time.Microsecond, ThreadsMedian: time.Millisecond, ThreadsMin: time.Millisecond / 2,
		Speedup: 3, ThreadsChosen: 4, ThreadRounds: 5, SplitMedian: time.Millisecond, SplitSpeedup: 3}}
	var out strings.Builder
	if err := WriteRuns(&out, rs); err != nil {
		t.Fatal(err)
	}
	// The one-thread figures beside the threads' are those timed in turns
	// with them (3 ms, fastest 1.5 ms), not the one-thread round's (2 ms).
	for _, want := range []string{"chose 2", "4/5", "in how\nmany rounds it kept 2", "3.000 ms", "1.500 ms", "3.00x"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "2.000 ms") {
		t.Errorf("the one-thread round's median beside the threads' figures:\n%s", out.String())
	}
}

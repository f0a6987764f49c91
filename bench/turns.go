package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// A turnTimer is a process that times an anchor (torch.mm, ONNX Runtime)
// in turns asked of it, so that seam and the anchor can run alternately
// within a round: on a shared host whose speed drifts 1.5-2x within
// seconds, figures taken one after the other compare spells as much as
// engines. It reads a line per turn and answers with the turn's times in
// seconds as one JSON list.
type turnTimer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startTurns starts cmd, sends it first (unless empty) as its first line,
// and with ready waits for it to print "ready" (its setup done, so that a
// failure there is reported now).
func startTurns(cmd *exec.Cmd, first string, ready bool) (*turnTimer, error) {
	cmd.Stderr = new(strings.Builder)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t := &turnTimer{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	if first != "" {
		if _, err := fmt.Fprintf(in, "%s\n", first); err != nil {
			return nil, t.fail(err)
		}
	}
	if ready {
		if !t.out.Scan() || t.out.Text() != "ready" {
			return nil, t.fail(t.noAnswer())
		}
	}
	return t, nil
}

// turn asks for one turn and returns its times.
func (t *turnTimer) turn(line string) ([]time.Duration, error) {
	if _, err := fmt.Fprintf(t.in, "%s\n", line); err != nil {
		return nil, t.fail(err)
	}
	if !t.out.Scan() {
		return nil, t.fail(t.noAnswer())
	}
	var secs []float64
	if err := json.Unmarshal(t.out.Bytes(), &secs); err != nil || len(secs) == 0 {
		return nil, t.fail(fmt.Errorf("printed %q", t.out.Bytes()))
	}
	ts := make([]time.Duration, len(secs))
	for i, v := range secs {
		ts[i] = time.Duration(v * float64(time.Second))
	}
	return ts, nil
}

func (t *turnTimer) noAnswer() error {
	if err := t.out.Err(); err != nil {
		return err
	}
	if t.out.Text() != "" {
		return fmt.Errorf("printed %q", t.out.Text())
	}
	return errors.New("no answer")
}

// fail stops the process and says why it failed, with its stderr's last
// line.
func (t *turnTimer) fail(err error) error {
	t.close()
	msg := strings.TrimSpace(t.cmd.Stderr.(*strings.Builder).String())
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	return fmt.Errorf("%v: %s", err, msg)
}

func (t *turnTimer) close() {
	t.in.Close()
	t.cmd.Wait()
}

// inTurns runs each way's turn in order, round and round, until every way
// has had minRuns times and minTime in all, and returns each way's times
// sorted.
func inTurns(ways []func() ([]time.Duration, error), minRuns int, minTime time.Duration) ([][]time.Duration, error) {
	times := make([][]time.Duration, len(ways))
	spent := make([]time.Duration, len(ways))
	for done := false; !done; {
		done = true
		for i, way := range ways {
			ts, err := way()
			if err != nil {
				return nil, err
			}
			for _, d := range ts {
				spent[i] += d
			}
			times[i] = append(times[i], ts...)
			done = done && len(times[i]) >= minRuns && spent[i] >= minTime
		}
	}
	for _, ts := range times {
		slices.Sort(ts)
	}
	return times, nil
}

// callTurn is a turn of f: one untimed call (it finds the caches full of
// another way's data, and a program's workers parked), then calls timed
// for about turn, at least one.
func callTurn(f func() error, turn time.Duration) func() ([]time.Duration, error) {
	return func() ([]time.Duration, error) {
		if err := f(); err != nil {
			return nil, err
		}
		var ts []time.Duration
		for start := time.Now(); time.Since(start) < turn || len(ts) == 0; {
			t0 := time.Now()
			if err := f(); err != nil {
				return nil, err
			}
			ts = append(ts, time.Since(t0))
		}
		return ts, nil
	}
}

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/seam-rt/seam/fixtures"
)

// TestLowerRounds: seam lower --json lists the rounds of proposals, each
// with what it excluded and why; --explain prints them before the report.
func TestLowerRounds(t *testing.T) {
	model := fixtures.Model("gpt2_tiny")
	// stdout alone: without -o, stderr warns that nothing was written.
	_, out, code, err := seamSplit(t, "lower", model, "--backend", "tensor-only", "--policy", "exclude", "--json")
	if err != nil || code != 0 {
		t.Fatalf("seam lower --json: exit %d, %v", code, err)
	}
	var rep struct {
		Rounds []struct {
			Backend    string `json:"backend"`
			Partitions int    `json:"partitions"`
			Excluded   []struct {
				Value   string   `json:"value"`
				Dropped []string `json:"dropped"`
				Why     []string `json:"why"`
			} `json:"excluded"`
		} `json:"rounds"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rounds) != 2 || len(rep.Rounds[0].Excluded) == 0 || len(rep.Rounds[1].Excluded) != 0 {
		t.Fatalf("rounds %+v, want an exclusion, then the lowered proposal", rep.Rounds)
	}
	if e := rep.Rounds[0].Excluded[0]; e.Value == "" || len(e.Dropped) == 0 || len(e.Why) == 0 {
		t.Errorf("exclusion %+v does not say what and why", e)
	}
	_, text, _, _ := seamSplit(t, "lower", model, "--backend", "tensor-only", "--policy", "exclude", "--explain")
	first := strings.SplitN(text, "\n", 2)[0]
	if !strings.HasPrefix(first, "round 1 (tensor-only): ") || !strings.Contains(first, "nodes excluded:") ||
		!strings.Contains(text, "tensor-only refuses sym_int placeholders") || !strings.Contains(text, "round 2 (tensor-only): ") ||
		!strings.Contains(text, "lowered as proposed") || !strings.Contains(text, "lowered for tensor-only") {
		t.Errorf("--explain:\n%s", text)
	}
	if plain := mustSeam(t, "lower", model, "--backend", "tensor-only", "--policy", "exclude"); strings.Contains(plain, "round 1") {
		t.Errorf("rounds printed without --explain:\n%s", plain)
	}
}

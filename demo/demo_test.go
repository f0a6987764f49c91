package demo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/seam-rt/seam/demo"
	"github.com/seam-rt/seam/lower"
)

func TestDemo(t *testing.T) {
	r, err := demo.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.SymSize, "sym_size_int_24: \"Sym(s53)\" = torch.ops.aten.sym_size.int(attention_mask, 1)") {
		t.Errorf("sym_size line %q", r.SymSize)
	}
	if len(r.Naive.Placeholders) == 0 || !strings.Contains(r.Naive.Placeholders[0], "Sym(s53)") {
		t.Errorf("naive cut placeholders %v", r.Naive.Placeholders)
	}
	if !strings.Contains(r.Naive.RunError, "contract of tensor-only violated") || !strings.Contains(r.Naive.RunError, "sym_size_int_24") {
		t.Errorf("naive cut ran or failed unclearly: %q", r.Naive.RunError)
	}
	if err := r.Err(); err != nil {
		t.Error(err)
	}
	if r.Original.Err != "" || r.Original.MaxAbsDiff > 1e-4 {
		t.Errorf("original: %+v", r.Original)
	}
	seen := map[lower.Policy]bool{}
	for _, p := range r.Policies {
		seen[p.Policy] = true
		switch p.Policy {
		case lower.Fail, lower.Pass, lower.Hoist:
			if p.Refusal == "" {
				t.Errorf("%s: accepted, want a refusal", p.Policy)
			}
			continue
		}
		if p.Refusal != "" {
			t.Errorf("%s refused: %s", p.Policy, p.Refusal)
			continue
		}
		if len(p.Symbolic) > 0 {
			t.Errorf("%s: symbolic placeholders %v", p.Policy, p.Symbolic)
		}
		if p.Timing.Err != "" || p.Timing.MaxAbsDiff > 1e-4 {
			t.Errorf("%s: run %+v", p.Policy, p.Timing)
		}
	}
	if len(seen) != len(lower.Policies()) {
		t.Errorf("policies shown: %v", seen)
	}
	var sb strings.Builder
	if err := r.WriteText(&sb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1. The program", "2. The problem", "3. seam lowers", "4. Original and lowered", "rederive"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("text lacks %q", want)
		}
	}
}

func TestDemoHTML(t *testing.T) {
	r, err := demo.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := r.WriteHTML(&sb); err != nil {
		t.Fatal(err)
	}
	page := sb.String()
	for _, want := range []string{"<svg", "2. The problem", "Symbolic values crossing a partition boundary", "sym_size_int_24"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

package verify_test

import (
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/verify"
)

// TestArchive: a lowered archive verifies clean, and a module whose record
// claims a contract it breaks (the naive cut: a SymInt handed to a
// tensor-only backend) is reported against that module.
func TestArchive(t *testing.T) {
	p := load(t, "gpt2_tiny")
	prof, _ := backend.Builtin("tensor-only")
	res, err := lower.Lower(p, prof, lower.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if vs := verify.Archive(res.Archive()); len(vs) > 0 {
		t.Errorf("clean lowering: %v", vs)
	}
	relaxed := *prof
	relaxed.Name = "relaxed-npu"
	relaxed.Placeholders.SymInt = backend.Scalar
	res, err = lower.Lower(p, &relaxed, lower.Options{Policy: lower.Fail})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Archive()
	var sb strings.Builder
	prof.WriteJSON(&sb)
	for _, d := range a.Delegates {
		d.Backend, d.Profile = "tensor-only", []byte(sb.String())
	}
	vs := verify.Archive(a)
	if len(vs) == 0 {
		t.Fatal("a SymInt placeholder passed a tensor-only contract")
	}
	for _, v := range vs {
		if v.Rule != verify.ContractSymbolic || !strings.HasPrefix(v.Graph, "lowered_module_") || v.Node != "sym_size_int_24" {
			t.Errorf("unexpected %v", v)
		}
	}
	// A record that claims tensor-only takes SymInts is not believed:
	// the difference is reported, and the module is checked against
	// tensor-only's own contract.
	sb.Reset()
	relaxed.Name = "tensor-only"
	relaxed.WriteJSON(&sb)
	for _, d := range a.Delegates {
		d.Profile = []byte(sb.String())
	}
	rules := map[verify.Rule]int{}
	for _, v := range verify.Archive(a) {
		rules[v.Rule]++
	}
	if rules[verify.ContractRecorded] != len(a.Delegates) || rules[verify.ContractSymbolic] != len(a.Delegates) {
		t.Errorf("a lying record: %v", rules)
	}
	if _, err := lower.Lower(p, &relaxed, lower.Options{}); err == nil || !strings.Contains(err.Error(), "give the profile a name of its own") {
		t.Errorf("lowering under a registered name with another contract: %v", err)
	}
	delete(a.Delegates, "lowered_module_0")
	flagged := false
	for _, v := range verify.Errors(verify.Archive(a)) {
		flagged = flagged || (v.Rule == verify.DelegateCall && v.Graph == "lowered_module_0")
	}
	if !flagged {
		t.Error("a called module without a delegate record is not an error")
	}
}

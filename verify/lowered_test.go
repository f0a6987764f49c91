package verify_test

import (
	"strings"
	"testing"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/delegate"
	"github.com/seam-rt/seam/lower"
	"github.com/seam-rt/seam/verify"
)

// TestLowered: a lowered program verifies clean, and a module whose record
// claims a contract it breaks (the naive cut: a SymInt handed to a
// tensor-only backend) is reported against that module.
func TestLowered(t *testing.T) {
	p := load(t, "gpt2_tiny")
	prof, _ := backend.Builtin("tensor-only")
	res, err := delegate.Program(p, prof, delegate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if vs := verify.Lowered(res.Lowered); len(vs) > 0 {
		t.Errorf("clean lowering: %v", vs)
	}
	relaxed := *prof
	relaxed.Name = "relaxed-npu"
	relaxed.Placeholders.SymInt = backend.Scalar
	res, err = delegate.Program(p, &relaxed, delegate.Options{Policy: lower.Fail})
	if err != nil {
		t.Fatal(err)
	}
	l := res.Lowered
	var sb strings.Builder
	prof.WriteJSON(&sb)
	for _, m := range l.Modules {
		m.Delegate.Backend, m.Delegate.Contract = "tensor-only", []byte(sb.String())
	}
	vs := verify.Lowered(l)
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
	for _, m := range l.Modules {
		m.Delegate.Contract = []byte(sb.String())
	}
	rules := map[verify.Rule]int{}
	for _, v := range verify.Lowered(l) {
		rules[v.Rule]++
	}
	if rules[verify.ContractRecorded] != len(l.Modules) || rules[verify.ContractSymbolic] != len(l.Modules) {
		t.Errorf("a lying record: %v", rules)
	}
	if _, err := delegate.Program(p, &relaxed, delegate.Options{}); err == nil || !strings.Contains(err.Error(), "give the profile a name of its own") {
		t.Errorf("lowering under a registered name with another contract: %v", err)
	}
	l.Modules["lowered_module_0"].Delegate = nil
	flagged := false
	for _, v := range verify.Errors(verify.Lowered(l)) {
		flagged = flagged || (v.Rule == verify.DelegateCall && v.Graph == "lowered_module_0")
	}
	if !flagged {
		t.Error("a called module without a delegate record is not an error")
	}
}

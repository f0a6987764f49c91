package backend

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/seam-rt/seam/ir"
)

// A built-in profile recorded as lowering records it (its JSON) has no
// differences from itself: lowered programs keep running.
func TestRecordedBuiltinsAgree(t *testing.T) {
	for _, name := range BuiltinNames() {
		p, _ := Builtin(name)
		rec, _ := json.Marshal(p)
		a, err := ContractAuthority(name, rec)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Differences) > 0 {
			t.Errorf("%s: %v", name, a.Differences)
		}
		if c, err := a.Contract(false); err != nil || c.Name != name {
			t.Errorf("%s: %v %v", name, c, err)
		}
	}
}

// TestRecordedContractIsNotTheAuthority: a record that claims tensor-only
// takes SymInts is reported, refused, and used only when trusted.
func TestRecordedContractIsNotTheAuthority(t *testing.T) {
	p, _ := Builtin("tensor-only")
	p.Placeholders.SymInt = Scalar
	rec, _ := json.Marshal(p)
	a, err := ContractAuthority("tensor-only", rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Differences) != 1 || a.Differences[0] != "placeholders.sym_int: int recorded, refuse registered" {
		t.Errorf("differences %q", a.Differences)
	}
	_, err = a.Contract(false)
	var rce *RecordedContractError
	if !errors.As(err, &rce) || !strings.Contains(err.Error(), "--trust-recorded-contract") {
		t.Errorf("untrusted: %v", err)
	}
	if c, err := a.Contract(true); err != nil || c.Placeholders.SymInt != Scalar {
		t.Errorf("trusted: %v %v", c, err)
	}
	// A backend nothing registers has only its record.
	p.Name = "my-npu"
	rec, _ = json.Marshal(p)
	a, _ = ContractAuthority("my-npu", rec)
	if c, err := a.Contract(false); err != nil || c.Name != "my-npu" {
		t.Errorf("unregistered: %v %v", c, err)
	}
	if _, err := (&Authority{Backend: "nobody"}).Contract(false); err == nil {
		t.Error("no contract at all accepted")
	}
}

type declaring struct{ p *Profile }

func (declaring) Compile(*ir.Program, map[string]string) (Executable, error) { return nil, nil }
func (d declaring) Contract() *Profile                                       { return d.p }

// A registered compiler's declared contract is the authority.
func TestDeclaredContract(t *testing.T) {
	p, _ := Builtin("scalar-args")
	p.Name = "declared-npu"
	Register("declared-npu", declaring{p})
	got, ok := RegisteredContract("declared-npu")
	if !ok || got != p {
		t.Errorf("got %v %v", got, ok)
	}
}

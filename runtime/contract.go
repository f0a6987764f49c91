package runtime

import (
	"fmt"

	"github.com/seam-rt/seam/backend"
	"github.com/seam-rt/seam/ir"
)

// contract is the contract a module's calls are checked against: the
// registered backend's, never a delegate record's word for it, unless
// Options.TrustRecordedContract says so or nothing is registered under
// the backend's name (see backend.Authority).
func (l *Loader) contract(module string, d *ir.Delegate) (*backend.Profile, error) {
	a, err := backend.ContractAuthority(d.Backend, d.Contract)
	if err == nil {
		var prof *backend.Profile
		if prof, err = a.Contract(l.opt.TrustRecordedContract); err == nil {
			return prof, nil
		}
	}
	return nil, fmt.Errorf("module %s: %w", module, err)
}

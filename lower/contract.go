package lower

import (
	"fmt"
	"strings"

	"github.com/seam-rt/seam/backend"
)

// checkProfileName refuses a profile that takes the name of a registered
// backend (a built-in one) but declares another contract: the modules
// would be recorded under that backend's name, and at run time its own
// contract, not the profile's, is the authority (backend.Authority).
func checkProfileName(prof *backend.Profile) error {
	reg, ok := backend.RegisteredContract(prof.Name)
	if !ok {
		return nil
	}
	d := prof.Differences(reg)
	if len(d) == 0 {
		return nil
	}
	return &Error{Msg: fmt.Sprintf("the profile is named %s, as a registered backend whose contract differs (%s): "+
		"modules lowered under that name would be checked against the registered contract when run; give the profile a name of its own",
		prof.Name, strings.ReplaceAll(strings.Join(d, "; "), " recorded,", " in the profile,"))}
}

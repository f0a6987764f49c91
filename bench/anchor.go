package bench

import (
	"os/exec"
)

// floatsShim runs one of ../shared/tools' scripts (its path and arguments
// follow) with json.loads reading a PT2 program as torch.export's loader
// does: the export schema writes inf, -inf and NaN as the strings
// "Infinity", "-Infinity" and "NaN" (json.dumps with allow_nan=False), and
// the loader turns any float-typed value back with float(). The scripts
// pass such a string on as it is, so aten.full(size, "-Infinity") fails in
// torch (a causal mask's fill value); this converts the float-typed fields
// only, so the script sees what torch.export.load would.
const floatsShim = `
import json, runpy, sys
SPECIAL = ("Infinity", "-Infinity", "NaN")
def fl(v):
    return float(v) if isinstance(v, str) and v in SPECIAL else v
def hook(d):
    if "as_float" in d:
        d["as_float"] = fl(d["as_float"])
    if isinstance(d.get("as_floats"), list):
        d["as_floats"] = [fl(x) for x in d["as_floats"]]
    return d
loads = json.loads
json.loads = lambda s, *a, **k: loads(s, *a, object_hook=hook, **k) if not a and "object_hook" not in k else loads(s, *a, **k)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
`

// anchorCommand is the command that runs one of the anchor scripts with
// floatsShim in front of it.
func anchorCommand(script string, args ...string) *exec.Cmd {
	return exec.Command("/usr/bin/python3", append([]string{"-c", floatsShim, script}, args...)...)
}

#!/usr/bin/env bash
# Checks the HTML partition report of a 1,341-node GPT-2 (gpt2_l12 grown to
# 24 blocks by fixtures/synth) in headless Chromium: search by node name,
# the panel that says why a node is or is not delegated, clicks, zoom, pan
# and #node= links (scripts/check-report-browser.js), on two pages: the
# matmul-only backend, which leaves 1,196 nodes to the parent and so draws
# 1,344 boxes, and an NPU-like profile without layer norm, whose partitions
# receive the symbolic sequence length. It prints page sizes and load
# times, times Graphviz on the --dot files, and writes the screenshot the
# docs show.
#
#   scripts/check-report-browser.sh [OUT.png]
#
# Needs Go, Node, npm (playwright-core is installed into a temporary
# folder unless PLAYWRIGHT_CORE names one), Chromium (CHROMIUM, default
# /usr/bin/chromium; Debian: apt-get install -y chromium) and Graphviz's
# dot for the timings (skipped without it).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/docs/images/partition-gpt2_l24-npu.png}
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
[[ -x $CHROMIUM ]] || { echo "check-report-browser: no Chromium at $CHROMIUM (apt-get install -y chromium)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z ${PLAYWRIGHT_CORE:-} ]]; then
	(cd "$tmp" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund playwright-core@1.65.1 >/dev/null)
	export PLAYWRIGHT_CORE=$tmp/node_modules/playwright-core
fi

cd "$root"
go build -o "$tmp/seam" ./cmd/seam
go run ./fixtures/synth/gpt2deep -layers 24 -o "$tmp/gpt2_l24.pt2"
cat >"$tmp/npu.json" <<'PROFILE'
{"name": "npu-no-layernorm",
 "ops": {"include": ["aten.*"],
         "exclude": ["aten.sym_*", "aten.embedding*", "aten.index*", "aten.native_layer_norm.*"]},
 "placeholders": {"sym_int": "refuse", "sym_bool": "refuse", "sym_float": "refuse"}}
PROFILE

for b in matmul-only "$tmp/npu.json"; do
	name=$(basename "$b" .json)
	"$tmp/seam" partition "$tmp/gpt2_l24.pt2" --backend "$b" --html "$tmp/$name.html" --dot "$tmp/$name.dot" >/dev/null
	echo "$name: HTML $(wc -c <"$tmp/$name.html") bytes, DOT $(wc -c <"$tmp/$name.dot") bytes"
	if command -v dot >/dev/null; then
		start=$(date +%s.%N)
		timeout 300 dot -Tsvg "$tmp/$name.dot" -o "$tmp/$name.svg"
		echo "$name: dot -Tsvg took $(echo "$(date +%s.%N) - $start" | bc) s"
	fi
done

mkdir -p "$(dirname "$out")"
node scripts/check-report-browser.js "$tmp/matmul-only.html" "$tmp/matmul-only.png" native_layer_norm_20 addmm_40
node scripts/check-report-browser.js "$tmp/npu.html" "$out" native_layer_norm_20 addmm_40
echo "$out"

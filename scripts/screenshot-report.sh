#!/usr/bin/env bash
# Builds the HTML partition report of a fixture model (default: gpt2_tiny
# with the tensor-only backend) and takes a screenshot of it in headless
# Chromium, so that a person can check the page renders and reads well.
#
#   scripts/screenshot-report.sh [OUT.png]
#   MODEL=gpt2_l12 BACKEND=scalar-args scripts/screenshot-report.sh /tmp/l12.png
#
# Needs Go and Chromium (Debian: apt-get install -y chromium). The default
# output is the image the docs show.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
model=${MODEL:-gpt2_tiny}
backend=${BACKEND:-tensor-only}
out=${1:-$root/docs/images/partition-$model-$backend.png}
size=${WINDOW_SIZE:-1400,1800}

browser=${CHROMIUM:-}
if [[ -z $browser ]]; then
	for b in chromium chromium-browser google-chrome; do
		if command -v "$b" >/dev/null; then
			browser=$b
			break
		fi
	done
fi
if [[ -z $browser ]]; then
	echo "screenshot-report: no Chromium on PATH (apt-get install -y chromium, or set CHROMIUM)" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
go build -o "$tmp/seam" ./cmd/seam
"$tmp/seam" partition "fixtures/models/$model/model.pt2" --backend "$backend" --html "$tmp/report.html" >/dev/null
mkdir -p "$(dirname "$out")"
# --no-sandbox: Chromium refuses to run as root otherwise (containers, CI).
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
	--no-first-run --hide-scrollbars --user-data-dir="$tmp/profile" \
	--window-size="$size" --screenshot="$out" "file://$tmp/report.html" 2>"$tmp/chromium.log" ||
	{ cat "$tmp/chromium.log" >&2; exit 1; }
[[ -s $out ]] || { echo "screenshot-report: Chromium wrote no $out" >&2; cat "$tmp/chromium.log" >&2; exit 1; }
echo "$out"

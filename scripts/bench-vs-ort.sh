#!/usr/bin/env bash
# The README's speed figures, in one run: names the machine and its load, then
#  1. one core (taskset -c 0, inherited by the reference scripts): seam on one
#     thread against ONNX Runtime 1.30 and torch 1.13 (one thread each, through
#     ../shared/tools), ratios first, in interleaved rounds;
#  2. the matrix kernel on that core against OpenBLAS (through torch.mm);
#  3. every core: seam on one goroutine against two (--threads), per fixture
#     and for a 1024² product;
#  4. reading and partitioning on that core, in CPU time (go test benchmarks:
#     gpt2_l12 and the generated 64,000- and 200,000-node programs), beside
#     Python's json.loads on the same bytes.
# Needs ../shared/tools, node with ONNX Runtime (setup-ort.sh) and torch.
# SEAM_BENCH_TIME (default 1s) is seam's time per figure and round.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${1:-../shared/tools}
t=${SEAM_BENCH_TIME:-1s}
cores=$(nproc)
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $cores cores, $(grep -o -m1 'avx512f' /proc/cpuinfo || echo 'no AVX-512'); $(date -u +%Y-%m-%dT%H:%MZ)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# The same library in this process too, for the columns on seam's own
# ONNX export (seam export onnx run by ONNX Runtime through its C API).
SEAM_ONNXRUNTIME_LIB=${SEAM_ONNXRUNTIME_LIB:-$(bash "$tools/setup-ort.sh")}
export SEAM_ONNXRUNTIME_LIB
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/seam" ./cmd/seam
# A section whose command reports a failed row (torch_run.py cannot run a
# case, say) still prints its table; the run goes on and says so, and the
# script's status is the worst one.
status=0
section() {
	local rc=0
	"$@" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "(exit status $rc)"
		status=$rc
	fi
}
echo
echo "## one core (taskset -c 0)"
section taskset -c 0 "$bin/seam" bench run --torch "$tools" --time "$t" --rounds 3
echo
echo "## matrix kernel, one core (taskset -c 0)"
section taskset -c 0 "$bin/seam" bench gemm --torch "$tools" --time "$t" --rounds 3
echo
echo "## $cores cores: seam on one goroutine and on $cores"
section "$bin/seam" bench run --threads "$cores" --time "$t" --rounds 3
section "$bin/seam" bench gemm --threads "$cores" --time "$t" --rounds 5
echo
echo "## reading and partitioning, one core (taskset -c 0), CPU time per operation"
json="$bin/json"
mkdir -p "$json"
section taskset -c 0 go test ./pt2 -run NONE -bench 'DecodeProgram/(gpt2_l12|chain_64000|chain_200000)(/stream)?$|ReadChain|Read/gpt2_l12$' -benchtime 5x -args -json-dir "$json"
section taskset -c 0 /usr/bin/python3 scripts/json_loads.py "$json/gpt2_l12.json" "$json/chain_64000.json"
section taskset -c 0 go test ./cmd/seam -run NONE -bench 'PartitionReport' -benchtime 5x
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"

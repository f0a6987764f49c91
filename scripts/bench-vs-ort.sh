#!/usr/bin/env bash
# The README's speed figures: seam on one thread against ONNX Runtime 1.30 and
# torch 1.13 (one thread each, through ../shared/tools), plus seam on every
# core, for the fixtures `seam bench run` times. Names the machine first.
# Needs ../shared/tools, node with ONNX Runtime (setup-ort.sh) and torch.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${1:-../shared/tools}
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(grep -o -m1 'avx512f' /proc/cpuinfo || echo 'no AVX-512'); $(date -u +%Y-%m-%d)"
bash "$tools/setup-ort.sh" >/dev/null
go run ./cmd/seam bench run --torch "$tools" --time "${SEAM_BENCH_TIME:-2s}"

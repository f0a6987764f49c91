#!/usr/bin/env bash
# Installs ONNX Runtime (CPU) for seam's onnxruntime backend from the npm package onnxruntime-node,
# which ships the plain shared library with ORT's C API, and prints the library's path. The
# package's own install script (which fetches GPU files) is skipped. Usage:
#   bash scripts/install-onnxruntime.sh [DIR]     (default ~/.cache/seam/onnxruntime, where seam looks)
#   export SEAM_ONNXRUNTIME_LIB=$(bash scripts/install-onnxruntime.sh)
set -euo pipefail
version=1.30.0
dir=${1:-$HOME/.cache/seam/onnxruntime}
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "install-onnxruntime: no ONNX Runtime build for $(uname -m)" >&2; exit 1 ;;
esac
lib=$dir/node_modules/onnxruntime-node/bin/napi-v6/linux/$arch/libonnxruntime.so.1
if [ ! -f "$lib" ]; then
  mkdir -p "$dir"
  cd "$dir"
  [ -f package.json ] || npm init -y >/dev/null
  tgz=$(npm pack --silent "onnxruntime-node@$version" | tail -1)
  npm install --ignore-scripts --no-audit --no-fund "./$tgz" >/dev/null
  rm -f "$tgz"
fi
[ -f "$lib" ] || { echo "install-onnxruntime: $lib is missing after the install" >&2; exit 1; }
echo "$lib"

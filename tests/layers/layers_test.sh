#!/usr/bin/env bash
# layers_test.sh SOURCE_DIR: the repository's include graph has no back edge, and the checker
# does catch one (a copy of the tree with a runtime header including a gemm header fails).
set -euo pipefail

source=$1
check=$(dirname "$0")/check_layers.sh
bash "$check" "$source"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$source/src" "$source/tools" "$scratch/"
echo '#include "gemm/driver.hpp"' >>"$scratch/src/runtime/settings.hpp"
if bash "$check" "$scratch" >"$scratch/out"; then
  echo "FAIL: the checker accepted runtime including gemm" >&2
  exit 1
fi
grep -q 'runtime may not use gemm' "$scratch/out" || { cat "$scratch/out" >&2; exit 1; }
echo "a back edge (runtime -> gemm) is caught"

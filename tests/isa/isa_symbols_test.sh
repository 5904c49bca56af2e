#!/usr/bin/env bash
# isa_symbols_test.sh CXX BASE_OBJECTS [ISA ISA_OBJECTS]...: the library's objects pass
# check_isa_symbols.sh, and the check does catch a per-ISA unit built without -fwhole-program
# (its std::vector instantiations keep external linkage).
set -euo pipefail

cxx=$1
shift
check=$(dirname "$0")/check_isa_symbols.sh
bash "$check" "$@"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/unit.cpp" <<'CPP'
#include <vector>
namespace ridge::avx2 {
int entry(int n) { return static_cast<int>(std::vector<int>(n, 1).size()); }
}
CPP
"$cxx" -std=c++20 -O0 -c "$scratch/unit.cpp" -o "$scratch/unit.o"
if bash "$check" "$1" avx2 "$scratch/unit.o" >"$scratch/out"; then
  echo "FAIL: the check accepted a unit whose std::vector code has external linkage" >&2
  exit 1
fi
grep -q 'std::vector' "$scratch/out" || { cat "$scratch/out" >&2; exit 1; }
echo "a unit built without -fwhole-program is caught"

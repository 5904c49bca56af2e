#!/usr/bin/env bash
# preload_test.sh LIBRIDGE REFERENCE_BLAS_DIR [ALTERNATIVE_DIR]
# Builds blas_program.c against Debian's reference BLAS, runs it on the reference BLAS alone
# (which validates the program's own checks), then with libridge.so preloaded, as a user would
# run an existing program on ridge, and, given ALTERNATIVE_DIR, on ridge's libblas.so.3 found
# there first (what the libblas.so.3 alternative does). Passes when every run's results are
# within rounding and ridge's RIDGE_VERBOSE log shows that ridge, not the reference, ran each
# routine.
set -euo pipefail

libridge=$1 reference=$2 alternative=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cc -O1 "$here/blas_program.c" -L"$reference" -lblas -lm -o "$scratch/blas_program"

# The reference BLAS alone: LD_LIBRARY_PATH puts its libblas.so.3 ahead of the system's choice
# (the libblas.so.3 alternative, often OpenBLAS).
LD_LIBRARY_PATH=$reference "$scratch/blas_program" >"$scratch/reference.out" \
  2>"$scratch/reference.err" || { cat "$scratch/reference.out" >&2; fail "reference run"; }
! grep -q '^ridge:' "$scratch/reference.err" || fail "ridge ran without being preloaded"

# run_on_ridge NAME ENV...: runs the program under ENV, checks that each routine ran on ridge.
run_on_ridge() {
  local name=$1
  shift
  env "$@" RIDGE_VERBOSE=1 "$scratch/blas_program" >"$scratch/$name.out" 2>"$scratch/$name.err" ||
    { cat "$scratch/$name.out" "$scratch/$name.err" >&2; fail "$name run"; }
  cat "$scratch/$name.out"
  for routine in cblas_sgemm cblas_dgemm sgemm_ dgemm_ cblas_sgemv cblas_dgemv sgemv_ dgemv_; do
    grep -qx "ridge: $routine called" "$scratch/$name.err" ||
      fail "$name run: $routine did not reach ridge"
  done
  echo "$name run: every routine ran on ridge"
}

run_on_ridge preload LD_LIBRARY_PATH="$reference" LD_PRELOAD="$libridge"
if [[ -n $alternative ]]; then
  run_on_ridge alternative LD_LIBRARY_PATH="$alternative"
  grep -q '^ridge: libblas.so.3 is ridge' "$scratch/alternative.err" ||
    fail "the alternative run did not load ridge's libblas.so.3"
fi

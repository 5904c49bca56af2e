#!/usr/bin/env bash
# preload_test.sh LIBRIDGE REFERENCE_BLAS_DIR
# Builds blas_program.c against Debian's reference BLAS, runs it on the reference BLAS alone
# (which validates the program's own checks) and then with libridge.so preloaded, as a user
# would run an existing program on ridge; passes when both runs' results are within rounding
# and ridge's RIDGE_VERBOSE log shows that ridge, not the reference, ran each routine.
set -euo pipefail

libridge=$1 reference=$2
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

LD_LIBRARY_PATH=$reference LD_PRELOAD=$libridge RIDGE_VERBOSE=1 "$scratch/blas_program" \
  >"$scratch/ridge.out" 2>"$scratch/ridge.err" ||
  { cat "$scratch/ridge.out" "$scratch/ridge.err" >&2; fail "run on ridge"; }
cat "$scratch/ridge.out"
for routine in cblas_sgemm cblas_dgemm sgemm_ dgemm_ cblas_sgemv cblas_dgemv sgemv_ dgemv_; do
  grep -qx "ridge: $routine called" "$scratch/ridge.err" || fail "$routine did not reach ridge"
done
echo "every routine ran on ridge"

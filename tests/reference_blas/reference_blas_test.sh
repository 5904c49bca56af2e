#!/usr/bin/env bash
# reference_blas_test.sh LIBRIDGE PROGRAMS_DIR
# Debian's reference BLAS test programs (libblas-test: CBLAS and Fortran, levels 2 and 3, single
# and double precision) run with libridge.so preloaded over the reference BLAS of PROGRAMS_DIR.
# They exit 0 even when tests fail, so their reports decide: each program must reach its end,
# flag no error, and say PASSED for ridge's routine in the error-exit and computational tests,
# and ridge's RIDGE_VERBOSE log must show that ridge, not the reference, ran that routine.
set -euo pipefail

libridge=$(realpath "$1") programs=$(realpath "$2")  # used from the programs' own directories
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Every failure message of the programs is framed by asterisks; the words catch the rest, and
# ridge's own "failed" on stderr.
error_markers='fail|instead of|not detected|not recognized|fatal|suspect|abandoned|\*\*\*'

# check PROGRAM INPUT ENTRY ROUTINE TESTS...: runs PROGRAM on INPUT in a directory of its own
# (the programs write files into the current one). ENTRY is ridge's entry point that the program
# tests, as RIDGE_VERBOSE logs it, ROUTINE its name in the report, and each of TESTS the end of a
# "ROUTINE PASSED THE ..." line the report must have.
check() {
  local program=$1 input=$2 entry=$3 routine=$4
  shift 4
  local dir=$scratch/$program
  local status=0
  mkdir "$dir"
  (cd "$dir" && LD_LIBRARY_PATH=$programs LD_PRELOAD=$libridge RIDGE_VERBOSE=1 \
    "$programs/$program" <"$programs/$input" >stdout 2>stderr) || status=$?
  ((status == 0)) || { cat "$dir/stderr" >&2; fail "$program exited with status $status"; }

  # The Fortran programs write their report to the summary file their input's first line names,
  # the CBLAS ones to stdout.
  local report=$dir/stdout first_line
  first_line=$(head -n 1 "$programs/$input")
  if [[ $first_line == *"SUMMARY OUTPUT FILE"* ]]; then
    report=$dir/$(cut -d "'" -f 2 <<<"$first_line")
  fi
  [[ -s $report ]] || fail "$program wrote no report"

  grep -q 'END OF TESTS' "$report" || { cat "$report" >&2; fail "$program stopped early"; }
  local outputs=("$report" "$dir/stderr")
  [[ $report == "$dir/stdout" ]] || outputs+=("$dir/stdout")
  if grep -i -E "$error_markers" "${outputs[@]}" >&2; then
    fail "$program reported errors"
  fi
  for test in "$@"; do
    grep -E "^ +$routine +PASSED THE $test" "$report" || fail "$program: $routine not PASSED $test"
  done
  grep -qx "ridge: $entry called" "$dir/stderr" || fail "$program: $entry did not reach ridge"
}

cblas=("TESTS OF ERROR-EXITS" "COLUMN-MAJOR COMPUTATIONAL TESTS" "ROW-MAJOR +COMPUTATIONAL TESTS")
fortran=("TESTS OF ERROR-EXITS" "COMPUTATIONAL TESTS")
check xscblat2 sin2 cblas_sgemv cblas_sgemv "${cblas[@]}"
check xdcblat2 din2 cblas_dgemv cblas_dgemv "${cblas[@]}"
check xscblat3 sin3 cblas_sgemm cblas_sgemm "${cblas[@]}"
check xdcblat3 din3 cblas_dgemm cblas_dgemm "${cblas[@]}"
check xblat2s sblat2.in sgemv_ SGEMV "${fortran[@]}"
check xblat2d dblat2.in dgemv_ DGEMV "${fortran[@]}"
check xblat3s sblat3.in sgemm_ SGEMM "${fortran[@]}"
check xblat3d dblat3.in dgemm_ DGEMM "${fortran[@]}"
echo "all eight reference BLAS test programs passed on ridge"

#!/bin/bash
# `ridge bench gemm --vs <another libridge.so>` times the other build beside ridge, as a
# reference for a change, but never counts it as a peer: no "vs best" from it.
# Usage: bench_reference_test.sh RIDGE_CLI LIBRIDGE
set -euo pipefail
cli=$1 library=$2
out=$("$cli" bench gemm --threads 1 --runs 1 --shapes 16x16x16 --vs "$library")
fail() { echo "FAIL: $1"; echo "$out"; exit 1; }
grep -q "^peer kernels: $library ridge " <<<"$out" || fail "the build is not named a ridge build"
row=$(grep '^16x16x16 ' <<<"$out") || fail "no row"
grep -Eq '[0-9.]+x' <<<"$row" || fail "no ratio against the build"
! grep -q 'vs best' <<<"$row" || fail "a ridge build counted as the best peer"
grep -q 'vs best peer per shape -$' <<<"$out" || fail "a mean over peers that did not run"
echo "ok"

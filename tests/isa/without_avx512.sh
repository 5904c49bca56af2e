#!/usr/bin/env bash
# without_avx512.sh TESTS: runs the kernel-level tests of every ISA path on an emulated CPU with
# AVX2 and FMA but no AVX-512 (qemu-x86_64 user mode, -cpu Haswell). Code of the generic or AVX2
# path that the linker had taken from an AVX-512 unit would stop there on an illegal instruction.
# Passes only when the generic and AVX2 instances ran and passed and the AVX-512 ones were
# skipped, so it cannot pass by skipping everything. Exit 77 (skipped) without qemu-x86_64
# (Debian: qemu-user).
set -euo pipefail

tests=$1
qemu=$(command -v qemu-x86_64) || { echo "qemu-x86_64 not found: skipped"; exit 77; }
filter='Isa/GemmLoops.*:Isa/VectorKernels.*:Isa/AttentionKernels.*:Isa/Exp2Kernels.*'
filter+=':Isa/BandwidthKernels.*:PeakLoops.CountTheOperationsTheyDo'
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# RIDGE_ISA unset: the library picks what the emulated CPU has, as it would on such a machine.
env -u RIDGE_ISA "$qemu" -cpu Haswell "$tests" --gtest_filter="$filter" >"$scratch/out" 2>&1 ||
  { cat "$scratch/out"; echo "FAIL: the kernel tests failed on the emulated CPU"; exit 1; }
# A test's result line ends in its time, "(12 ms)"; the summary's list of skips does not.
ran() { grep -c "^\[       OK \] .*/$1 (" "$scratch/out" || true; }
skipped() { grep -c "^\[  SKIPPED \] .*/$1 (" "$scratch/out" || true; }
echo "on qemu -cpu Haswell: generic $(ran generic) passed, avx2 $(ran avx2) passed," \
  "avx512 $(skipped avx512) skipped"
(($(ran generic) > 0 && $(ran avx2) > 0)) || { cat "$scratch/out"; echo "FAIL: a path did not run"; exit 1; }
(($(skipped avx512) > 0 && $(ran avx512) == 0)) ||
  { cat "$scratch/out"; echo "FAIL: the AVX-512 path was not skipped"; exit 1; }

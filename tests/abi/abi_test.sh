#!/usr/bin/env bash
# abi_test.sh LIBRIDGE INCLUDE_DIR
# What libridge.so shows a program: it exports exactly the BLAS routines, the error handlers
# (weak, and really replaceable by a program's own), the reference CBLAS's RowMajorStrg flag (data,
# which a program's handler reads) and the C and C++ API -- nothing that could shadow another
# library's symbols when it is preloaded.
set -euo pipefail

libridge=$1 include=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

blas="cblas_sgemm cblas_dgemm cblas_sbgemm cblas_sgemv cblas_dgemv sgemm_ dgemm_ sgemv_ dgemv_"
handlers="cblas_xerbla xerbla_"
data="RowMajorStrg"

# nm -D: "ADDRESS TYPE NAME" for each defined dynamic symbol.
nm -D --defined-only "$libridge" >"$scratch/symbols"
while read -r _ type name; do
  case " $blas " in
    *" $name "*) [[ $type == T ]] || fail "$name is not a plain function"; continue ;;
  esac
  case " $handlers " in
    *" $name "*) [[ $type == W ]] || fail "$name is not weak"; continue ;;
  esac
  case " $data " in
    *" $name "*) [[ $type == [BD] ]] || fail "$name is not a variable"; continue ;;
  esac
  [[ $name == ridge_* ]] && continue
  demangled=$(c++filt "$name")
  [[ $demangled == ridge::* ]] || fail "libridge.so exports $name ($demangled)"
done <"$scratch/symbols"
for name in $blas $handlers $data; do
  grep -q " $name\$" "$scratch/symbols" || fail "$name is not exported"
done
echo "exports: $(wc -l <"$scratch/symbols") symbols, all BLAS, handlers, $data or ridge's API"

cc "$(dirname "$0")/own_xerbla.c" -I"$include" "$libridge" -o "$scratch/own_xerbla"
LD_LIBRARY_PATH=$(dirname "$libridge") "$scratch/own_xerbla"

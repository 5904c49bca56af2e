#!/usr/bin/env bash
# install_and_build.sh CMAKE BUILD_DIR SOURCE_DIR CXX LIBDIR INCLUDEDIR VERSION
# Installs BUILD_DIR into a scratch prefix, checks what landed there, then builds and runs
# SOURCE_DIR/examples against it with find_package and, where pkg-config exists, with ridge.pc;
# and a program that calls every function libridge.so exports, through ridge/ridge.hpp alone.
set -euo pipefail

cmake=$1 build=$2 source=$3 cxx=$4 libdir=$5 includedir=$6 version=$7
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix lib=$scratch/prefix/$libdir

fail() { echo "FAIL: $*" >&2; exit 1; }

# A DESTDIR in the environment would move the install away from the prefix checked below.
DESTDIR='' "$cmake" --install "$build" --prefix "$prefix"

headers=$(cd "$source/include/ridge" && ls)
for header in $headers; do
  [[ -f $prefix/$includedir/ridge/$header ]] || fail "header ridge/$header not installed"
done
# libridge.so -> libridge.so.MAJOR -> libridge.so.VERSION, and the SONAME the loader looks for.
so=libridge.so soname=libridge.so.${version%%.*} real=libridge.so.$version
[[ $(readlink "$lib/$so") == "$soname" ]] || fail "$so does not name $soname"
[[ $(readlink "$lib/$soname") == "$real" ]] || fail "$soname does not name $real"
[[ -f $lib/$real && ! -L $lib/$real ]] || fail "$real not installed"
dynamic=$(readelf -d "$lib/$real")
[[ $dynamic == *"Library soname: [$soname]"* ]] || fail "SONAME of $real is not $soname"
for file in ridgeConfig.cmake ridgeConfigVersion.cmake ridgeTargets.cmake; do
  [[ -f $lib/cmake/ridge/$file ]] || fail "cmake/ridge/$file not installed"
done
pc=$lib/pkgconfig/ridge.pc
[[ -f $pc ]] || fail "pkgconfig/ridge.pc not installed"
# The prefix is the one given to --install, not the one configured.
grep -qxF "prefix=$prefix" "$pc" || fail "ridge.pc: prefix is not $prefix"
grep -qxF "libdir=\${prefix}/$libdir" "$pc" || fail "ridge.pc: wrong libdir"
grep -qxF "includedir=\${prefix}/$includedir" "$pc" || fail "ridge.pc: wrong includedir"
grep -qxF "Libs: -L\${libdir} -lridge" "$pc" || fail "ridge.pc: wrong Libs"
grep -qxF "Cflags: -I\${includedir}" "$pc" || fail "ridge.pc: wrong Cflags"

# The loader does not search the scratch prefix (CMake's builds also carry an RPATH to it).
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
"$cmake" -S "$source/examples" -B "$scratch/examples" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix"
"$cmake" --build "$scratch/examples"
"$scratch/examples/gemm_example"
"$scratch/examples/cblas_example"

if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --cflags --libs ridge)
  # Unquoted on purpose: the flags are separate words.
  # shellcheck disable=SC2086
  cc "$source/examples/cblas_example.c" $flags -o "$scratch/cblas_pkg_config"
  "$scratch/cblas_pkg_config"
else
  echo "pkg-config not found: ridge.pc checked by its text only" >&2
fi

# Every public function, linked against the installed copy. The umbrella header brings in every
# public header, and the program references every function symbol libridge.so exports (the
# weak error handlers, it defines itself).
program=$source/tests/packaging/every_public_function.cpp
included=$("$cxx" -std=c++20 -M -I"$prefix/$includedir" "$program")
for header in $headers; do
  [[ $included == *"ridge/$header"* ]] || fail "ridge/ridge.hpp does not bring in ridge/$header"
done
"$cxx" -std=c++20 -I"$prefix/$includedir" "$program" -L"$lib" -lridge -o "$scratch/every_function"
exported=$(nm -D --defined-only "$lib/$real" | awk '$2 == "T" || $2 == "W" {print $3}')
referenced=$(nm -D "$scratch/every_function" | awk '{print $NF}')
missing=0
for symbol in $exported; do
  # A constructor's or destructor's base-object symbol (C2, D2) is the complete-object one (C1,
  # D1) under a second name where the class has no virtual base: a program calls that one.
  complete=$(sed -E 's/C2E/C1E/; s/D2Ev$/D1Ev/' <<<"$symbol")
  grep -qxF "$symbol" <<<"$referenced" || grep -qxF "$complete" <<<"$referenced" ||
    { echo "not called: $(c++filt "$symbol")" >&2; missing=1; }
done
((missing == 0)) || fail "the program does not call every exported function"
XDG_CACHE_HOME=$scratch/cache "$scratch/every_function"
echo "every one of the $(wc -w <<<"$exported") exported functions called from the installed copy"

// libblas.so.3 for Debian's BLAS alternatives (cmake/blas_alternative.cmake). It has no routine
// of its own: its DT_NEEDED entries, libridge.so.0 first and then a complete BLAS, put both in
// the program's global symbol scope in that order, so the dynamic linker finds each BLAS symbol
// a program wants from libblas.so.3 in ridge when ridge has it, in the complete BLAS otherwise.
// This constructor only says so, under RIDGE_VERBOSE (as src/runtime/settings.cpp reads it).
#include <cstdio>
#include <cstdlib>

namespace {

[[gnu::constructor]] void announce() {
  const char* verbose = std::getenv("RIDGE_VERBOSE");
  if (verbose == nullptr || *verbose == '\0' || *verbose == '0') return;
  std::fprintf(stderr, "ridge: libblas.so.3 is ridge's, other BLAS routines come from %s\n",
               RIDGE_BLAS_FALLBACK);
}

}  // namespace

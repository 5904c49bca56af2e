// What ridge's default cblas_xerbla prints, apart from it so that tests can read the text.
#pragma once

#include <cstdarg>
#include <cstdio>

namespace ridge::blas {

// Writes to `out` which parameter of `routine` was wrong, as the user numbers it: translated
// back when RowMajorStrg says the number came from a row-major call; then `message` formatted
// with `args`, if any.
void print_cblas_error(std::FILE* out, int parameter, const char* routine, const char* message,
                       std::va_list args);

}  // namespace ridge::blas

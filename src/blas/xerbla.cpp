// The BLAS error handlers. Weak, so a program may supply its own; ours report on stderr and
// return (never exit: a library does not end its host process over an argument, although the
// reference handlers stop the program).
#include "blas/xerbla.hpp"

#include <string_view>

#include "ridge/ridge.h"

namespace ridge::blas {
namespace {

// `parameter`, with `one` and `other` exchanged.
int swapped(int parameter, int one, int other) {
  return parameter == one ? other : parameter == other ? one : parameter;
}

// The user's number of a parameter reported with RowMajorStrg set. The entry points check a
// row-major call as the column-major call on the transposed problem, which swaps two pairs of
// arguments of gemm (M and N, lda and ldb) and one of gemv (M and N), and report the number in
// that call, as the reference CBLAS does; a handler learns only the routine's name, so, like the
// reference handler, it swaps them back by name.
int row_major_parameter(std::string_view routine, int parameter) {
  if (routine.ends_with("gemm")) return swapped(swapped(parameter, 4, 5), 9, 11);
  if (routine.ends_with("gemv")) return swapped(parameter, 3, 4);
  return parameter;
}

}  // namespace

void print_cblas_error(std::FILE* out, int parameter, const char* routine, const char* message,
                       std::va_list args) {
  if (RowMajorStrg != 0) parameter = row_major_parameter(routine, parameter);
  std::fprintf(out, "ridge: parameter %d to routine %s was incorrect\n", parameter, routine);
  if (message != nullptr && *message != '\0') std::vfprintf(out, message, args);
}

}  // namespace ridge::blas

extern "C" {

__attribute__((weak)) void cblas_xerbla(int parameter, const char* routine, const char* message,
                                        ...) {
  std::va_list args;
  va_start(args, message);
  ridge::blas::print_cblas_error(stderr, parameter, routine, message, args);
  va_end(args);
}

// The name is not NUL-terminated: routine_len characters, blank-padded.
__attribute__((weak)) void xerbla_(const char* routine, const int* parameter, size_t routine_len) {
  int length = static_cast<int>(routine_len);
  while (length > 0 && routine[length - 1] == ' ') --length;
  std::fprintf(stderr, "ridge: on entry to %.*s parameter number %d had an illegal value\n",
               length, routine, *parameter);
}

}  // extern "C"

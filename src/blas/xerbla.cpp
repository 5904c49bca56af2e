// The BLAS error handlers. Weak, so a program may supply its own; ours report on stderr and
// return (never exit: a library does not end its host process over an argument, although the
// reference handlers stop the program).
#include <cstdarg>
#include <cstdio>

#include "ridge/ridge.h"

extern "C" {

__attribute__((weak)) void cblas_xerbla(int parameter, const char* routine, const char* message,
                                        ...) {
  std::fprintf(stderr, "ridge: parameter %d to routine %s was incorrect\n", parameter, routine);
  if (message != nullptr && *message != '\0') {
    std::va_list args;
    va_start(args, message);
    std::vfprintf(stderr, message, args);
    va_end(args);
  }
}

// The name is not NUL-terminated: routine_len characters, blank-padded.
__attribute__((weak)) void xerbla_(const char* routine, const int* parameter, size_t routine_len) {
  int length = static_cast<int>(routine_len);
  while (length > 0 && routine[length - 1] == ' ') --length;
  std::fprintf(stderr, "ridge: on entry to %.*s parameter number %d had an illegal value\n",
               length, routine, *parameter);
}

}  // extern "C"

// The BLAS error handlers. Weak, so a program may supply its own; ours reports on stderr and
// returns (never exits: a library does not end its host process over an argument).
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

}  // extern "C"

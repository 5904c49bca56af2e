// The recording handlers of error_capture.hpp, and the text ridge's own handler would print.
#include "blas/error_capture.hpp"

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "blas/xerbla.hpp"
#include "ridge/ridge.h"

namespace ridge::test {

CblasErrorReport& cblas_report() {
  static CblasErrorReport report;
  return report;
}

ErrorReport& fortran_report() {
  static ErrorReport report;
  return report;
}

}  // namespace ridge::test

// RowMajorStrg is read here, during the report, as a program's handler must: the entry points
// clear it on return.
extern "C" void cblas_xerbla(int parameter, const char* routine, const char* message, ...) {
  char* printed = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&printed, &size);
  std::va_list args;
  va_start(args, message);
  ridge::blas::print_cblas_error(out, parameter, routine, message, args);
  va_end(args);
  std::fclose(out);
  ridge::test::cblas_report() = {{parameter, routine}, RowMajorStrg != 0, printed};
  std::free(printed);
}

extern "C" void xerbla_(const char* routine, const int* parameter, std::size_t length) {
  std::string name(routine, length);
  name.erase(name.find_last_not_of(' ') + 1);
  ridge::test::fortran_report() = {*parameter, name};
}

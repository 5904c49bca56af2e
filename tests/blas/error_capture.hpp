// The test program's own BLAS error handlers, overriding ridge's weak ones as any program may:
// they record the last report instead of printing it.
#pragma once

#include <string>

namespace ridge::test {

struct ErrorReport {
  int parameter = 0;    // 0: no report since reset()
  std::string routine;  // as passed: "cblas_sgemm", or the Fortran name trimmed ("SGEMM")
  void reset() { *this = {}; }
};

// The last report through cblas_xerbla, and through xerbla_.
ErrorReport& cblas_report();
ErrorReport& fortran_report();

}  // namespace ridge::test

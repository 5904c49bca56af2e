// The test program's own BLAS error handlers, overriding ridge's weak ones as any program may:
// they record the last report instead of printing it.
#pragma once

#include <string>

namespace ridge::test {

struct ErrorReport {
  int parameter = 0;    // as passed; 0: no report since reset()
  std::string routine;  // as passed: "cblas_sgemm", or the Fortran name trimmed ("SGEMM")
  void reset() { *this = {}; }
};

// A report through cblas_xerbla, with what the reference CBLAS protocol tells a handler besides.
struct CblasErrorReport : ErrorReport {
  bool row_major = false;  // RowMajorStrg was set: `parameter` numbers the transposed call
  std::string printed;     // what ridge's default cblas_xerbla prints for this report
  void reset() { *this = {}; }
};

// The last report through cblas_xerbla, and through xerbla_.
CblasErrorReport& cblas_report();
ErrorReport& fortran_report();

}  // namespace ridge::test

#include "blas/error_capture.hpp"

#include <cstddef>

namespace ridge::test {

ErrorReport& cblas_report() {
  static ErrorReport report;
  return report;
}

ErrorReport& fortran_report() {
  static ErrorReport report;
  return report;
}

}  // namespace ridge::test

extern "C" void cblas_xerbla(int parameter, const char* routine, const char*, ...) {
  ridge::test::cblas_report() = {parameter, routine};
}

extern "C" void xerbla_(const char* routine, const int* parameter, std::size_t length) {
  std::string name(routine, length);
  name.erase(name.find_last_not_of(' ') + 1);
  ridge::test::fortran_report() = {*parameter, name};
}

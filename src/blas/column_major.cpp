// The BLAS routines on checked column-major arguments, through the GEMM and GEMV drivers.
#include "blas/column_major.hpp"

#include <cstdint>
#include <cstdio>
#include <exception>
#include <mutex>
#include <set>
#include <string>

#include "blas/arguments.hpp"
#include "gemm/driver.hpp"
#include "kernels/matrix_vector.hpp"
#include "runtime/settings.hpp"

namespace ridge::blas {
namespace {

// Only the drivers' workspace reservation can throw below (std::bad_alloc), and it does so
// before anything is written: C or y is left as it was, the failure is reported on stderr (BLAS
// has no error return), and no exception crosses into a C or Fortran caller.
template <class Call>
void reporting_failure(const char* routine, Call call) {
  try {
    call();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ridge: %s failed: %s\n", routine, e.what());
  }
}

// BLAS points a vector with a negative increment at its last element in memory.
template <class V>
V* element_zero(V* v, std::int64_t size, int inc) {
  return inc < 0 ? v + (size - 1) * -std::int64_t{inc} : v;
}

}  // namespace

template <class T, class S>
void gemm(const char* routine, char transa, char transb, int m, int n, int k, T alpha, const S* a,
          int lda, const S* b, int ldb, T beta, T* c, int ldc) {
  const bool ta = !no_trans(transa), tb = !no_trans(transb);
  const auto p =
      kernels::GemmProblem<T, S, S>::from_strides(m, n, k, alpha, a, ta ? lda : 1, ta ? 1 : lda, b,
                                                  tb ? ldb : 1, tb ? 1 : ldb, beta, c, 1, ldc);
  reporting_failure(routine, [&] { gemm_detail::run(p); });
}

template <class T>
void gemv(const char* routine, char trans, int m, int n, T alpha, const T* a, int lda,
          const T* x, int incx, T beta, T* y, int incy) {
  // The reference returns here, leaving y as it is even when beta != 1 (ridge::gemv instead
  // computes y = beta * y for an empty x, as the formula says).
  if (m == 0 || n == 0) return;
  kernels::GemvProblem<T> p;
  p.m = m;
  p.n = n;
  p.a = a;
  p.lda = lda;
  p.transposed = !no_trans(trans);
  p.alpha = alpha;
  p.beta = beta;
  p.x = element_zero(x, p.x_size(), incx);
  p.y = element_zero(y, p.y_size(), incy);
  reporting_failure(routine, [&] { kernels::matrix_vector(p, incx, incy); });
}

void log_first_call(const char* routine) {
  if (!runtime::verbose()) return;
  static std::mutex mutex;
  static std::set<std::string> logged;
  const std::lock_guard lock(mutex);
  if (logged.insert(routine).second) std::fprintf(stderr, "ridge: %s called\n", routine);
}

template void gemm<float>(const char*, char, char, int, int, int, float, const float*, int,
                          const float*, int, float, float*, int);
template void gemm<double>(const char*, char, char, int, int, int, double, const double*, int,
                           const double*, int, double, double*, int);
template void gemm<float, std::uint16_t>(const char*, char, char, int, int, int, float,
                                         const std::uint16_t*, int, const std::uint16_t*, int,
                                         float, float*, int);
template void gemv<float>(const char*, char, int, int, float, const float*, int, const float*,
                          int, float, float*, int);
template void gemv<double>(const char*, char, int, int, double, const double*, int,
                           const double*, int, double, double*, int);

}  // namespace ridge::blas

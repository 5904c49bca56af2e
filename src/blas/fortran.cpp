// The Fortran BLAS entry points (gfortran's ABI: lower case with a trailing underscore, every
// argument by reference, a hidden length after the arguments for each character argument, which
// is ignored here: only the first character counts). Errors go to xerbla_ with the reference
// parameter numbers and the routine's name as the reference spells it, C or y untouched.
#include "blas/arguments.hpp"
#include "blas/column_major.hpp"
#include "ridge/ridge.h"

namespace ridge::blas {
namespace {

// The reference passes the name blank-padded to six characters.
void report(const char* name, int parameter) { xerbla_(name, &parameter, 6); }

// One entry point each: `routine` as exported, `name` as the reference reports it.
template <class T>
void fortran_gemm(const char* routine, const char* name, char transa, char transb, int m, int n,
                  int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  log_first_call(routine);
  if (const int bad = gemm_error(transa, transb, m, n, k, lda, ldb, ldc)) return report(name, bad);
  gemm(routine, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void fortran_gemv(const char* routine, const char* name, char trans, int m, int n, T alpha,
                  const T* a, int lda, const T* x, int incx, T beta, T* y, int incy) {
  log_first_call(routine);
  if (const int bad = gemv_error(trans, m, n, lda, incx, incy)) return report(name, bad);
  gemv(routine, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

}  // namespace
}  // namespace ridge::blas

using ridge::blas::fortran_gemm;
using ridge::blas::fortran_gemv;

extern "C" {

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc, size_t, size_t) {
  fortran_gemm("sgemm_", "SGEMM ", *transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c,
               *ldc);
}

void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc, size_t, size_t) {
  fortran_gemm("dgemm_", "DGEMM ", *transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c,
               *ldc);
}

void sgemv_(const char* trans, const int* m, const int* n, const float* alpha, const float* a,
            const int* lda, const float* x, const int* incx, const float* beta, float* y,
            const int* incy, size_t) {
  fortran_gemv("sgemv_", "SGEMV ", *trans, *m, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}

void dgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* x, const int* incx, const double* beta, double* y,
            const int* incy, size_t) {
  fortran_gemv("dgemv_", "DGEMV ", *trans, *m, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}

}  // extern "C"

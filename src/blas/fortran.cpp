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

}  // namespace
}  // namespace ridge::blas

using ridge::blas::log_first_call;
using ridge::blas::report;

extern "C" {

void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc, size_t, size_t) {
  log_first_call("sgemm_");
  if (const int bad = ridge::blas::gemm_error(*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc))
    return report("SGEMM ", bad);
  ridge::blas::gemm("sgemm_", *transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c,
                    *ldc);
}

void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
            const double* beta, double* c, const int* ldc, size_t, size_t) {
  log_first_call("dgemm_");
  if (const int bad = ridge::blas::gemm_error(*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc))
    return report("DGEMM ", bad);
  ridge::blas::gemm("dgemm_", *transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c,
                    *ldc);
}

void sgemv_(const char* trans, const int* m, const int* n, const float* alpha, const float* a,
            const int* lda, const float* x, const int* incx, const float* beta, float* y,
            const int* incy, size_t) {
  log_first_call("sgemv_");
  if (const int bad = ridge::blas::gemv_error(*trans, *m, *n, *lda, *incx, *incy))
    return report("SGEMV ", bad);
  ridge::blas::gemv("sgemv_", *trans, *m, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}

void dgemv_(const char* trans, const int* m, const int* n, const double* alpha, const double* a,
            const int* lda, const double* x, const int* incx, const double* beta, double* y,
            const int* incy, size_t) {
  log_first_call("dgemv_");
  if (const int bad = ridge::blas::gemv_error(*trans, *m, *n, *lda, *incx, *incy))
    return report("DGEMV ", bad);
  ridge::blas::gemv("dgemv_", *trans, *m, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}

}  // extern "C"

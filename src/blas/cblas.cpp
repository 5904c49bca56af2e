// The CBLAS entry points. As in the reference CBLAS: the order and the transpositions are
// checked here (parameters 1, 2, 3), a row-major call becomes the column-major call on the
// transposed problem, whose Fortran checks then run with their numbers renumbered to the CBLAS
// parameters. Errors go to cblas_xerbla, and C or y is left untouched.
#include "blas/arguments.hpp"
#include "blas/column_major.hpp"
#include "ridge/ridge.h"

namespace ridge::blas {
namespace {

// The Fortran character of a CBLAS transposition; 0 for an invalid one.
char trans_char(int trans) {
  switch (trans) {
    case CblasNoTrans: return 'N';
    case CblasTrans: return 'T';
    case CblasConjTrans: return 'C';
    default: return 0;
  }
}

template <class T>
void cblas_gemm(const char* routine, int order, int trans_a, int trans_b, int m, int n, int k,
                T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  const bool row_major = order == CblasRowMajor;
  const char ta = trans_char(trans_a), tb = trans_char(trans_b);
  int bad = 0;
  if (!row_major && order != CblasColMajor) {
    bad = 1;
  } else if (ta == 0) {
    bad = 2;
  } else if (tb == 0) {
    bad = 3;
  } else if (const int fortran = row_major ? gemm_error(tb, ta, n, m, k, ldb, lda, ldc)
                                           : gemm_error(ta, tb, m, n, k, lda, ldb, ldc)) {
    bad = cblas_parameter(Routine::gemm, fortran, row_major);
  }
  if (bad != 0) {
    cblas_xerbla(bad, routine, "");
    return;
  }
  // Row-major C is column-major C^T = op(B)^T op(A)^T.
  if (row_major) {
    gemm(routine, tb, ta, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
  } else {
    gemm(routine, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

template <class T>
void cblas_gemv(const char* routine, int order, int trans, int m, int n, T alpha, const T* a,
                int lda, const T* x, int incx, T beta, T* y, int incy) {
  const bool row_major = order == CblasRowMajor;
  char t = trans_char(trans);
  int bad = 0;
  if (!row_major && order != CblasColMajor) {
    bad = 1;
  } else if (t == 0) {
    bad = 2;
  } else {
    // A row-major A is the column-major A^T: op(A) x = op'(A^T) x with op' the other one.
    if (row_major) t = t == 'N' ? 'T' : 'N';
    if (const int fortran = row_major ? gemv_error(t, n, m, lda, incx, incy)
                                      : gemv_error(t, m, n, lda, incx, incy))
      bad = cblas_parameter(Routine::gemv, fortran, row_major);
  }
  if (bad != 0) {
    cblas_xerbla(bad, routine, "");
    return;
  }
  if (row_major) {
    gemv(routine, t, n, m, alpha, a, lda, x, incx, beta, y, incy);
  } else {
    gemv(routine, t, m, n, alpha, a, lda, x, incx, beta, y, incy);
  }
}

}  // namespace
}  // namespace ridge::blas

using ridge::blas::log_first_call;

extern "C" {

void cblas_sgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, const int m,
                 const int n, const int k, const float alpha, const float* a, const int lda,
                 const float* b, const int ldb, const float beta, float* c, const int ldc) {
  log_first_call("cblas_sgemm");
  ridge::blas::cblas_gemm<float>("cblas_sgemm", order, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                                 ldb, beta, c, ldc);
}

void cblas_dgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, const int m,
                 const int n, const int k, const double alpha, const double* a, const int lda,
                 const double* b, const int ldb, const double beta, double* c, const int ldc) {
  log_first_call("cblas_dgemm");
  ridge::blas::cblas_gemm<double>("cblas_dgemm", order, trans_a, trans_b, m, n, k, alpha, a, lda,
                                  b, ldb, beta, c, ldc);
}

void cblas_sgemv(CBLAS_ORDER order, CBLAS_TRANSPOSE trans, const int m, const int n,
                 const float alpha, const float* a, const int lda, const float* x, const int incx,
                 const float beta, float* y, const int incy) {
  log_first_call("cblas_sgemv");
  ridge::blas::cblas_gemv<float>("cblas_sgemv", order, trans, m, n, alpha, a, lda, x, incx, beta,
                                 y, incy);
}

void cblas_dgemv(CBLAS_ORDER order, CBLAS_TRANSPOSE trans, const int m, const int n,
                 const double alpha, const double* a, const int lda, const double* x,
                 const int incx, const double beta, double* y, const int incy) {
  log_first_call("cblas_dgemv");
  ridge::blas::cblas_gemv<double>("cblas_dgemv", order, trans, m, n, alpha, a, lda, x, incx,
                                  beta, y, incy);
}

}  // extern "C"

// The CBLAS entry points. As in the reference CBLAS: the order and the transpositions are
// checked here (parameters 1, 2, 3), a row-major call becomes the column-major call on the
// transposed problem, and the Fortran checks run on that call. Errors go to cblas_xerbla under
// the reference's protocol (report()), and C or y is left untouched.
#include <cstdint>

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

// The reference CBLAS protocol, which programs' own handlers follow (the reference test programs
// check it): `parameter` is the number in the column-major call that was checked, the transposed
// one for a row-major call, and RowMajorStrg says which, so that the handler can translate it to
// the user's call (see ridge.h). RowMajorStrg is written only around the report, so that calls
// without errors never touch it and cannot race on it when run concurrently.
void report(const char* routine, int parameter, bool row_major) {
  RowMajorStrg = row_major ? 1 : 0;
  cblas_xerbla(parameter, routine, "");
  RowMajorStrg = 0;
}

// The CBLAS number of a parameter numbered `fortran` in the column-major call: the order comes
// first.
int after_order(int fortran) { return fortran + 1; }

// S: the stored type of A and B (T, or bf16 bit patterns).
template <class T, class S = T>
void cblas_gemm(const char* routine, int order, int trans_a, int trans_b, int m, int n, int k,
                T alpha, const S* a, int lda, const S* b, int ldb, T beta, T* c, int ldc) {
  const bool row_major = order == CblasRowMajor;
  const char ta = trans_char(trans_a), tb = trans_char(trans_b);
  if (!row_major && order != CblasColMajor) return report(routine, 1, false);
  if (ta == 0) return report(routine, 2, row_major);
  if (tb == 0) return report(routine, 3, row_major);
  // Row-major C is column-major C^T = op(B)^T op(A)^T.
  if (const int bad = row_major ? gemm_error(tb, ta, n, m, k, ldb, lda, ldc)
                                : gemm_error(ta, tb, m, n, k, lda, ldb, ldc))
    return report(routine, after_order(bad), row_major);
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
  if (!row_major && order != CblasColMajor) return report(routine, 1, false);
  if (t == 0) return report(routine, 2, row_major);
  // A row-major M x N A is the column-major N x M A^T: op(A) x = op'(A^T) x with op' the other
  // one.
  if (row_major) t = t == 'N' ? 'T' : 'N';
  const int rows = row_major ? n : m, columns = row_major ? m : n;
  if (const int bad = gemv_error(t, rows, columns, lda, incx, incy))
    return report(routine, after_order(bad), row_major);
  gemv(routine, t, rows, columns, alpha, a, lda, x, incx, beta, y, incy);
}

}  // namespace
}  // namespace ridge::blas

using ridge::blas::log_first_call;

extern "C" {

// The reference CBLAS's flag, under its name: programs' handlers declare it (see report()).
int RowMajorStrg = 0;

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

// OpenBLAS's bf16 GEMM (its bfloat16 is a uint16_t holding the bit pattern): C, alpha and beta
// in float.
void cblas_sbgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, const int m,
                  const int n, const int k, const float alpha, const uint16_t* a, const int lda,
                  const uint16_t* b, const int ldb, const float beta, float* c, const int ldc) {
  log_first_call("cblas_sbgemm");
  ridge::blas::cblas_gemm<float, std::uint16_t>("cblas_sbgemm", order, trans_a, trans_b, m, n, k,
                                                alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // extern "C"

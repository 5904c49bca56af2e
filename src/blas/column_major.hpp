// The bodies of the BLAS routines on their column-major (Fortran) arguments, once checked: both
// ABIs end here, the CBLAS row-major calls after transposing the problem as the reference does.
#pragma once

namespace ridge::blas {

// C = alpha * op(A) * op(B) + beta * C; transa, transb 'N', 'T' or 'C' in either case. S: the
// stored type of A and B, T or (T float) bf16 bit patterns.
template <class T, class S = T>
void gemm(const char* routine, char transa, char transb, int m, int n, int k, T alpha, const S* a,
          int lda, const S* b, int ldb, T beta, T* c, int ldc);

// y = alpha * op(A) * x + beta * y; x and y point to the lowest-addressed element, as in BLAS
// (with a negative increment, element 0 is the last one in memory).
template <class T>
void gemv(const char* routine, char trans, int m, int n, T alpha, const T* a, int lda,
          const T* x, int incx, T beta, T* y, int incy);

// RIDGE_VERBOSE=1: the first call of each entry point says so on stderr, which shows that a
// program (run with LD_PRELOAD, say) reaches ridge. Otherwise a call costs one flag test.
void log_first_call(const char* routine);

}  // namespace ridge::blas

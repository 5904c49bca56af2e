// The reference BLAS argument checks (netlib sgemm.f, sgemv.f): the same conditions in the same
// order, returning the Fortran parameter number of the first bad argument (0: all valid).
// The CBLAS entry points run the same checks on the column-major call they reduce to.
#pragma once

namespace ridge::blas {

// LSAME: the character, either case.
inline bool lsame(char c, char upper) { return c == upper || c == upper - 'A' + 'a'; }
inline bool no_trans(char c) { return lsame(c, 'N'); }
inline bool valid_trans(char c) { return lsame(c, 'N') || lsame(c, 'T') || lsame(c, 'C'); }

inline int max1(int x) { return x > 1 ? x : 1; }

// TRANSA 1, TRANSB 2, M 3, N 4, K 5, LDA 8, LDB 10, LDC 13.
inline int gemm_error(char transa, char transb, int m, int n, int k, int lda, int ldb, int ldc) {
  const int a_rows = no_trans(transa) ? m : k;
  const int b_rows = no_trans(transb) ? k : n;
  if (!valid_trans(transa)) return 1;
  if (!valid_trans(transb)) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < max1(a_rows)) return 8;
  if (ldb < max1(b_rows)) return 10;
  if (ldc < max1(m)) return 13;
  return 0;
}

// TRANS 1, M 2, N 3, LDA 6, INCX 8, INCY 11.
inline int gemv_error(char trans, int m, int n, int lda, int incx, int incy) {
  if (!valid_trans(trans)) return 1;
  if (m < 0) return 2;
  if (n < 0) return 3;
  if (lda < max1(m)) return 6;
  if (incx == 0) return 8;
  if (incy == 0) return 11;
  return 0;
}

}  // namespace ridge::blas

// cblas_sgemm / cblas_dgemm: the CBLAS argument checks (parameter numbers as in the reference
// CBLAS: order 1, TransA 2, TransB 3, M 4, N 5, K 6, lda 9, ldb 11, ldc 14), then the GEMM.
#include <algorithm>
#include <cstdio>
#include <exception>

#include "gemm/driver.hpp"
#include "ridge/ridge.h"

namespace ridge::blas {
namespace {

bool valid_trans(int t) { return t == CblasNoTrans || t == CblasTrans || t == CblasConjTrans; }

template <class T>
void cblas_gemm(const char* routine, int order, int trans_a, int trans_b, int m, int n, int k,
                T alpha, const T* a, int lda, const T* b, int ldb, T beta, T* c, int ldc) {
  const bool row = order == CblasRowMajor;
  int bad = 0;
  if (order != CblasRowMajor && order != CblasColMajor) {
    bad = 1;
  } else if (!valid_trans(trans_a)) {
    bad = 2;
  } else if (!valid_trans(trans_b)) {
    bad = 3;
  } else if (m < 0) {
    bad = 4;
  } else if (n < 0) {
    bad = 5;
  } else if (k < 0) {
    bad = 6;
  } else {
    const bool ta = trans_a != CblasNoTrans, tb = trans_b != CblasNoTrans;
    // The stored extent that the leading dimension must cover.
    const int a_extent = row ? (ta ? m : k) : (ta ? k : m);
    const int b_extent = row ? (tb ? k : n) : (tb ? n : k);
    const int c_extent = row ? n : m;
    if (lda < std::max(1, a_extent)) {
      bad = 9;
    } else if (ldb < std::max(1, b_extent)) {
      bad = 11;
    } else if (ldc < std::max(1, c_extent)) {
      bad = 14;
    }
  }
  if (bad != 0) {
    cblas_xerbla(bad, routine, "");
    return;
  }

  // Element strides of op(A), op(B) and C.
  const bool ta = trans_a != CblasNoTrans, tb = trans_b != CblasNoTrans;
  std::int64_t a_rs = row ? lda : 1, a_cs = row ? 1 : lda;
  std::int64_t b_rs = row ? ldb : 1, b_cs = row ? 1 : ldb;
  if (ta) std::swap(a_rs, a_cs);
  if (tb) std::swap(b_rs, b_cs);
  const auto p = gemm_detail::Problem<T>::from_strides(m, n, k, alpha, a, a_rs, a_cs, b, b_rs, b_cs, beta,
                                                c, row ? ldc : 1, row ? 1 : ldc);
  try {
    gemm_detail::run(p);
  } catch (const std::exception& e) {
    // Only an allocation failure of the packing buffers can get here.
    std::fprintf(stderr, "ridge: %s failed: %s\n", routine, e.what());
  }
}

}  // namespace
}  // namespace ridge::blas

extern "C" {

void cblas_sgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, const int m,
                 const int n, const int k, const float alpha, const float* a, const int lda,
                 const float* b, const int ldb, const float beta, float* c, const int ldc) {
  ridge::blas::cblas_gemm<float>("cblas_sgemm", order, trans_a, trans_b, m, n, k, alpha, a, lda, b,
                                 ldb, beta, c, ldc);
}

void cblas_dgemm(CBLAS_ORDER order, CBLAS_TRANSPOSE trans_a, CBLAS_TRANSPOSE trans_b, const int m,
                 const int n, const int k, const double alpha, const double* a, const int lda,
                 const double* b, const int ldb, const double beta, double* c, const int ldc) {
  ridge::blas::cblas_gemm<double>("cblas_dgemm", order, trans_a, trans_b, m, n, k, alpha, a, lda,
                                  b, ldb, beta, c, ldc);
}

}  // extern "C"

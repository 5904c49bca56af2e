// cblas_sgemm / cblas_dgemm: results against the reference, and argument errors reported
// through cblas_xerbla (overridden here, as a program may) with C untouched.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gemm/reference.hpp"
#include "ridge/ridge.h"

namespace {
int g_last_parameter = 0;
std::string g_last_routine;
}  // namespace

extern "C" void cblas_xerbla(int parameter, const char* routine, const char*, ...) {
  g_last_parameter = parameter;
  g_last_routine = routine;
}

namespace ridge::test {
namespace {

TEST(CblasGemm, MatchesTheReferenceForEveryOrderAndTransposition) {
  for (CBLAS_ORDER order : {CblasRowMajor, CblasColMajor})
    for (CBLAS_TRANSPOSE ta : {CblasNoTrans, CblasTrans, CblasConjTrans})
      for (CBLAS_TRANSPOSE tb : {CblasNoTrans, CblasTrans}) {
        const Layout layout = order == CblasRowMajor ? Layout::row_major : Layout::col_major;
        const Transpose opa = ta == CblasNoTrans ? Transpose::none : Transpose::transpose;
        const Transpose opb = tb == CblasNoTrans ? Transpose::none : Transpose::transpose;
        const int m = 45, n = 38, k = 29;
        std::mt19937 rng(9);
        Matrix<double> a(opa == Transpose::none ? m : k, opa == Transpose::none ? k : m, layout, 2);
        Matrix<double> b(opb == Transpose::none ? k : n, opb == Transpose::none ? n : k, layout, 1);
        Matrix<double> c(m, n, layout, 3);
        a.fill_random(rng);
        b.fill_random(rng);
        c.fill_random(rng);
        const Reference<double> want = reference_gemm(0.5, a, opa, b, opb, -1.0, c);
        cblas_dgemm(order, ta, tb, m, n, k, 0.5, a.data(), static_cast<int>(a.ld), b.data(),
                    static_cast<int>(b.ld), -1.0, c.data(), static_cast<int>(c.ld));
        ASSERT_EQ(compare(c, want), "") << order << " " << ta << " " << tb;
      }
}

TEST(CblasGemm, ReportsBadArgumentsWithTheirParameterNumber) {
  std::vector<float> a(100, 1.0f), b(100, 1.0f), c(100, 5.0f);
  struct Case {
    int order, ta, tb, m, n, k, lda, ldb, ldc, parameter;
  };
  const Case cases[] = {
      {99, CblasNoTrans, CblasNoTrans, 2, 2, 2, 2, 2, 2, 1},
      {CblasRowMajor, 7, CblasNoTrans, 2, 2, 2, 2, 2, 2, 2},
      {CblasRowMajor, CblasNoTrans, 7, 2, 2, 2, 2, 2, 2, 3},
      {CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, 2, 2, 2, 2, 2, 4},
      {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, -1, 2, 2, 2, 2, 5},
      {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, -1, 2, 2, 2, 6},
      {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 3, 4, 3, 3, 3, 9},   // lda < K
      {CblasColMajor, CblasNoTrans, CblasNoTrans, 4, 3, 2, 3, 2, 4, 9},   // lda < M
      {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 3, 4, 4, 2, 3, 11},  // ldb < N
      {CblasColMajor, CblasNoTrans, CblasTrans, 2, 3, 4, 2, 2, 2, 11},    // ldb < N (B^T)
      {CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 3, 4, 4, 3, 2, 14},  // ldc < N
  };
  for (const Case& t : cases) {
    g_last_parameter = 0;
    cblas_sgemm(static_cast<CBLAS_ORDER>(t.order), static_cast<CBLAS_TRANSPOSE>(t.ta),
                static_cast<CBLAS_TRANSPOSE>(t.tb), t.m, t.n, t.k, 1.0f, a.data(), t.lda, b.data(),
                t.ldb, 0.0f, c.data(), t.ldc);
    EXPECT_EQ(g_last_parameter, t.parameter);
    EXPECT_EQ(g_last_routine, "cblas_sgemm");
  }
  for (float x : c) EXPECT_EQ(x, 5.0f);
}

}  // namespace
}  // namespace ridge::test

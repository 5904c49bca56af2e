// The CBLAS entry points: results against the reference for every order and transposition, and
// every argument error reported through cblas_xerbla (the test's own, as a program may define)
// with the reference CBLAS parameter numbers, in the reference's order, with C or y untouched.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "blas/error_capture.hpp"
#include "gemv/reference.hpp"
#include "ridge/ridge.h"

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

// Each case breaks one or two arguments of an otherwise valid 2 x 3 x 4 product. Where two are
// bad, the reference reports the one its column-major Fortran checks reach first: in row-major
// order those see N before M and ldb before lda.
TEST(CblasGemm, ReportsEveryBadArgumentWithItsParameterNumber) {
  std::vector<float> a(100, 1.0f), b(100, 1.0f), c(100, 5.0f);
  struct Case {
    int order, ta, tb, m, n, k, lda, ldb, ldc, parameter;
  };
  constexpr int R = CblasRowMajor, C = CblasColMajor, N = CblasNoTrans, T = CblasTrans;
  // clang-format off
  const Case cases[] = {
      {99, N, N, 2, 3, 4, 4, 3, 3, 1},
      {R, 7, N, 2, 3, 4, 4, 3, 3, 2},   {C, 7, 7, 2, 3, 4, 2, 4, 2, 2},
      {R, N, 7, 2, 3, 4, 4, 3, 3, 3},   {C, N, 7, 2, 3, 4, 2, 4, 2, 3},
      {R, N, N, -1, 3, 4, 4, 3, 3, 4},  {C, N, N, -1, 3, 4, 2, 4, 2, 4},
      {R, N, N, 2, -1, 4, 4, 3, 3, 5},  {C, N, N, 2, -1, 4, 2, 4, 2, 5},
      {R, N, N, -1, -1, 4, 4, 3, 3, 5}, {C, N, N, -1, -1, 4, 2, 4, 2, 4},
      {R, N, N, 2, 3, -1, 4, 3, 3, 6},  {C, N, N, 2, 3, -1, 2, 4, 2, 6},
      {R, N, N, 2, 3, 4, 3, 3, 3, 9},   {C, N, N, 2, 3, 4, 1, 4, 2, 9},   // lda < K, lda < M
      {R, T, N, 2, 3, 4, 1, 3, 3, 9},   {C, T, N, 2, 3, 4, 3, 4, 2, 9},   // A^T: lda < M, < K
      {R, N, N, 2, 3, 4, 4, 2, 3, 11},  {C, N, N, 2, 3, 4, 2, 3, 2, 11},  // ldb < N, ldb < K
      {R, N, T, 2, 3, 4, 4, 3, 3, 11},  {C, N, T, 2, 3, 4, 2, 2, 2, 11},  // B^T: ldb < K, < N
      {R, N, N, 2, 3, 4, 3, 2, 3, 11},  {C, N, N, 2, 3, 4, 1, 3, 2, 9},   // both: ldb / lda first
      {R, N, N, 2, 3, 4, 4, 3, 2, 14},  {C, N, N, 2, 3, 4, 2, 4, 1, 14},  // ldc < N, ldc < M
  };
  // clang-format on
  for (const Case& t : cases) {
    cblas_report().reset();
    cblas_sgemm(static_cast<CBLAS_ORDER>(t.order), static_cast<CBLAS_TRANSPOSE>(t.ta),
                static_cast<CBLAS_TRANSPOSE>(t.tb), t.m, t.n, t.k, 1.0f, a.data(), t.lda, b.data(),
                t.ldb, 0.0f, c.data(), t.ldc);
    EXPECT_EQ(cblas_report().parameter, t.parameter) << "case with parameter " << t.parameter;
    EXPECT_EQ(cblas_report().routine, "cblas_sgemm");
    cblas_report().reset();
    std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end()), cd(100, 5.0);
    cblas_dgemm(static_cast<CBLAS_ORDER>(t.order), static_cast<CBLAS_TRANSPOSE>(t.ta),
                static_cast<CBLAS_TRANSPOSE>(t.tb), t.m, t.n, t.k, 1.0, ad.data(), t.lda, bd.data(),
                t.ldb, 0.0, cd.data(), t.ldc);
    EXPECT_EQ(cblas_report().parameter, t.parameter);
    EXPECT_EQ(cblas_report().routine, "cblas_dgemm");
    for (double x : cd) EXPECT_EQ(x, 5.0);
  }
  for (float x : c) EXPECT_EQ(x, 5.0f);
}

template <class T>
void cblas_gemv(CBLAS_ORDER order, CBLAS_TRANSPOSE trans, int m, int n, T alpha, const T* a,
                int lda, const T* x, int incx, T beta, T* y, int incy) {
  if constexpr (sizeof(T) == 4) {
    ::cblas_sgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
  } else {
    ::cblas_dgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
  }
}

template <class T>
class CblasGemv : public ::testing::Test {};
using ElementTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CblasGemv, ElementTypes);

// A is stored M x N in `order`; y = alpha * op(A) x + beta * y with BLAS increments (a negative
// one points at the vector's lowest address).
TYPED_TEST(CblasGemv, MatchesTheReferenceForEveryOrderTranspositionAndIncrement) {
  using T = TypeParam;
  for (CBLAS_ORDER order : {CblasRowMajor, CblasColMajor})
    for (CBLAS_TRANSPOSE trans : {CblasNoTrans, CblasTrans, CblasConjTrans})
      for (int incx : {1, -2})
        for (int incy : {1, 3, -1}) {
          const int m = 29, n = 44;
          const Transpose t = trans == CblasNoTrans ? Transpose::none : Transpose::transpose;
          Matrix<T> a(m, n, order == CblasRowMajor ? Layout::row_major : Layout::col_major, 3);
          StridedVector<T> x(t == Transpose::none ? n : m, incx),
              y(t == Transpose::none ? m : n, incy);
          std::mt19937 rng(4);
          a.fill_random(rng);
          x.fill_random(rng);
          y.fill_random(rng);
          const GemvReference<T> want = reference_gemv(T(-1.5), a, t, x, T(0.5), y);
          cblas_gemv<T>(order, trans, m, n, T(-1.5), a.data(), static_cast<int>(a.ld),
                        x.blas_pointer(), incx, T(0.5), y.blas_pointer(), incy);
          ASSERT_EQ(compare(y, want), "") << order << " " << trans << " " << incx << " " << incy;
        }
}

// A 4 x 3 matrix (stored 4 x 3 in the given order) with one or two bad arguments each.
TYPED_TEST(CblasGemv, ReportsEveryBadArgumentWithItsParameterNumber) {
  using T = TypeParam;
  std::vector<T> a(64, T(1)), x(16, T(1)), y(16, T(5));
  struct Case {
    int order, trans, m, n, lda, incx, incy, parameter;
  };
  constexpr int R = CblasRowMajor, C = CblasColMajor, N = CblasNoTrans;
  // clang-format off
  const Case cases[] = {
      {0, N, 4, 3, 4, 1, 1, 1},
      {R, 0, 4, 3, 3, 1, 1, 2},   {C, 200, 4, 3, 4, 1, 1, 2},
      {R, N, -1, 3, 3, 1, 1, 3},  {C, N, -1, 3, 4, 1, 1, 3},
      {R, N, 4, -1, 3, 1, 1, 4},  {C, N, 4, -1, 4, 1, 1, 4},
      {R, N, -1, -1, 3, 1, 1, 4}, {C, N, -1, -1, 4, 1, 1, 3},  // row-major sees N first
      {R, N, 4, 3, 2, 1, 1, 7},   {C, N, 4, 3, 3, 1, 1, 7},    // lda < N, lda < M
      {R, N, 4, 3, 3, 0, 1, 9},   {C, N, 4, 3, 4, 0, 1, 9},
      {R, N, 4, 3, 3, 1, 0, 12},  {C, N, 4, 3, 4, 1, 0, 12},
      {C, N, 4, 3, 3, 0, 0, 7},   {R, N, 4, 3, 3, 0, 0, 9},
  };
  // clang-format on
  for (const Case& t : cases) {
    cblas_report().reset();
    cblas_gemv<T>(static_cast<CBLAS_ORDER>(t.order), static_cast<CBLAS_TRANSPOSE>(t.trans), t.m,
                  t.n, T(1), a.data(), t.lda, x.data(), t.incx, T(0), y.data(), t.incy);
    EXPECT_EQ(cblas_report().parameter, t.parameter) << "case with parameter " << t.parameter;
    EXPECT_EQ(cblas_report().routine, sizeof(T) == 4 ? "cblas_sgemv" : "cblas_dgemv");
  }
  for (T v : y) EXPECT_EQ(v, T(5));
}

}  // namespace
}  // namespace ridge::test

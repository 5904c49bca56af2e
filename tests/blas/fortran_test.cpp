// The Fortran BLAS entry points (sgemm_, dgemm_, sgemv_, dgemv_): the GEMM edge-shape sweep and
// GEMV cases through the by-reference, column-major ABI with lower- and upper-case characters,
// and every argument error reported through xerbla_ (the test's own) with the reference
// parameter number and routine name, C or y untouched.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "blas/error_capture.hpp"
#include "gemm/dispatch.hpp"
#include "gemv/reference.hpp"
#include "ridge/ridge.h"

namespace ridge::test {
namespace {

template <class T>
void gemm_f(char ta, char tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b,
            int ldb, T beta, T* c, int ldc) {
  if constexpr (sizeof(T) == 4) {
    sgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  } else {
    dgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
  }
}

template <class T>
void gemv_f(char trans, int m, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta,
            T* y, int incy) {
  if constexpr (sizeof(T) == 4) {
    sgemv_(&trans, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy, 1);
  } else {
    dgemv_(&trans, &m, &n, &alpha, a, &lda, x, &incx, &beta, y, &incy, 1);
  }
}

template <class T>
class FortranBlas : public ::testing::Test {
 protected:
  // One column-major GEMM through the Fortran ABI against the reference.
  std::string check_gemm(int m, int n, int k, char ta, char tb, T alpha, T beta, int ld_extra) {
    const Transpose opa = (ta == 'N' || ta == 'n') ? Transpose::none : Transpose::transpose;
    const Transpose opb = (tb == 'N' || tb == 'n') ? Transpose::none : Transpose::transpose;
    std::mt19937 rng(static_cast<unsigned>(m * 131 + n * 7 + k));
    Matrix<T> a(opa == Transpose::none ? m : k, opa == Transpose::none ? k : m, Layout::col_major,
                ld_extra);
    Matrix<T> b(opb == Transpose::none ? k : n, opb == Transpose::none ? n : k, Layout::col_major,
                ld_extra);
    Matrix<T> c(m, n, Layout::col_major, ld_extra);
    a.fill_random(rng);
    b.fill_random(rng);
    c.fill_random(rng);
    const Reference<T> want = reference_gemm(alpha, a, opa, b, opb, beta, c);
    gemm_f<T>(ta, tb, m, n, k, alpha, a.data(), static_cast<int>(a.ld), b.data(),
              static_cast<int>(b.ld), beta, c.data(), static_cast<int>(c.ld));
    const std::string miss = compare(c, want);
    if (miss.empty()) return miss;
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " " + ta + tb +
           ": " + miss;
  }
};

using ElementTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(FortranBlas, ElementTypes);

// The GEMM suite's tile and block edges (tests/gemm/gemm_test.cpp) through sgemm_ / dgemm_.
TYPED_TEST(FortranBlas, GemmAtEveryTileAndBlockEdge) {
  using T = TypeParam;
  const auto& table = gemm_detail::gemm_kernels<T>(active_isa());
  const int mr = table.kernels.mr, nr = table.kernels.nr;
  const std::set<int> ms = {0, 1, 2, 7, mr - 1, mr, mr + 1, 2 * mr + 3};
  const std::set<int> ns = {0, 1, 5, nr - 1, nr, nr + 1, 2 * nr + 1};
  const char trans[][2] = {{'N', 'N'}, {'n', 't'}, {'T', 'n'}, {'t', 'C'}};
  for (int m : ms)
    for (int n : ns)
      for (int k : {0, 1, 17})
        for (const auto& t : trans)
          ASSERT_EQ(this->check_gemm(m, n, k, t[0], t[1], T(1), T(0.5), 1), "");
  const auto& bs = table.blocks;
  for (int k : {static_cast<int>(bs.kc) - 1, static_cast<int>(bs.kc) + 1}) {
    const int n = static_cast<int>(bs.l2_elements / k) + 7;  // past the direct path, as gemm_test
    for (const auto& t : trans)
      ASSERT_EQ(this->check_gemm(mr + 1, n, k, t[0], t[1], T(1), T(0), 0), "");
  }
  for (T alpha : {T(0), T(-1)})
    for (T beta : {T(0), T(1), T(2)})
      ASSERT_EQ(this->check_gemm(23, 19, 31, 'T', 'N', alpha, beta, 2), "");
}

TYPED_TEST(FortranBlas, GemvMatchesTheReference) {
  using T = TypeParam;
  for (char trans : {'N', 'n', 'T', 't', 'C', 'c'})
    for (int incx : {1, -3})
      for (int incy : {1, 2, -1})
        for (int m : {0, 1, 37})
          for (int n : {0, 1, 26}) {
            const Transpose t =
                (trans == 'N' || trans == 'n') ? Transpose::none : Transpose::transpose;
            Matrix<T> a(m, n, Layout::col_major, 2);
            StridedVector<T> x(t == Transpose::none ? n : m, incx),
                y(t == Transpose::none ? m : n, incy);
            std::mt19937 rng(8);
            a.fill_random(rng);
            x.fill_random(rng);
            y.fill_random(rng);
            // An empty A is the reference's quick return: y stays as it is.
            const GemvReference<T> want =
                reference_gemv(T(2), a, t, x, m == 0 || n == 0 ? T(1) : T(-1), y);
            gemv_f<T>(trans, m, n, T(2), a.data(), static_cast<int>(a.ld), x.blas_pointer(), incx,
                      T(-1), y.blas_pointer(), incy);
            ASSERT_EQ(compare(y, want), "") << trans << " " << m << "x" << n;
          }
}

// A 2 x 3 x 4 product (column-major) with one or two bad arguments each: TRANSA 1, TRANSB 2,
// M 3, N 4, K 5, LDA 8, LDB 10, LDC 13, the first in the reference's order.
TYPED_TEST(FortranBlas, GemmReportsEveryBadArgumentWithItsParameterNumber) {
  using T = TypeParam;
  std::vector<T> a(64, T(1)), b(64, T(1)), c(64, T(5));
  struct Case {
    char ta, tb;
    int m, n, k, lda, ldb, ldc, parameter;
  };
  // clang-format off
  const Case cases[] = {
      {'X', 'N', 2, 3, 4, 2, 4, 2, 1},  {'N', 'x', 2, 3, 4, 2, 4, 2, 2},
      {'?', '?', 2, 3, 4, 2, 4, 2, 1},  {'N', 'N', -1, 3, 4, 2, 4, 2, 3},
      {'N', 'N', 2, -1, 4, 2, 4, 2, 4}, {'N', 'N', 2, 3, -1, 2, 4, 2, 5},
      {'N', 'N', -1, -1, -1, 0, 0, 0, 3},
      {'N', 'N', 2, 3, 4, 1, 4, 2, 8},  {'T', 'N', 2, 3, 4, 3, 4, 2, 8},  // lda < M, lda < K
      {'N', 'N', 2, 3, 4, 2, 3, 2, 10}, {'N', 'T', 2, 3, 4, 2, 2, 2, 10},  // ldb < K, ldb < N
      {'N', 'N', 2, 3, 4, 2, 4, 1, 13}, {'N', 'N', 2, 3, 4, 1, 1, 1, 8},
      {'N', 'N', 0, 0, 0, 0, 1, 1, 8},  // ld >= 1 even for empty matrices
  };
  // clang-format on
  for (const Case& t : cases) {
    fortran_report().reset();
    gemm_f<T>(t.ta, t.tb, t.m, t.n, t.k, T(1), a.data(), t.lda, b.data(), t.ldb, T(0), c.data(),
              t.ldc);
    EXPECT_EQ(fortran_report().parameter, t.parameter) << "case with parameter " << t.parameter;
    EXPECT_EQ(fortran_report().routine, sizeof(T) == 4 ? "SGEMM" : "DGEMM");
  }
  for (T v : c) EXPECT_EQ(v, T(5));
}

// A 4 x 3 column-major matrix: TRANS 1, M 2, N 3, LDA 6, INCX 8, INCY 11.
TYPED_TEST(FortranBlas, GemvReportsEveryBadArgumentWithItsParameterNumber) {
  using T = TypeParam;
  std::vector<T> a(64, T(1)), x(16, T(1)), y(16, T(5));
  struct Case {
    char trans;
    int m, n, lda, incx, incy, parameter;
  };
  // clang-format off
  const Case cases[] = {
      {'Y', 4, 3, 4, 1, 1, 1},  {'N', -1, 3, 4, 1, 1, 2}, {'N', 4, -1, 4, 1, 1, 3},
      {'N', -1, -1, 0, 0, 0, 2}, {'T', 4, 3, 3, 1, 1, 6}, {'N', 0, 3, 0, 1, 1, 6},
      {'N', 4, 3, 4, 0, 1, 8},  {'t', 4, 3, 4, 1, 0, 11}, {'N', 4, 3, 4, 0, 0, 8},
  };
  // clang-format on
  for (const Case& t : cases) {
    fortran_report().reset();
    gemv_f<T>(t.trans, t.m, t.n, T(1), a.data(), t.lda, x.data(), t.incx, T(0), y.data(), t.incy);
    EXPECT_EQ(fortran_report().parameter, t.parameter) << "case with parameter " << t.parameter;
    EXPECT_EQ(fortran_report().routine, sizeof(T) == 4 ? "SGEMV" : "DGEMV");
  }
  for (T v : y) EXPECT_EQ(v, T(5));
}

// The reference's quick returns: nothing is read or written for M = 0 or N = 0, nor for
// alpha = 0 (or K = 0, GEMM) with beta = 1 (C may even be NaN, and A and B null).
TYPED_TEST(FortranBlas, QuickReturnsTouchNothing) {
  using T = TypeParam;
  std::vector<T> c(6, std::numeric_limits<T>::quiet_NaN());
  const T* none = nullptr;
  gemm_f<T>('N', 'N', 2, 3, 0, T(1), none, 2, none, 1, T(1), c.data(), 2);
  gemm_f<T>('N', 'N', 2, 3, 4, T(0), none, 2, none, 4, T(1), c.data(), 2);
  gemm_f<T>('N', 'N', 0, 3, 4, T(1), none, 1, none, 4, T(0), c.data(), 1);
  gemv_f<T>('N', 2, 3, T(0), none, 2, none, 1, T(1), c.data(), 1);
  // Unlike ridge::gemv (y = beta * y for an empty x), the reference leaves y alone.
  gemv_f<T>('N', 2, 0, T(1), none, 2, none, 1, T(0), c.data(), 1);
  gemv_f<T>('T', 0, 3, T(1), none, 1, none, 1, T(0), c.data(), 1);
  for (T v : c) EXPECT_TRUE(std::isnan(v));
}

}  // namespace
}  // namespace ridge::test

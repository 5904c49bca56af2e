// The CBLAS entry points: results against the reference for every order and transposition, and
// every argument error reported through cblas_xerbla (the test's own, as a program may define)
// under the reference CBLAS protocol, in the reference's order, with C or y untouched; and what
// ridge's default handler prints for each report: the number the user's call gives the argument.
#include <gtest/gtest.h>

#include <cstdint>
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

// What ridge's default cblas_xerbla prints for the user's `parameter` of `routine`.
std::string printed_by_ridge(int parameter, const std::string& routine) {
  return "ridge: parameter " + std::to_string(parameter) + " to routine " + routine +
         " was incorrect\n";
}

// Checks the last cblas_xerbla report against the protocol: the handler receives `reported`
// with RowMajorStrg set for a row-major call, ridge's handler prints the user's `parameter`,
// and RowMajorStrg is clear again once the call returns.
void expect_report(const std::string& routine, int order, int parameter, int reported) {
  EXPECT_EQ(cblas_report().parameter, reported) << routine << " parameter " << parameter;
  EXPECT_EQ(cblas_report().row_major, order == CblasRowMajor) << routine << " " << parameter;
  EXPECT_EQ(cblas_report().routine, routine);
  EXPECT_EQ(cblas_report().printed, printed_by_ridge(parameter, routine));
  EXPECT_EQ(RowMajorStrg, 0);
}

// Each case breaks one or two arguments of an otherwise valid 2 x 3 x 4 product: `parameter`
// numbers the first bad one in the user's call, `reported` in the column-major call the reference
// checks, which for row-major order is the transposed one (M and N, lda and ldb swapped). Where
// two are bad, that check reaches N before M and ldb before lda in row-major order.
TEST(CblasGemm, ReportsEveryBadArgumentWithItsParameterNumber) {
  std::vector<float> a(100, 1.0f), b(100, 1.0f), c(100, 5.0f);
  struct Case {
    int order, ta, tb, m, n, k, lda, ldb, ldc, parameter, reported;
  };
  constexpr int R = CblasRowMajor, C = CblasColMajor, N = CblasNoTrans, T = CblasTrans;
  // clang-format off
  const Case cases[] = {
      {99, N, N, 2, 3, 4, 4, 3, 3, 1, 1},
      {R, 7, N, 2, 3, 4, 4, 3, 3, 2, 2},     {C, 7, 7, 2, 3, 4, 2, 4, 2, 2, 2},
      {R, N, 7, 2, 3, 4, 4, 3, 3, 3, 3},     {C, N, 7, 2, 3, 4, 2, 4, 2, 3, 3},
      {R, N, N, -1, 3, 4, 4, 3, 3, 4, 5},    {C, N, N, -1, 3, 4, 2, 4, 2, 4, 4},
      {R, N, N, 2, -1, 4, 4, 3, 3, 5, 4},    {C, N, N, 2, -1, 4, 2, 4, 2, 5, 5},
      {R, N, N, -1, -1, 4, 4, 3, 3, 5, 4},   {C, N, N, -1, -1, 4, 2, 4, 2, 4, 4},
      {R, N, N, 2, 3, -1, 4, 3, 3, 6, 6},    {C, N, N, 2, 3, -1, 2, 4, 2, 6, 6},
      {R, N, N, 2, 3, 4, 3, 3, 3, 9, 11},    {C, N, N, 2, 3, 4, 1, 4, 2, 9, 9},     // lda < K, < M
      {R, T, N, 2, 3, 4, 1, 3, 3, 9, 11},    {C, T, N, 2, 3, 4, 3, 4, 2, 9, 9},     // A^T: < M, < K
      {R, N, N, 2, 3, 4, 4, 2, 3, 11, 9},    {C, N, N, 2, 3, 4, 2, 3, 2, 11, 11},   // ldb < N, < K
      {R, N, T, 2, 3, 4, 4, 3, 3, 11, 9},    {C, N, T, 2, 3, 4, 2, 2, 2, 11, 11},   // B^T: < K, < N
      {R, N, N, 2, 3, 4, 3, 2, 3, 11, 9},    {C, N, N, 2, 3, 4, 1, 3, 2, 9, 9},     // both bad
      {R, N, N, 2, 3, 4, 4, 3, 2, 14, 14},   {C, N, N, 2, 3, 4, 2, 4, 1, 14, 14},   // ldc < N, < M
  };
  // clang-format on
  for (const Case& t : cases) {
    cblas_report().reset();
    cblas_sgemm(static_cast<CBLAS_ORDER>(t.order), static_cast<CBLAS_TRANSPOSE>(t.ta),
                static_cast<CBLAS_TRANSPOSE>(t.tb), t.m, t.n, t.k, 1.0f, a.data(), t.lda, b.data(),
                t.ldb, 0.0f, c.data(), t.ldc);
    expect_report("cblas_sgemm", t.order, t.parameter, t.reported);
    cblas_report().reset();
    std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end()), cd(100, 5.0);
    cblas_dgemm(static_cast<CBLAS_ORDER>(t.order), static_cast<CBLAS_TRANSPOSE>(t.ta),
                static_cast<CBLAS_TRANSPOSE>(t.tb), t.m, t.n, t.k, 1.0, ad.data(), t.lda, bd.data(),
                t.ldb, 0.0, cd.data(), t.ldc);
    expect_report("cblas_dgemm", t.order, t.parameter, t.reported);
    for (double x : cd) EXPECT_EQ(x, 5.0);
    cblas_report().reset();
    const std::vector<std::uint16_t> a16(100, 0x3f80), b16(100, 0x3f80);  // bf16 ones
    std::vector<float> c16(100, 5.0f);
    cblas_sbgemm(static_cast<CBLAS_ORDER>(t.order), static_cast<CBLAS_TRANSPOSE>(t.ta),
                 static_cast<CBLAS_TRANSPOSE>(t.tb), t.m, t.n, t.k, 1.0f, a16.data(), t.lda,
                 b16.data(), t.ldb, 0.0f, c16.data(), t.ldc);
    expect_report("cblas_sbgemm", t.order, t.parameter, t.reported);
    for (float x : c16) EXPECT_EQ(x, 5.0f);
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

// A 4 x 3 matrix (stored 4 x 3 in the given order) with one or two bad arguments each;
// `parameter` and `reported` as for GEMM (row-major order: M and N swapped).
TYPED_TEST(CblasGemv, ReportsEveryBadArgumentWithItsParameterNumber) {
  using T = TypeParam;
  std::vector<T> a(64, T(1)), x(16, T(1)), y(16, T(5));
  struct Case {
    int order, trans, m, n, lda, incx, incy, parameter, reported;
  };
  constexpr int R = CblasRowMajor, C = CblasColMajor, N = CblasNoTrans;
  // clang-format off
  const Case cases[] = {
      {0, N, 4, 3, 4, 1, 1, 1, 1},
      {R, 0, 4, 3, 3, 1, 1, 2, 2},    {C, 200, 4, 3, 4, 1, 1, 2, 2},
      {R, N, -1, 3, 3, 1, 1, 3, 4},   {C, N, -1, 3, 4, 1, 1, 3, 3},
      {R, N, 4, -1, 3, 1, 1, 4, 3},   {C, N, 4, -1, 4, 1, 1, 4, 4},
      {R, N, -1, -1, 3, 1, 1, 4, 3},  {C, N, -1, -1, 4, 1, 1, 3, 3},  // row-major sees N first
      {R, N, 4, 3, 2, 1, 1, 7, 7},    {C, N, 4, 3, 3, 1, 1, 7, 7},    // lda < N, lda < M
      {R, N, 4, 3, 3, 0, 1, 9, 9},    {C, N, 4, 3, 4, 0, 1, 9, 9},
      {R, N, 4, 3, 3, 1, 0, 12, 12},  {C, N, 4, 3, 4, 1, 0, 12, 12},
      {C, N, 4, 3, 3, 0, 0, 7, 7},    {R, N, 4, 3, 3, 0, 0, 9, 9},
  };
  // clang-format on
  const std::string routine = sizeof(T) == 4 ? "cblas_sgemv" : "cblas_dgemv";
  for (const Case& t : cases) {
    cblas_report().reset();
    cblas_gemv<T>(static_cast<CBLAS_ORDER>(t.order), static_cast<CBLAS_TRANSPOSE>(t.trans), t.m,
                  t.n, T(1), a.data(), t.lda, x.data(), t.incx, T(0), y.data(), t.incy);
    expect_report(routine, t.order, t.parameter, t.reported);
  }
  for (T v : y) EXPECT_EQ(v, T(5));
}

// ridge's default handler, given reports as any CBLAS makes them: with RowMajorStrg set it swaps
// back exactly the pairs that the transposition swaps for the routine named, and it prints the
// message it is given.
TEST(CblasXerbla, DefaultHandlerPrintsTheUsersParameterNumber) {
  struct Case {
    const char* routine;
    int row_major, reported, parameter;
  };
  const Case cases[] = {
      {"cblas_sgemm", 1, 4, 5},  {"cblas_sgemm", 1, 5, 4}, {"cblas_dgemm", 1, 9, 11},
      {"cblas_dgemm", 1, 11, 9}, {"cblas_sgemm", 1, 6, 6}, {"cblas_sgemm", 1, 14, 14},
      {"cblas_sgemm", 0, 4, 4},  {"cblas_dgemm", 0, 9, 9}, {"cblas_sgemv", 1, 3, 4},
      {"cblas_dgemv", 1, 4, 3},  {"cblas_sgemv", 1, 7, 7}, {"cblas_dgemv", 0, 3, 3},
      {"cblas_ssymv", 1, 3, 3},
  };
  for (const Case& t : cases) {
    RowMajorStrg = t.row_major;
    cblas_xerbla(t.reported, t.routine, "");
    RowMajorStrg = 0;
    EXPECT_EQ(cblas_report().printed, printed_by_ridge(t.parameter, t.routine))
        << t.routine << " " << t.row_major << " " << t.reported;
  }
  cblas_xerbla(2, "cblas_sgemm", "order %d is neither %s\n", 7, "row- nor column-major");
  EXPECT_EQ(cblas_report().printed,
            printed_by_ridge(2, "cblas_sgemm") + "order 7 is neither row- nor column-major\n");
}

}  // namespace
}  // namespace ridge::test

// ridge::gemv against the long-double reference: both layouts and transpositions, sizes at the
// kernels' edges (vector width, column groups, the row block), padded leading dimensions,
// negative and non-unit increments, alpha/beta special values, NaN and Inf, and the threaded
// split. The suite runs once per ISA (RIDGE_ISA, see tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "gemv/reference.hpp"
#include "kernels/cache_model.hpp"
#include "ridge/ridge.hpp"

namespace ridge::test {
namespace {

template <class T>
class GemvTest : public ::testing::Test {
 protected:
  void SetUp() override { set_num_threads(0); }
  void TearDown() override { set_num_threads(0); }

  // One y = alpha * op(A) x + beta * y for op(A) m x n; "" or the first failure.
  std::string check(std::int64_t m, std::int64_t n, Layout layout, Transpose t, T alpha, T beta,
                    std::int64_t incx = 1, std::int64_t incy = 1, std::int64_t ld_extra = 0) {
    std::mt19937 rng(static_cast<unsigned>(m * 7919 + n * 31 + incx * 7 + incy));
    Matrix<T> a(t == Transpose::none ? m : n, t == Transpose::none ? n : m, layout, ld_extra);
    StridedVector<T> x(n, incx), y(m, incy);
    a.fill_random(rng);
    x.fill_random(rng);
    y.fill_random(rng);
    const GemvReference<T> want = reference_gemv(alpha, a, t, x, beta, y);
    gemv(alpha, a.view(t), x.view(), beta, y.view());
    const std::string miss = compare(y, want);
    if (miss.empty()) return miss;
    return std::to_string(m) + "x" + std::to_string(n) + " layout " + std::to_string(int(layout)) +
           " trans " + std::to_string(int(t)) + " incx " + std::to_string(incx) + " incy " +
           std::to_string(incy) + " alpha " + std::to_string(alpha) + " beta " +
           std::to_string(beta) + ": " + miss;
  }

  void check_all_layouts(std::int64_t m, std::int64_t n, T alpha = T(1), T beta = T(0),
                         std::int64_t incx = 1, std::int64_t incy = 1, std::int64_t ld_extra = 0) {
    for (Layout layout : {Layout::row_major, Layout::col_major})
      for (Transpose t : {Transpose::none, Transpose::transpose})
        ASSERT_EQ(check(m, n, layout, t, alpha, beta, incx, incy, ld_extra), "");
  }
};

using ElementTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(GemvTest, ElementTypes);

// 0, 1, primes, and one either side of the vector widths (2 to 16 elements), two vectors, the
// column sweep's 8-column groups and the dot kernel's 6-row tiles.
TYPED_TEST(GemvTest, SmallSizes) {
  const std::set<std::int64_t> sizes = {0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 15, 16, 17, 31, 32, 33, 47};
  for (std::int64_t m : sizes)
    for (std::int64_t n : sizes) this->check_all_layouts(m, n, TypeParam(1), TypeParam(0.5));
}

// Around this machine's largest column-sweep row block (partial sums in half of L2,
// kernels/matrix_vector.cpp) and past two of them, where the blocks are balanced.
TYPED_TEST(GemvTest, RowBlockEdges) {
  const kernels::CacheModel& caches = kernels::CacheModel::current();
  const std::int64_t block = caches.l2_streamed / 2 / std::int64_t{sizeof(TypeParam)};
  for (std::int64_t m : {block - 1, block, block + 1, 2 * block + 5})
    for (std::int64_t n : {1, 9}) {
      this->check_all_layouts(m, n, TypeParam(1), TypeParam(0));
      this->check_all_layouts(n, m, TypeParam(1), TypeParam(0));
    }
}

TYPED_TEST(GemvTest, PaddedLeadingDimension) {
  this->check_all_layouts(37, 29, TypeParam(1), TypeParam(0), 1, 1, 3);
  this->check_all_layouts(64, 64, TypeParam(-2), TypeParam(1), 1, 1, 17);
}

// Increments as BLAS defines them: non-unit, negative (the vector walked from its end), mixed.
TYPED_TEST(GemvTest, Increments) {
  for (std::int64_t incx : {1, 2, -1, -3})
    for (std::int64_t incy : {1, 3, -1, -2}) {
      this->check_all_layouts(19, 23, TypeParam(0.75), TypeParam(-0.5), incx, incy);
      this->check_all_layouts(1, 5, TypeParam(1), TypeParam(0), incx, incy);
    }
}

TYPED_TEST(GemvTest, AlphaBetaValues) {
  using T = TypeParam;
  for (T alpha : {T(0), T(1), T(-1), T(0.5)})
    for (T beta : {T(0), T(1), T(-1), T(2.5)}) this->check_all_layouts(21, 18, alpha, beta, 1, -2);
}

// beta = 0 must not read y: NaN already there does not survive. alpha = 0 (or no columns) must
// not read A or x; beta = 1 then leaves y exactly as it was.
TYPED_TEST(GemvTest, SpecialValuesAreNotRead) {
  using T = TypeParam;
  for (Transpose t : {Transpose::none, Transpose::transpose}) {
    Matrix<T> a(20, 20, Layout::col_major);
    StridedVector<T> x(20, 1), y(20, 1);
    std::mt19937 rng(3);
    a.fill_random(rng);
    x.fill_random(rng);
    for (std::int64_t i = 0; i < 20; ++i) y.at(i) = std::numeric_limits<T>::quiet_NaN();
    gemv(T(1), a.view(t), x.view(), T(0), y.view());
    for (std::int64_t i = 0; i < 20; ++i) EXPECT_FALSE(std::isnan(y.at(i)));

    for (T& v : a.storage) v = std::numeric_limits<T>::quiet_NaN();
    for (std::int64_t i = 0; i < 20; ++i) x.at(i) = std::numeric_limits<T>::infinity();
    y.fill_random(rng);
    const std::vector<T> before = y.storage;
    gemv(T(0), a.view(t), x.view(), T(1), y.view());
    EXPECT_EQ(y.storage, before);
    gemv(T(0), a.view(t), x.view(), T(2), y.view());
    for (std::int64_t i = 0; i < 20; ++i) EXPECT_EQ(y.at(i), 2 * before[i]);
    gemv(T(0), a.view(t), x.view(), T(0), y.view());
    for (std::int64_t i = 0; i < 20; ++i) EXPECT_EQ(y.at(i), T(0));
  }
}

// NaN and Inf in A reach exactly the elements of y they feed, as IEEE arithmetic says.
TYPED_TEST(GemvTest, NanAndInfInAPropagate) {
  using T = TypeParam;
  for (T special : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity()})
    for (Layout layout : {Layout::row_major, Layout::col_major})
      for (Transpose t : {Transpose::none, Transpose::transpose}) {
        const std::int64_t m = 37, n = 41;
        Matrix<T> a(t == Transpose::none ? m : n, t == Transpose::none ? n : m, layout);
        for (T& v : a.storage) v = T(0.5);
        StridedVector<T> x(n, 1), y(m, -1);
        for (std::int64_t j = 0; j < n; ++j) x.at(j) = T(1);
        std::mt19937 rng(5);
        y.fill_random(rng);
        const std::int64_t bad_row = 17, bad_column = 30;
        (t == Transpose::none ? a.at(bad_row, bad_column) : a.at(bad_column, bad_row)) = special;
        const GemvReference<T> want = reference_gemv(T(1), a, t, x, T(1), y);
        gemv(T(1), a.view(t), x.view(), T(1), y.view());
        ASSERT_EQ(compare(y, want), "");
        EXPECT_EQ(std::isnan(y.at(bad_row)), std::isnan(special));
        EXPECT_EQ(std::isinf(y.at(bad_row)), std::isinf(special));
      }
}

// Large enough to split between threads: every thread count gives the same bits (each y element
// sees the same operations wherever the parts begin), and they match the reference.
TYPED_TEST(GemvTest, ThreadsSplitWithoutChangingResults) {
  using T = TypeParam;
  const std::int64_t m = 1031, n = 523;  // 2 MiB (f32) of A: several 64 KiB parts
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Transpose t : {Transpose::none, Transpose::transpose}) {
      std::vector<std::vector<T>> results;
      for (int threads : {1, 2, 3, 4}) {
        set_num_threads(threads);
        ASSERT_EQ(this->check(m, n, layout, t, T(1.5), T(-1)), "") << threads << " threads";
        Matrix<T> a(t == Transpose::none ? m : n, t == Transpose::none ? n : m, layout);
        StridedVector<T> x(n, 1), y(m, 1);
        std::mt19937 rng(11);
        a.fill_random(rng);
        x.fill_random(rng);
        gemv(T(1), a.view(t), x.view(), T(0), y.view());
        results.push_back(y.storage);
      }
      for (const auto& r : results) EXPECT_EQ(r, results.front());
    }
}

TYPED_TEST(GemvTest, RejectsBadArgumentsNamingThem) {
  using T = TypeParam;
  std::vector<T> a(64, T(1)), x(8, T(1)), y(8, T(7));
  const auto call = [&](MatrixView<const T> av, VectorView<const T> xv, VectorView<T> yv) {
    try {
      gemv(T(1), av, xv, T(0), yv);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  const auto a8 = row_major<const T>(a.data(), 8, 8);
  EXPECT_EQ(
      call(row_major<const T>(a.data(), -1, 8), vector<const T>(x.data(), 8), vector(y.data(), 8)),
      "ridge::gemv: a.rows is negative (-1)");
  EXPECT_EQ(call(row_major<const T>(a.data(), 8, 8, 4), vector<const T>(x.data(), 8),
                 vector(y.data(), 8)),
            "ridge::gemv: a.ld (4) is below the column count (8)");
  EXPECT_EQ(call(a8, vector<const T>(x.data(), 8, 0), vector(y.data(), 8)),
            "ridge::gemv: x.inc is zero");
  EXPECT_EQ(call(a8, vector<const T>(x.data(), 8), vector(y.data(), -2)),
            "ridge::gemv: y.size is negative (-2)");
  EXPECT_EQ(call(a8, vector<const T>(nullptr, 8), vector(y.data(), 8)),
            "ridge::gemv: x.data is null");
  EXPECT_EQ(call(a8, vector<const T>(x.data(), 8), vector(y.data(), 7)),
            "ridge::gemv: op(a) has 8 rows but y has 7 elements");
  EXPECT_EQ(call(a8, vector<const T>(x.data(), 6), vector(y.data(), 8)),
            "ridge::gemv: op(a) has 8 columns but x has 6 elements");
  for (T v : y) EXPECT_EQ(v, T(7));
}

}  // namespace
}  // namespace ridge::test

// ridge::gemm against the long-double reference through the public API: shapes at the edges of
// the active ISA's tiles and of this machine's blocks, all layouts and transpositions, padded
// strides, alpha/beta special values, NaN and Inf. Which path a shape takes here depends on
// the machine's caches; the loops themselves are covered independently of them, with explicit
// blocks and options, in loops_test.cpp. The suite runs once per ISA (RIDGE_ISA, see
// tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "gemm/dispatch.hpp"
#include "gemm/reference.hpp"
#include "gemm/tuning_candidates.hpp"
#include "ridge/ridge.hpp"

namespace ridge::test {
namespace {

template <class T>
class GemmTest : public ::testing::Test {
 protected:
  void SetUp() override { set_num_threads(0); }
  const gemm_detail::TypedKernels<T>& table() const {
    return gemm_detail::gemm_kernels<T>(active_isa());
  }

  // Runs one GEMM and compares with the reference; returns "" or the first failure.
  std::string check(std::int64_t m, std::int64_t n, std::int64_t k, Layout layout_a, Transpose ta,
                    Layout layout_b, Transpose tb, Layout layout_c, T alpha, T beta,
                    std::int64_t ld_extra = 0) {
    std::mt19937 rng(static_cast<unsigned>(m * 7919 + n * 31 + k));
    Matrix<T> a(ta == Transpose::none ? m : k, ta == Transpose::none ? k : m, layout_a, ld_extra);
    Matrix<T> b(tb == Transpose::none ? k : n, tb == Transpose::none ? n : k, layout_b, ld_extra);
    Matrix<T> c(m, n, layout_c, ld_extra);
    a.fill_random(rng);
    b.fill_random(rng);
    c.fill_random(rng);
    const Reference<T> want = reference_gemm(alpha, a, ta, b, tb, beta, c);
    gemm(alpha, a.view(ta), b.view(tb), beta, c.view());
    const std::string miss = compare(c, want);
    if (miss.empty()) return miss;
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + " layouts " +
           std::to_string(int(layout_a)) + std::to_string(int(layout_b)) +
           std::to_string(int(layout_c)) + " trans " + std::to_string(int(ta)) +
           std::to_string(int(tb)) + " alpha " + std::to_string(alpha) + " beta " +
           std::to_string(beta) + ": " + miss;
  }

  // Every combination of C's layout and A's and B's transposition (A and B share C's layout,
  // as in BLAS), plus mixed layouts of A and B.
  void check_all_layouts(std::int64_t m, std::int64_t n, std::int64_t k, T alpha = T(1),
                         T beta = T(0), std::int64_t ld_extra = 0) {
    for (Layout lc : {Layout::row_major, Layout::col_major})
      for (Transpose ta : {Transpose::none, Transpose::transpose})
        for (Transpose tb : {Transpose::none, Transpose::transpose}) {
          const std::string miss = check(m, n, k, lc, ta, lc, tb, lc, alpha, beta, ld_extra);
          ASSERT_EQ(miss, "");
        }
    const Layout other[] = {Layout::col_major, Layout::row_major};
    ASSERT_EQ(check(m, n, k, Layout::row_major, Transpose::none, Layout::col_major,
                    Transpose::none, Layout::row_major, alpha, beta, ld_extra),
              "");
    ASSERT_EQ(check(m, n, k, other[0], Transpose::transpose, other[1], Transpose::none,
                    Layout::col_major, alpha, beta, ld_extra),
              "");
  }
};

using ElementTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(GemmTest, ElementTypes);

TYPED_TEST(GemmTest, RunsTheIsaThatRidgeIsaAsks) {
  const char* requested = std::getenv("RIDGE_ISA");
  if (requested == nullptr) GTEST_SKIP() << "RIDGE_ISA not set";
  const std::string want = requested;
  bool supported = false;
  for (Isa isa : {Isa::generic, Isa::avx2, Isa::avx512})
    if (want == isa_name(isa)) supported = isa_supported(isa);
  if (!supported) GTEST_SKIP() << "this CPU cannot run " << want;
  EXPECT_EQ(want, isa_name(active_isa()));
  EXPECT_EQ(want, this->table().kernels.isa);
}

// Small dimensions around the micro-tile: 0, 1, primes, MR - 1 .. MR + 1, NR - 1 .. NR + 1.
TYPED_TEST(GemmTest, TileEdges) {
  const std::int64_t mr = this->table().kernels.mr, nr = this->table().kernels.nr;
  const std::set<std::int64_t> ms = {0, 1, 2, 7, mr - 1, mr, mr + 1, 2 * mr + 3};
  const std::set<std::int64_t> ns = {0, 1, 5, nr - 1, nr, nr + 1, 2 * nr + 1};
  for (std::int64_t m : ms)
    for (std::int64_t n : ns)
      for (std::int64_t k : {0, 1, 3, 17, 64}) {
        for (Layout lc : {Layout::row_major, Layout::col_major})
          for (Transpose ta : {Transpose::none, Transpose::transpose})
            for (Transpose tb : {Transpose::none, Transpose::transpose})
              ASSERT_EQ(this->check(m, n, k, lc, ta, lc, tb, lc, TypeParam(1), TypeParam(0.5)),
                        "");
      }
}

// This machine's depth block KC - 1 .. KC + 1, with the wider operand past what the direct path
// keeps in L2 (BlockSizes::l2_elements), so the driver splits the depth at KC in every layout (the
// packed path for column-major C; the transposed problem of row-major C may take the direct
// path's depth slices), and rows one past MC.
TYPED_TEST(GemmTest, BlockEdgesOnThePackedPath) {
  const gemm_detail::BlockSizes& bs = this->table().blocks;
  const std::int64_t mr = this->table().kernels.mr;
  for (std::int64_t k : {bs.kc - 1, bs.kc, bs.kc + 1}) {
    const std::int64_t n = bs.l2_elements / k + 7;  // k * n just past the direct path's limit
    this->check_all_layouts(mr + 1, n, k, TypeParam(1), TypeParam(0));
  }
  // MC + 1 rows against a B past the direct path's limit: at least MC x l2_elements multiply-adds
  // whatever the split between N and K, billions where CPUID reports a large L3 (MC = 29376 on
  // a 2-vCPU guest told of 480 MiB), so the reference covers the rows where blocks and the
  // thread split meet, not all of them. C starts as NaN: beta = 0 must not read it.
  const std::int64_t m = bs.mc + 1, k = 40, n = bs.l2_elements / k + 1;
  std::mt19937 rng(17);
  Matrix<TypeParam> a(m, k, Layout::row_major), b(k, n, Layout::row_major);
  Matrix<TypeParam> c(m, n, Layout::col_major);
  a.fill_random(rng);
  b.fill_random(rng);
  gemm(TypeParam(-1), a.view(), b.view(), TypeParam(0), c.view());
  std::set<std::int64_t> edge_rows = {0, 1, m / 2 - 1, m / 2, m / 2 + 1};
  for (std::int64_t i = std::max<std::int64_t>(0, bs.mc - mr); i < m; ++i) edge_rows.insert(i);
  const Reference<TypeParam> want =
      reference_gemm_rows(TypeParam(-1), a, Transpose::none, b, Transpose::none, TypeParam(0), c,
                          {edge_rows.begin(), edge_rows.end()});
  ASSERT_EQ(compare(c, want), "");
  for (std::int64_t j = 0; j < n; ++j)  // and every other element written
    for (std::int64_t i = 0; i < m; ++i) ASSERT_TRUE(std::isfinite(c.at(i, j))) << i << "," << j;
}

// Primes and sizes large enough to take the packed path and several blocks, padded strides.
TYPED_TEST(GemmTest, LargerShapesWithPaddedStrides) {
  this->check_all_layouts(127, 131, 257, TypeParam(1), TypeParam(-2), 5);
  this->check_all_layouts(300, 97, 61, TypeParam(0.5), TypeParam(1), 3);
}

// Skinny shapes (M or N <= 32 against a long K), as in LLM decoding.
TYPED_TEST(GemmTest, SkinnyShapes) {
  for (std::int64_t small : {1, 3, 8, 32}) {
    this->check_all_layouts(small, 300, 517);
    this->check_all_layouts(300, small, 517);
  }
  const std::int64_t long_k = 2 * this->table().blocks.kc + 3;  // several depth blocks
  this->check_all_layouts(8, 70, long_k, TypeParam(-1), TypeParam(1));
  // The dot-product path (A rows and B columns contiguous, as row-major x W^T): every column
  // group size (1 to 4, balanced), a last row tile of 1 or 2 rows, a depth that ends mid-vector.
  for (std::int64_t small : {1, 2, 5, 7, 15, 31})
    for (std::int64_t rows : {1, 301, 302})
      ASSERT_EQ(this->check(small, rows, 517, Layout::row_major, Transpose::none,
                            Layout::row_major, Transpose::transpose, Layout::row_major,
                            TypeParam(-1), TypeParam(0.5), 3),
                "");
  // ... and with x stored transposed (its rows along the depth): the dot products, on a copy of
  // x's columns, where W lies past L2.
  for (std::int64_t small : {2, 5, 16})
    ASSERT_EQ(
        this->check(small, 1100, 700, Layout::row_major, Transpose::transpose, Layout::row_major,
                    Transpose::transpose, Layout::row_major, TypeParam(1), TypeParam(0.5), 3),
        "");
  // x W with a few rows of x against W as stored (row-major, its rows along the outputs): the
  // column sweep over all the rows at once, where W lies past L1 (two rows) or L2 (more).
  for (std::int64_t small : {2, 3, 5, 8})
    ASSERT_EQ(this->check(small, 1100, 700, Layout::row_major, Transpose::none, Layout::row_major,
                          Transpose::none, Layout::row_major, TypeParam(0.5), TypeParam(-1), 3),
              "");
  // A few columns of B (rows of x) against A in place (W as stored) within L2: the direct path,
  // on tiles of twice MR rows where the ISA has them (TileShape::tall_columns), C's column ending
  // within a tile's first or second half, at its end or one row past it; and with A's columns a
  // page or more apart, the tiles starting on A's lines after a shorter first one.
  for (std::int64_t small : {3, 4, 6})
    for (std::int64_t rows : {31, 33, 64, 65, 97, 130, 1030})
      ASSERT_EQ(this->check(small, rows, 300, Layout::row_major, Transpose::none, Layout::row_major,
                            Transpose::none, Layout::row_major, TypeParam(0.5), TypeParam(-1), 3),
                "");
  // A skinny product whose large operand's columns lie a page or more apart (rows of a row-major
  // B with N >= 1 KiB of elements): its depth slices are capped (64 deep unless tuned).
  const std::int64_t page_n = 4096 / sizeof(TypeParam) + 6;
  this->check_all_layouts(20, page_n, 600, TypeParam(0.5), TypeParam(-2));
  // Rows of the small operand exactly 4 KiB apart: they would crowd one L1 set, so the direct
  // path packs its depth slices although the whole operand fits L2.
  const std::int64_t page_k = 4096 / sizeof(TypeParam);
  for (std::int64_t small : {8, 32}) {
    this->check_all_layouts(small, 100, page_k, TypeParam(1), TypeParam(0.5));
    this->check_all_layouts(100, small, page_k, TypeParam(1), TypeParam(0.5));
  }
}

TYPED_TEST(GemmTest, AlphaBetaSpecialValues) {
  for (TypeParam alpha : {0.0, 1.0, -1.0, 0.5})
    for (TypeParam beta : {0.0, 1.0, -2.0}) {
      this->check_all_layouts(37, 29, 45, alpha, beta);    // direct path
      this->check_all_layouts(35, 1200, 230, alpha, beta);  // packed path (B past L2)
    }
}

// beta = 0 must not read C: NaN already there does not survive. alpha = 0 must not read A, B.
TYPED_TEST(GemmTest, BetaZeroIgnoresNanInCAndAlphaZeroIgnoresAB) {
  using T = TypeParam;
  for (std::int64_t size : {5, 40, 150}) {
    std::mt19937 rng(1);
    Matrix<T> a(size, size, Layout::row_major), b(size, size, Layout::row_major),
        c(size, size, Layout::row_major);
    a.fill_random(rng);
    b.fill_random(rng);
    for (T& x : c.storage) x = std::numeric_limits<T>::quiet_NaN();
    gemm(T(1), a.view(), b.view(), T(0), c.view());
    for (std::int64_t i = 0; i < size; ++i)
      for (std::int64_t j = 0; j < size; ++j) ASSERT_FALSE(std::isnan(c.at(i, j)));

    for (T& x : a.storage) x = std::numeric_limits<T>::quiet_NaN();
    for (T& x : b.storage) x = std::numeric_limits<T>::infinity();
    c.fill_random(rng);
    const T before = c.at(size - 1, size - 1);
    gemm(T(0), a.view(), b.view(), T(2), c.view());
    EXPECT_EQ(c.at(size - 1, size - 1), 2 * before);
    gemm(T(0), a.view(), b.view(), T(0), c.view());
    for (std::int64_t i = 0; i < size; ++i)
      for (std::int64_t j = 0; j < size; ++j) ASSERT_EQ(c.at(i, j), T(0));
  }
}

// NaN and Inf in A reach exactly the elements of C they feed, as IEEE arithmetic says.
TYPED_TEST(GemmTest, NanAndInfInAPropagate) {
  using T = TypeParam;
  for (std::int64_t size : {9, 40, 150}) {
    for (T special : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity()}) {
      std::mt19937 rng(2);
      Matrix<T> a(size, size, Layout::col_major), b(size, size, Layout::col_major),
          c(size, size, Layout::col_major);
      a.fill_random(rng);
      for (std::int64_t i = 0; i < size; ++i)
        for (std::int64_t j = 0; j < size; ++j) b.at(i, j) = T(1);  // no Inf - Inf cancellation
      const std::int64_t row = size / 2;
      a.at(row, size - 1) = special;
      gemm(T(1), a.view(), b.view(), T(0), c.view());
      for (std::int64_t i = 0; i < size; ++i)
        for (std::int64_t j = 0; j < size; ++j) {
          if (i == row) {
            ASSERT_TRUE(std::isnan(special) ? std::isnan(c.at(i, j)) : std::isinf(c.at(i, j)))
                << i << "," << j;
          } else {
            ASSERT_TRUE(std::isfinite(c.at(i, j))) << i << "," << j;
          }
        }
    }
  }
}

// Every value `ridge tune` may choose, one field at a time, on shapes whose path the field
// steers: the packed path (a_level), the direct path's depth slices (slab_depth), a skinny
// product reading A a page per column (skinny_depth) and an A larger than L2 against a B that
// fits it (tall_a_path). Independent of this machine's caches only through their sizes. The
// blocks a_level and b_l1_ways choose (MC, KC) are any the packed path may get: loops_test.cpp
// runs it across every block boundary with explicit blocks.
TYPED_TEST(GemmTest, EveryTuningCandidateIsCorrect) {
  const Isa isa = active_isa();
  const GemmTuning before = gemm_tuning(isa);
  const std::int64_t page = 4096 / sizeof(TypeParam);
  const std::int64_t l2_rows = this->table().caches.l2_streamed / sizeof(TypeParam) / 300 + 5;
  for (const gemm_detail::TuningStep& step : gemm_detail::tuning_steps())
    for (const gemm_detail::TuningField& field : step.fields)
      for (std::int64_t value : field.candidates) {
        GemmTuning t;
        field.set(t, value);
        set_gemm_tuning(isa, t);
        SCOPED_TRACE(std::string(field.name) + " " + std::to_string(value));
        for (Layout lc : {Layout::row_major, Layout::col_major})
          ASSERT_EQ(this->check(131, 97, 600, lc, Transpose::none, lc, Transpose::transpose, lc,
                                TypeParam(1), TypeParam(0.5)),
                    "");
        ASSERT_EQ(
            this->check(300, 20, 1030, Layout::col_major, Transpose::none, Layout::col_major,
                        Transpose::none, Layout::col_major, TypeParam(-1), TypeParam(1), page),
            "");
        ASSERT_EQ(
            this->check(l2_rows, 40, 300, Layout::col_major, Transpose::none, Layout::col_major,
                        Transpose::none, Layout::col_major, TypeParam(1), TypeParam(0)),
            "");
      }
  set_gemm_tuning(isa, before);
}

TYPED_TEST(GemmTest, EveryIsaAgreesWithTheReference) {
  const Isa before = active_isa();
  for (Isa isa : {Isa::generic, Isa::avx2, Isa::avx512}) {
    if (!isa_supported(isa)) {
      EXPECT_THROW(set_isa(isa), std::invalid_argument);
      continue;
    }
    set_isa(isa);
    EXPECT_EQ(active_isa(), isa);
    this->check_all_layouts(67, 45, 33, TypeParam(1), TypeParam(1));
    this->check_all_layouts(200, 190, 180, TypeParam(1), TypeParam(1));
  }
  set_isa(before);
}

}  // namespace
}  // namespace ridge::test

// The bf16 GEMM (ridge::gemm on bf16 views, cblas_sbgemm) against an extended-precision reference
// from the same bf16 values, held to the float GEMM's bound (gemm/reference.hpp: the products are
// exact, the sums float): the packed loops of every ISA path across every block boundary, and
// the public entry points over shapes at every edge, both layouts, transpositions, padded leading
// dimensions, alpha and beta's special values, NaN and Inf, and the epilogue.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gemm/dispatch.hpp"
#include "gemm/reference.hpp"
#include "ridge/machine.hpp"
#include "ridge/ridge.h"
#include "ridge/ridge.hpp"
#include "runtime/amx.hpp"
#include "support/alpha_beta.hpp"
#include "support/block_tunings.hpp"
#include "support/isa_paths.hpp"

namespace ridge::test {
namespace {

// A float matrix whose values are all bf16 (so the reference reads exactly what the kernels
// multiply), and its bf16 copy in the same layout and leading dimension.
struct Bf16Matrix {
  Matrix<float> values;
  std::vector<bf16> bits;
  Bf16Matrix(std::int64_t rows, std::int64_t cols, Layout layout, std::int64_t ld_extra,
             std::mt19937& rng)
      : values(rows, cols, layout, ld_extra) {
    values.fill_random(rng);
    for (float& x : values.storage) x = std::isnan(x) ? x : to_float(to_bf16(x));
    sync();
  }
  // The bf16 copy of `values` after they were changed (the gaps stay bf16 NaN).
  void sync() {
    bits.resize(values.storage.size());
    for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = to_bf16(values.storage[i]);
  }
  MatrixView<const bf16> view(Transpose t = Transpose::none) const {
    return {bits.empty() ? nullptr : bits.data(),
            values.rows,
            values.cols,
            values.ld,
            values.layout,
            t};
  }
  const std::uint16_t* raw() const { return reinterpret_cast<const std::uint16_t*>(bits.data()); }
};

using Bf16Kernels = gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t>;
using Bf16Problem = kernels::GemmProblem<float, std::uint16_t, std::uint16_t>;

// p on a kernel set's packed path with `blocks`, in a workspace sized for them.
void run_packed(const Bf16Kernels& kernels, const Bf16Problem& p,
                const gemm_detail::BlockSizes& blocks, const gemm_detail::PackedOptions& options) {
  std::vector<std::byte> work(gemm_detail::packed_workspace<float>(
                                  p.m, p.n, kernels.steps(p.k), blocks, kernels.mr, kernels.nr,
                                  options.copy_ahead, false, kernels.step_multiple)
                                  .bytes());
  kernels.packed(p, blocks, options, work.data());
}

// The packed path of a kernel set on the internal problem (column-major C), blocks small enough
// that modest shapes cross MC, KC and NC and their remainders, each A block packed before its
// tiles or (column-major A, where the kernels widen) copied by the tiles of the block before.
void sweep_packed(const Bf16Kernels& kernels) {
  ASSERT_EQ(kernels.direct, nullptr);
  const int mr = kernels.mr, nr = kernels.nr;
  const gemm_detail::BlockSizes small{2 * mr, 8, 3 * nr, 0};
  std::mt19937 rng(21);
  int index = 0;
  for (int m : std::set<int>{1, mr - 1, mr + 1, 5 * mr + 3})
    for (int n : std::set<int>{1, nr - 1, nr + 1, 7 * nr + 5})
      for (int k : {1, 8, 9, 29, 67})
        for (Layout la : {Layout::col_major, Layout::row_major})
          for (Layout lb : {Layout::col_major, Layout::row_major})
            for (bool copy_ahead : {false, true}) {
              if (copy_ahead && la != Layout::col_major) continue;
              const auto [alpha, beta] = alpha_beta<float>(index++);
              Bf16Matrix a(m, k, la, 2, rng), b(k, n, lb, 1, rng);
              Matrix<float> c(m, n, Layout::col_major, 3);
              c.fill_random(rng);
              const Reference<float> want = reference_gemm(alpha, a.values, Transpose::none,
                                                           b.values, Transpose::none, beta, c);
              std::int64_t a_rs, a_cs, b_rs, b_cs;
              op_strides(a.values.view(), a_rs, a_cs);
              op_strides(b.values.view(), b_rs, b_cs);
              run_packed(kernels,
                         Bf16Problem::from_strides(m, n, k, alpha, a.raw(), a_rs, a_cs, b.raw(),
                                                   b_rs, b_cs, beta, c.data(), 1, c.ld),
                         small, {copy_ahead, 2 * (index % 5)});
              ASSERT_EQ(compare(c, want), "")
                  << m << "x" << n << "x" << k << ", A "
                  << (la == Layout::row_major ? "row" : "col") << ", B "
                  << (lb == Layout::row_major ? "row" : "col") << ", copy ahead " << copy_ahead;
            }
}

class GemmBf16Loops : public ::testing::TestWithParam<Isa> {};

// The kernels each ISA path dispatches to (on AVX-512, the bf16 pairs where the CPU has
// AVX512_BF16).
TEST_P(GemmBf16Loops, PackedPathCrossesEveryBlockBoundary) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  sweep_packed(gemm_detail::gemm_kernels<float, std::uint16_t, std::uint16_t>(GetParam()).kernels);
}

INSTANTIATE_TEST_SUITE_P(Isa, GemmBf16Loops, ::testing::ValuesIn(kAllIsas), isa_test_name);

#if defined(__x86_64__)
// AVX-512's two kernel sets by name, whichever the dispatch picks here: bf16 widened to float
// (AVX-512 F) and bf16 pairs on VDPBF16PS, whose depth steps are pairs.
TEST(GemmBf16, Avx512WideningKernelsCrossEveryBlockBoundary) {
  RIDGE_SKIP_UNLESS_SUPPORTED(Isa::avx512);
  const Bf16Kernels kernels = avx512::gemm_kernels(float{}, std::uint16_t{}, std::uint16_t{});
  ASSERT_EQ(kernels.depth_group, 1);
  sweep_packed(kernels);
}
TEST(GemmBf16, Avx512Bf16PairKernelsCrossEveryBlockBoundary) {
  if (!Machine::current().isa.avx512_bf16) GTEST_SKIP() << "this CPU lacks AVX512_BF16";
  const Bf16Kernels kernels = avx512_bf16::gemm_kernels(float{}, std::uint16_t{}, std::uint16_t{});
  ASSERT_EQ(kernels.depth_group, 2);
  sweep_packed(kernels);
}
TEST(GemmBf16, AmxKernelsCrossEveryBlockBoundary) {
  if (!Machine::current().isa.amx_bf16 || !runtime::amx_usable())
    GTEST_SKIP() << "AMX-BF16 is not usable here";
  const Bf16Kernels kernels = avx512_amx::gemm_kernels(float{}, std::uint16_t{}, std::uint16_t{});
  ASSERT_EQ(kernels.step_multiple, 16);
  sweep_packed(kernels);
}

// A's every element a and B's b, k deep, on a kernel set's packed path: C's first element.
float packed_constant_product(const Bf16Kernels& kernels, std::uint16_t a, std::uint16_t b, int k) {
  const int m = kernels.mr, n = kernels.nr;
  const std::vector<std::uint16_t> a_bits(static_cast<std::size_t>(m) * k, a);
  const std::vector<std::uint16_t> b_bits(static_cast<std::size_t>(k) * n, b);
  std::vector<float> c(static_cast<std::size_t>(m) * n, 1.0f);
  run_packed(kernels,
             Bf16Problem::from_strides(m, n, k, 1.0f, a_bits.data(), 1, m, b_bits.data(), 1, k,
                                       0.0f, c.data(), 1, m),
             {m, 64, n, 0}, {});  // one tile, one slice
  for (float x : c) EXPECT_EQ(std::bit_cast<std::uint32_t>(x), std::bit_cast<std::uint32_t>(c[0]));
  return c[0];
}

#if defined(__x86_64__)
// Subnormals: kept exactly where bf16 is widened to float (the products exact, the sums float
// FMAs), read and written as zero by VDPBF16PS (its rule, whatever MXCSR says): 40 products of
// the least normal bf16 (2^-126) and 2^-10, each a subnormal float, and 40 of the bf16 subnormal
// 2^-133 and 2^10.
TEST(GemmBf16, SubnormalsAreKeptWhereWidenedAndZeroOnTheDotInstruction) {
  constexpr std::uint16_t kLeastNormal = 0x0080, kTwoToMinus10 = 0x3a80;
  constexpr std::uint16_t kSubnormal = 0x0001, kTwoTo10 = 0x4480;
  const float subnormal_sum = 40 * std::ldexp(1.0f, -136);  // 5 x 2^-133, exact
  const float from_subnormals = 40 * std::ldexp(1.0f, -123);
  std::vector<Bf16Kernels> widening = {
      generic::gemm_kernels(float{}, std::uint16_t{}, std::uint16_t{})};
  if (isa_supported(Isa::avx2))
    widening.push_back(avx2::gemm_kernels(float{}, std::uint16_t{}, std::uint16_t{}));
  if (isa_supported(Isa::avx512))
    widening.push_back(avx512::gemm_kernels(float{}, std::uint16_t{}, std::uint16_t{}));
  for (const Bf16Kernels& kernels : widening) {
    EXPECT_EQ(packed_constant_product(kernels, kLeastNormal, kTwoToMinus10, 40), subnormal_sum);
    EXPECT_EQ(packed_constant_product(kernels, kSubnormal, kTwoTo10, 40), from_subnormals);
  }
  if (!Machine::current().isa.avx512_bf16) GTEST_SKIP() << "this CPU lacks AVX512_BF16";
  const Bf16Kernels pairs = avx512_bf16::gemm_kernels(float{}, std::uint16_t{}, std::uint16_t{});
  EXPECT_EQ(packed_constant_product(pairs, kLeastNormal, kTwoToMinus10, 40), 0.0f);
  EXPECT_EQ(packed_constant_product(pairs, kSubnormal, kTwoTo10, 40), 0.0f);
}
#endif

// The tiles on A's rows in place (x W^T, W's rows contiguous: GemmKernels::rows_in_place) against
// the reference, and to the bit against the packed path at the same depth slices (which W packed
// beforehand runs), across a tile's rows and columns, the tile steps of the depth and the
// slices, A's rows an odd and an even number of values apart (the gaps NaN).
TEST(GemmBf16, AmxTilesOnRowsInPlaceAreThePackedPath) {
  if (!Machine::current().isa.amx_bf16 || !runtime::amx_usable())
    GTEST_SKIP() << "AMX-BF16 is not usable here";
  const Bf16Kernels kernels = avx512_amx::gemm_kernels(float{}, std::uint16_t{}, std::uint16_t{});
  ASSERT_NE(kernels.rows_in_place, nullptr);
  const int mr = kernels.mr, nr = kernels.nr;
  const gemm_detail::BlockSizes small{2 * mr, 32, 3 * nr, 0};  // slices of 64 depths
  std::mt19937 rng(22);
  int index = 0;
  for (int m : {1, 31, 32, 33, 70})
    for (int n : {1, 15, 16, 17, 33, 65})
      for (int k : {1, 2, 31, 32, 33, 65, 191})
        for (Layout lb : {Layout::col_major, Layout::row_major}) {
          const auto [alpha, beta] = alpha_beta<float>(index++);
          Bf16Matrix a(m, k, Layout::row_major, 1 + index % 2, rng), b(k, n, lb, 1, rng);
          Matrix<float> c(m, n, Layout::col_major, 3);
          c.fill_random(rng);
          Matrix<float> packed_c = c;
          const Reference<float> want =
              reference_gemm(alpha, a.values, Transpose::none, b.values, Transpose::none, beta, c);
          std::int64_t b_rs, b_cs;
          op_strides(b.values.view(), b_rs, b_cs);
          const auto problem = [&](Matrix<float>& out) {
            return Bf16Problem::from_strides(m, n, k, alpha, a.raw(), a.values.ld, 1, b.raw(), b_rs,
                                             b_cs, beta, out.data(), 1, out.ld);
          };
          const std::int64_t steps = kernels.steps(k);
          const gemm_detail::PackedPlan plan =
              gemm_detail::packed_plan(steps, small, mr, nr, false, kernels.step_multiple);
          std::vector<std::byte> work(kernels.rows_in_place_bytes(m, n, k));
          kernels.rows_in_place(problem(c), plan.depth, work.data());
          ASSERT_EQ(compare(c, want), "")
              << m << "x" << n << "x" << k << ", B " << (lb == Layout::row_major ? "row" : "col");
          run_packed(kernels, problem(packed_c), small, {});
          for (std::size_t i = 0; i < c.storage.size(); ++i)
            ASSERT_EQ(std::bit_cast<std::uint32_t>(c.storage[i]),
                      std::bit_cast<std::uint32_t>(packed_c.storage[i]))
                << m << "x" << n << "x" << k << " at " << i << ", alpha " << alpha << ", beta "
                << beta;
        }
}
#endif

TEST(GemmBf16, MatchesTheReferenceAtEveryEdge) {
  std::mt19937 rng(5);
  int index = 0;
  for (std::int64_t m : {0, 1, 2, 7, 17, 31, 64, 97})
    for (std::int64_t n : {0, 1, 5, 13, 50})
      for (std::int64_t k : {0, 1, 3, 64, 251})
        for (Layout layout : {Layout::row_major, Layout::col_major}) {
          const Transpose ta = index % 2 ? Transpose::transpose : Transpose::none;
          const Transpose tb = index % 4 >= 2 ? Transpose::transpose : Transpose::none;
          const auto [alpha, beta] = alpha_beta<float>(index++);
          Bf16Matrix a(ta == Transpose::none ? m : k, ta == Transpose::none ? k : m, layout,
                       index % 3, rng);
          Bf16Matrix b(tb == Transpose::none ? k : n, tb == Transpose::none ? n : k, layout,
                       index % 2, rng);
          Matrix<float> c(m, n, layout, 2);
          c.fill_random(rng);
          const Reference<float> want = reference_gemm(alpha, a.values, ta, b.values, tb, beta, c);
          gemm(alpha, a.view(ta), b.view(tb), beta, c.view());
          ASSERT_EQ(compare(c, want), "") << m << "x" << n << "x" << k << " index " << index;
        }
}

// Every block tuning `ridge tune` may save (the A block in L2 or L3, B's micro-panel in few or
// all L1 ways) on the packed path, across its depth slices and blocks.
TEST(GemmBf16, MatchesTheReferenceUnderEveryBlockTuning) {
  std::mt19937 rng(6);
  for_each_block_tuning([&](const std::string& tuning) {
    for (const auto& [m, n, k] : {std::array<std::int64_t, 3>{131, 97, 700}, {300, 40, 1030}}) {
      Bf16Matrix a(m, k, Layout::row_major, 1, rng), b(k, n, Layout::row_major, 0, rng);
      Matrix<float> c(m, n, Layout::row_major, 1);
      c.fill_random(rng);
      const Reference<float> want =
          reference_gemm(0.5f, a.values, Transpose::none, b.values, Transpose::none, 2.0f, c);
      gemm(0.5f, a.view(Transpose::none), b.view(Transpose::none), 2.0f, c.view());
      ASSERT_EQ(compare(c, want), "") << m << "x" << n << "x" << k << ", " << tuning;
    }
  });
}

// One row of C (x W, W row-major: the column sweep on bf16) wide enough to split between threads,
// and the other layouts of that shape, which take the packed path.
TEST(GemmBf16, OneRowAgainstWideWeights) {
  std::mt19937 rng(12);
  const std::int64_t n = 4099, k = 301;
  int index = 0;
  for (Layout layout : {Layout::row_major, Layout::col_major})
    for (Transpose tb : {Transpose::none, Transpose::transpose}) {
      const auto [alpha, beta] = alpha_beta<float>(index++ + 2);
      Bf16Matrix a(1, k, layout, 0, rng);
      Bf16Matrix b(tb == Transpose::none ? k : n, tb == Transpose::none ? n : k, layout, 3, rng);
      Matrix<float> c(1, n, layout, 0);
      c.fill_random(rng);
      const Reference<float> want =
          reference_gemm(alpha, a.values, Transpose::none, b.values, tb, beta, c);
      gemm(alpha, a.view(), b.view(tb), beta, c.view());
      ASSERT_EQ(compare(c, want), "") << (layout == Layout::row_major ? "row" : "col") << " "
                                      << (tb == Transpose::none ? "N" : "T");
    }
}

// A few rows of x stored transposed (x^T [K][M]) against a linear layer's weights (W [N][K]),
// large enough to stream from past L2: the dot products along W's rows on a copy of x's columns.
TEST(GemmBf16, FewRowsOfXStoredTransposedAgainstWideWeights) {
  std::mt19937 rng(16);
  const std::int64_t n = 4099, k = 301;
  int index = 0;
  for (std::int64_t m : {1, 2, 5, 16}) {
    const auto [alpha, beta] = alpha_beta<float>(index++);
    Bf16Matrix a(k, m, Layout::row_major, 1, rng), b(n, k, Layout::row_major, 2, rng);
    Matrix<float> c(m, n, Layout::row_major, 3);
    c.fill_random(rng);
    const Reference<float> want = reference_gemm(alpha, a.values, Transpose::transpose, b.values,
                                                 Transpose::transpose, beta, c);
    gemm(alpha, a.view(Transpose::transpose), b.view(Transpose::transpose), beta, c.view());
    ASSERT_EQ(compare(c, want), "") << m << " rows";
  }
}

// A few rows of x against row-major weights (x W; column-major: a few columns of W against x),
// which one column sweep multiplies for all of them (up to 5, and up to 8 against a W past L2):
// each row of C the bits of that row's product alone, on 1 and 2 threads, and within the
// reference's bound; 9 rows take the tiles, and so may 6 to 8 against a W within L2 (here: of
// less than 8 MiB, past every L2 seen so far).
TEST(GemmBf16, FewRowsOfXAreEachRowAlone) {
  std::mt19937 rng(14);
  const int saved_threads = num_threads();
  struct Case {
    std::int64_t rows, width, k;
  };
  std::vector<Case> cases;
  for (std::int64_t rows : {2, 3, 5, 8, 9})
    for (std::int64_t width : {1, 67, 4099})
      for (std::int64_t k : {1, 9, 301}) cases.push_back({rows, width, k});
  cases.push_back({8, 16411, 301});  // a W of 9.4 MiB
  int index = 0;
  for (const auto& [rows, width, k] : cases)
    for (Layout layout : {Layout::row_major, Layout::col_major}) {
      const bool row_major = layout == Layout::row_major;
      const std::int64_t m = row_major ? rows : width, n = row_major ? width : rows;
      const auto [alpha, beta] = alpha_beta<float>(index++);
      Bf16Matrix a(m, k, layout, index % 3, rng), b(k, n, layout, index % 2, rng);
      Matrix<float> c(m, n, layout, 2);
      c.fill_random(rng);
      const Reference<float> want =
          reference_gemm(alpha, a.values, Transpose::none, b.values, Transpose::none, beta, c);
      for (int threads : {1, 2}) {
        set_num_threads(threads);
        Matrix<float> got = c, alone = c;
        gemm(alpha, a.view(), b.view(), beta, got.view());
        ASSERT_EQ(compare(got, want), "") << m << "x" << n << "x" << k << " index " << index;
        const bool swept = rows <= 5 || (rows <= 8 && width * k * 2 > (8 << 20));
        if (!swept) continue;
        // Row i of C from row i of A (row-major), or column j of C from column j of B.
        for (std::int64_t r = 0; r < rows; ++r) {
          if (row_major) {
            gemm(alpha,
                 MatrixView<const bf16>{a.bits.data() + r * a.values.ld, 1, k, a.values.ld, layout},
                 b.view(), beta,
                 MatrixView<float>{alone.storage.data() + r * c.ld, 1, n, c.ld, layout});
          } else {
            gemm(alpha, a.view(),
                 MatrixView<const bf16>{b.bits.data() + r * b.values.ld, k, 1, b.values.ld, layout},
                 beta, MatrixView<float>{alone.storage.data() + r * c.ld, m, 1, c.ld, layout});
          }
        }
        ASSERT_EQ(std::memcmp(got.storage.data(), alone.storage.data(),
                              got.storage.size() * sizeof(float)),
                  0)
            << m << "x" << n << "x" << k << " index " << index << ", " << threads << " threads";
      }
    }
  set_num_threads(saved_threads);
}

// alpha = 0: C = beta C, once, and the epilogue-free result is exact, on every route a bf16
// product takes (one row of x against W or W^T, a few rows against W^T, the tiles); A, all NaN
// here, is not read.
TEST(GemmBf16, ZeroAlphaScalesCOnceOnEveryRoute) {
  std::mt19937 rng(13);
  const std::int64_t n = 300, k = 64;
  for (std::int64_t m : {1, 8, 40})
    for (Transpose tb : {Transpose::none, Transpose::transpose}) {
      Bf16Matrix a(m, k, Layout::row_major, 0, rng);
      Bf16Matrix b(tb == Transpose::none ? k : n, tb == Transpose::none ? n : k,
                   Layout::row_major, 1, rng);
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t q = 0; q < k; ++q)
          a.values.at(i, q) = std::numeric_limits<float>::quiet_NaN();
      a.sync();
      Matrix<float> c(m, n, Layout::row_major, 1);
      c.fill_random(rng);
      const Matrix<float> before = c;
      gemm(0.0f, a.view(), b.view(tb), 2.0f, c.view());
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j)
          ASSERT_EQ(c.at(i, j), 2.0f * before.at(i, j))
              << m << " rows, B " << (tb == Transpose::none ? "N" : "T") << " (" << i << ", " << j
              << ")";
    }
}

// NaN and Inf in A or B reach exactly the elements of C they feed.
TEST(GemmBf16, PropagatesNanAndInf) {
  std::mt19937 rng(6);
  const std::int64_t m = 37, n = 29, k = 41;
  Bf16Matrix a(m, k, Layout::row_major, 0, rng), b(k, n, Layout::row_major, 0, rng);
  for (std::int64_t i = 0; i < m; ++i) a.values.at(i, 7) = 0.5f;  // Inf x 0.5, never Inf x 0
  a.values.at(3, 5) = std::numeric_limits<float>::quiet_NaN();
  b.values.at(7, 11) = std::numeric_limits<float>::infinity();
  a.sync();
  b.sync();
  Matrix<float> c(m, n, Layout::row_major);
  gemm(1.0f, a.view(), b.view(), 0.0f, c.view());
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      if (i == 3) {
        EXPECT_TRUE(std::isnan(c.at(i, j))) << i << ", " << j;
      } else if (j == 11) {
        EXPECT_EQ(c.at(i, j), std::numeric_limits<float>::infinity()) << i << ", " << j;
      } else {
        EXPECT_TRUE(std::isfinite(c.at(i, j))) << i << ", " << j;
      }
    }
}

// Each epilogue, fused on the tiles (whole tiles and edges, one depth slice of a few steps or of
// many, 1 and 2 threads), is the plain product followed by the same operations, bit for bit: the
// transformer's forms (a bias, an activation, a residual), finished a column at a time beside the
// tiles, and another, finished a few columns at a time.
TEST(GemmBf16, AppliesTheEpilogueAsTheFloatGemmDoes) {
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> dist(-1, 1);
  const int saved_threads = num_threads();
  for (const auto& [m, n, k] : {std::array<std::int64_t, 3>{45, 70, 33}, {96, 64, 700}}) {
    Bf16Matrix a(m, k, Layout::row_major, 1, rng), b(k, n, Layout::row_major, 0, rng);
    Matrix<float> residual(m, n, Layout::row_major);
    residual.fill_random(rng);
    std::vector<float> per_row(m), per_column(n);
    for (float& x : per_row) x = dist(rng);
    for (float& x : per_column) x = dist(rng);
    std::vector<Epilogue> list(6);
    list[0]
        .add_per_column(per_column.data())
        .activation(Activation::gelu_tanh)
        .add_matrix(residual.data(), n);
    list[1]
        .add_per_row(per_row.data())
        .activation(Activation::gelu_erf)
        .add_matrix(residual.data(), n);
    list[2].activation(Activation::relu);
    list[3].activation(Activation::silu).add_matrix(residual.data(), n);
    list[4].add_matrix(residual.data(), n);
    list[5].scale_per_row(per_row.data()).activation(Activation::gelu_tanh).clamp(-0.5f, 0.75f);
    for (int threads : {1, 2}) {
      set_num_threads(threads);
      for (std::size_t e = 0; e < list.size(); ++e) {
        Matrix<float> fused(m, n, Layout::row_major), plain(m, n, Layout::row_major);
        gemm(1.0f, a.view(), b.view(), 0.0f, fused.view(), list[e]);
        gemm(1.0f, a.view(), b.view(), 0.0f, plain.view());
        // The same operations after the plain product: C's values are the fused ones' inputs.
        gemm(1.0f, row_major<const float>(nullptr, m, 0), row_major<const float>(nullptr, 0, n),
             1.0f, plain.view(), list[e]);
        EXPECT_EQ(std::memcmp(fused.data(), plain.data(), fused.storage.size() * sizeof(float)), 0)
            << m << "x" << n << "x" << k << " epilogue " << e << ", " << threads << " threads";
      }
    }
  }
  set_num_threads(saved_threads);
}

// cblas_sbgemm is ridge::gemm on the same bf16 values, bit for bit, in both orders.
TEST(GemmBf16, CblasSbgemmIsTheCppGemm) {
  std::mt19937 rng(10);
  for (CBLAS_ORDER order : {CblasRowMajor, CblasColMajor})
    for (CBLAS_TRANSPOSE ta : {CblasNoTrans, CblasTrans})
      for (CBLAS_TRANSPOSE tb : {CblasNoTrans, CblasTrans}) {
        const Layout layout = order == CblasRowMajor ? Layout::row_major : Layout::col_major;
        const Transpose opa = ta == CblasNoTrans ? Transpose::none : Transpose::transpose;
        const Transpose opb = tb == CblasNoTrans ? Transpose::none : Transpose::transpose;
        const int m = 45, n = 38, k = 29;
        Bf16Matrix a(opa == Transpose::none ? m : k, opa == Transpose::none ? k : m, layout, 2,
                     rng);
        Bf16Matrix b(opb == Transpose::none ? k : n, opb == Transpose::none ? n : k, layout, 1,
                     rng);
        Matrix<float> c(m, n, layout, 3);
        c.fill_random(rng);
        Matrix<float> want = c;
        gemm(0.5f, a.view(opa), b.view(opb), -1.0f, want.view());
        cblas_sbgemm(order, ta, tb, m, n, k, 0.5f, a.raw(), static_cast<int>(a.values.ld), b.raw(),
                     static_cast<int>(b.values.ld), -1.0f, c.data(), static_cast<int>(c.ld));
        EXPECT_EQ(std::memcmp(c.data(), want.data(), c.storage.size() * sizeof(float)), 0)
            << order << " " << ta << " " << tb;
      }
}

}  // namespace
}  // namespace ridge::test

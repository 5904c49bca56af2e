// ridge::gemm with B packed beforehand (PackedMatrix): bit-identical to the unpacked call on every
// path the driver may take for the unpacked call (one row or one column of C, skinny products
// reading the weights in place at capped depths, the packed path over several depth slices),
// B stored either way (panels, or the compact copy of a B^T with contiguous rows), A transposed
// or not, leading dimensions past the extent, alpha and beta special values, NaN and Inf, an
// epilogue, 1 and 2 threads, several threads sharing one packed B; and its argument checks.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gemm/reference.hpp"
#include "ridge/ridge.hpp"
#include "support/invalid_argument.hpp"

namespace ridge::test {
namespace {

bool same_bits(const std::vector<float>& x, const std::vector<float>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const bool both_nan = std::isnan(x[i]) && std::isnan(y[i]);
    if (!both_nan && std::bit_cast<std::uint32_t>(x[i]) != std::bit_cast<std::uint32_t>(y[i]))
      return false;
  }
  return true;
}

struct Shape {
  std::int64_t m, n, k;
  Transpose ta, tb;
};

const Shape kShapes[] = {
    {1, 1, 1, Transpose::none, Transpose::none},
    {1, 37, 50, Transpose::none, Transpose::none},        // one row of C: A's row times B
    {1, 3001, 300, Transpose::none, Transpose::none},     // ... split between threads
    {1, 100, 33, Transpose::none, Transpose::transpose},  // ... B^T stored: dot products
    {1, 5, 1, Transpose::none, Transpose::transpose},     // ... whose compact copy is one column
    {37, 1, 50, Transpose::none, Transpose::none},        // one column: the vector is B's
    {1, 70, 1, Transpose::none, Transpose::none},
    {8, 300, 64, Transpose::none, Transpose::transpose},  // x W^T: dot products
    {2, 500, 70, Transpose::none, Transpose::none},       // x W, a few rows: one column sweep
    {5, 1030, 700, Transpose::none, Transpose::none},     // ... where W lies past L2
    {3, 130, 300, Transpose::none, Transpose::none},      // ... within it: the direct path
    {4, 97, 70, Transpose::none, Transpose::none},
    {16, 1024, 300, Transpose::none, Transpose::none},  // B's rows a page apart: capped depth
    {5, 1100, 97, Transpose::transpose, Transpose::none},
    {16, 16, 16, Transpose::none, Transpose::none},
    {33, 29, 17, Transpose::transpose, Transpose::none},
    {100, 130, 700, Transpose::none, Transpose::none},  // several depth slices
    {257, 3, 1000, Transpose::none, Transpose::none},
    {300, 200, 300, Transpose::transpose, Transpose::transpose},
    {64, 500, 1500, Transpose::none, Transpose::none},
    {40, 2048, 1024, Transpose::none, Transpose::none},  // B from memory: A copied ahead
    {0, 5, 5, Transpose::none, Transpose::none},
    {5, 0, 5, Transpose::none, Transpose::none},
    {5, 7, 0, Transpose::none, Transpose::none},  // K = 0: C = beta C
};

std::string describe(const Shape& s, float alpha, float beta, int threads) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
         (s.ta == Transpose::none ? " n" : " t") + (s.tb == Transpose::none ? "n" : "t") +
         " alpha " + std::to_string(alpha) + " beta " + std::to_string(beta) + ", " +
         std::to_string(threads) + " threads";
}

// The operands of one product, A and B with padded leading dimensions, C row-major.
struct Case {
  Matrix<float> a, b, c;
  Case(const Shape& s, std::mt19937& rng)
      : a(s.ta == Transpose::none ? s.m : s.k, s.ta == Transpose::none ? s.k : s.m,
          Layout::row_major, 3),
        b(s.tb == Transpose::none ? s.k : s.n, s.tb == Transpose::none ? s.n : s.k,
          Layout::row_major, 2),
        c(s.m, s.n, Layout::row_major, 1) {
    a.fill_random(rng);
    b.fill_random(rng);
    c.fill_random(rng);
  }
};

TEST(GemmPacked, MatchesTheUnpackedCallBitForBit) {
  std::mt19937 rng(11);
  const int saved_threads = num_threads();
  for (const Shape& s : kShapes) {
    Case t(s, rng);
    const PackedMatrix packed(t.b.view(s.tb));
    EXPECT_EQ(packed.rows(), s.k);
    EXPECT_EQ(packed.cols(), s.n);
    for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f},
                                      {1.0f, 1.0f},
                                      {0.5f, 2.0f},
                                      {-1.0f, 0.0f},
                                      {0.0f, 3.0f},
                                      {0.37f, -0.3f}}) {
      Matrix<float> expected = t.c;
      gemm(alpha, t.a.view(s.ta), t.b.view(s.tb), beta, expected.view());
      for (int threads : {1, 2}) {
        set_num_threads(threads);
        Matrix<float> got = t.c;
        gemm(alpha, t.a.view(s.ta), packed, beta, got.view());
        EXPECT_TRUE(same_bits(got.storage, expected.storage)) << describe(s, alpha, beta, threads);
        EXPECT_TRUE(got.gaps_intact()) << describe(s, alpha, beta, threads);
      }
    }
  }
  set_num_threads(saved_threads);
}

// A few columns of weights against tall activations on 2 threads: the blocks of C's rows are the
// transposed problem's columns, and the prepacked path packs a narrow block's B whole where it
// fits in half of L2 and a wider one's a panel at a time, so the last, narrower block may need
// more workspace than the first. Every width at steps below the tiles' columns, so that some
// pair of blocks falls on either side of that line for any L2 from 8 KiB to 4 MiB. Each packed
// product runs on a thread of its own, whose workspace (kept per calling thread) that call alone
// sizes: the sanitizer build then sees a block writing past it.
TEST(GemmPacked, BlocksOnEitherSideOfPackingBWhole) {
  std::mt19937 rng(29);
  const int saved_threads = num_threads();
  set_num_threads(2);
  const Shape base{0, 3, 1000, Transpose::none, Transpose::none};
  Case weights(Shape{1, base.n, base.k, base.ta, base.tb}, rng);
  const PackedMatrix packed(weights.b.view());
  for (std::int64_t m = 2; m < 1200; m += 4) {
    Shape s = base;
    s.m = m;
    Case t(s, rng);
    Matrix<float> expected = t.c, got = t.c;
    gemm(1.0f, t.a.view(), weights.b.view(), 0.0f, expected.view());
    std::thread([&] { gemm(1.0f, t.a.view(), packed, 0.0f, got.view()); }).join();
    ASSERT_TRUE(same_bits(got.storage, expected.storage)) << describe(s, 1.0f, 0.0f, 2);
  }
  set_num_threads(saved_threads);
}

// One column of C stored compactly (rows 1 apart, as a column-major C would be): still the
// transposed problem, whose A is the packed B.
TEST(GemmPacked, CompactOneColumnC) {
  std::mt19937 rng(23);
  for (const Shape& s : {Shape{37, 1, 50, Transpose::none, Transpose::none},
                         Shape{1, 1, 9, Transpose::none, Transpose::transpose},
                         Shape{300, 1, 700, Transpose::transpose, Transpose::none}}) {
    Case t(s, rng);
    Matrix<float> expected(s.m, s.n, Layout::row_major, 0), got(s.m, s.n, Layout::row_major, 0);
    gemm(1.0f, t.a.view(s.ta), t.b.view(s.tb), 0.0f, expected.view());
    gemm(1.0f, t.a.view(s.ta), PackedMatrix(t.b.view(s.tb)), 0.0f, got.view());
    EXPECT_TRUE(same_bits(got.storage, expected.storage)) << describe(s, 1.0f, 0.0f, 1);
  }
}

// Not only the same as the unpacked call: right (the unpacked call's own tests hold it to a
// long-double reference; this guards against both taking one wrong turn).
TEST(GemmPacked, MatchesTheReference) {
  std::mt19937 rng(3);
  for (const Shape& s : {Shape{1, 300, 200, Transpose::none, Transpose::none},
                         Shape{40, 90, 900, Transpose::transpose, Transpose::none},
                         Shape{9, 77, 130, Transpose::none, Transpose::transpose}}) {
    Case t(s, rng);
    Matrix<float> got = t.c;
    gemm(0.75f, t.a.view(s.ta), PackedMatrix(t.b.view(s.tb)), -0.5f, got.view());
    EXPECT_EQ(compare(got, reference_gemm(0.75f, t.a, s.ta, t.b, s.tb, -0.5f, t.c)), "")
        << describe(s, 0.75f, -0.5f, 1);
  }
}

// NaN and Inf in A or B reach C as in the unpacked call; beta = 0 ignores NaN in C.
TEST(GemmPacked, SpecialValuesAsTheUnpackedCall) {
  std::mt19937 rng(5);
  for (const Shape& s : {Shape{1, 40, 30, Transpose::none, Transpose::none},
                         Shape{20, 40, 30, Transpose::none, Transpose::none},
                         Shape{70, 50, 30, Transpose::none, Transpose::transpose}}) {
    Case t(s, rng);
    t.b.at(3, 5) = std::numeric_limits<float>::infinity();
    t.b.at(7, 9) = std::numeric_limits<float>::quiet_NaN();
    t.a.at(0, 2) = -std::numeric_limits<float>::infinity();
    for (float& x : t.c.storage) x = std::numeric_limits<float>::quiet_NaN();
    const PackedMatrix packed(t.b.view(s.tb));
    for (float beta : {0.0f, 1.0f}) {
      Matrix<float> expected = t.c, got = t.c;
      gemm(1.0f, t.a.view(s.ta), t.b.view(s.tb), beta, expected.view());
      gemm(1.0f, t.a.view(s.ta), packed, beta, got.view());
      EXPECT_TRUE(same_bits(got.storage, expected.storage)) << describe(s, 1.0f, beta, 1);
      if (beta == 0.0f) {
        EXPECT_FALSE(std::isnan(got.at(s.m - 1, 0))) << describe(s, 1, 0, 1);
      }
    }
  }
}

TEST(GemmPacked, EpilogueAsTheUnpackedCall) {
  std::mt19937 rng(9);
  for (const Shape& s : {Shape{1, 64, 100, Transpose::none, Transpose::none},
                         Shape{12, 1030, 80, Transpose::none, Transpose::none},
                         Shape{130, 70, 500, Transpose::none, Transpose::none}}) {
    Case t(s, rng);
    Matrix<float> residual(s.m, s.n, Layout::row_major, 4);
    residual.fill_random(rng);
    std::vector<float> bias(static_cast<std::size_t>(s.n));
    for (std::size_t j = 0; j < bias.size(); ++j) bias[j] = 0.01f * static_cast<float>(j);
    Epilogue e;
    e.add_per_column(bias.data())
        .activation(Activation::gelu_tanh)
        .add_matrix(residual.data(), residual.ld);
    Matrix<float> expected = t.c, got = t.c;
    gemm(1.0f, t.a.view(s.ta), t.b.view(s.tb), 0.0f, expected.view(), e);
    gemm(1.0f, t.a.view(s.ta), PackedMatrix(t.b.view(s.tb)), 0.0f, got.view(), e);
    EXPECT_TRUE(same_bits(got.storage, expected.storage)) << describe(s, 1.0f, 0.0f, 1);
  }
}

// The packed copy is its own, and products only read it: threads share one packed B.
TEST(GemmPacked, SharedByThreadsAndIndependentOfB) {
  std::mt19937 rng(13);
  const Shape s{48, 200, 300, Transpose::none, Transpose::none};
  Case t(s, rng);
  Matrix<float> expected = t.c;
  gemm(1.0f, t.a.view(), t.b.view(), 0.0f, expected.view());
  const PackedMatrix packed(t.b.view());
  for (float& x : t.b.storage) x = 0.0f;
  std::vector<Matrix<float>> results(4, t.c);
  std::vector<std::thread> threads;
  for (Matrix<float>& c : results)
    threads.emplace_back([&] {
      for (int round = 0; round < 5; ++round) gemm(1.0f, t.a.view(), packed, 0.0f, c.view());
    });
  for (std::thread& thread : threads) thread.join();
  for (const Matrix<float>& c : results) EXPECT_TRUE(same_bits(c.storage, expected.storage));

  PackedMatrix moved = PackedMatrix(t.b.view());
  PackedMatrix target(t.b.view(Transpose::transpose));
  target = std::move(moved);
  EXPECT_EQ(target.rows(), 300);
  EXPECT_EQ(moved.rows(), 0);
}

// Packed on one path, its products run on that path's kernels whatever path is set later.
TEST(GemmPacked, ProductsRunOnThePathThatPackedB) {
  if (!isa_supported(Isa::avx2)) GTEST_SKIP() << "needs a second path";
  std::mt19937 rng(17);
  const Shape s{40, 100, 700, Transpose::none, Transpose::none};
  Case t(s, rng);
  const Isa saved = active_isa();
  set_isa(Isa::avx2);
  Matrix<float> expected = t.c;
  gemm(1.0f, t.a.view(), t.b.view(), 0.0f, expected.view());
  const PackedMatrix packed(t.b.view());
  set_isa(Isa::generic);
  Matrix<float> got = t.c;
  gemm(1.0f, t.a.view(), packed, 0.0f, got.view());
  set_isa(saved);
  EXPECT_TRUE(same_bits(got.storage, expected.storage));
}

TEST(GemmPacked, RejectsBadArgumentsLeavingCUntouched) {
  std::vector<float> a(12, 1.0f), b(12, 1.0f), c(9, 7.0f);
  const auto A = row_major<const float>(a.data(), 3, 4);
  const PackedMatrix B(row_major<const float>(b.data(), 4, 3));
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, B, 0.0f, col_major(c.data(), 3, 3));
            }).find("c must be row-major"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, B, 0.0f, row_major(c.data(), 3, 2));
            }).find("b has 3 columns but c has 2"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, row_major<const float>(a.data(), 3, 3), B, 0.0f,
                   row_major(c.data(), 3, 3));
            }).find("op(a) has 3 columns but b has 4 rows"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              gemm(1.0f, A, B, 0.0f, row_major(c.data(), 3, 3, 2));
            }).find("c.ld (2) is below"),
            std::string::npos);
  PackedMatrix moved(row_major<const float>(b.data(), 4, 3));
  const PackedMatrix taken = std::move(moved);
  EXPECT_NE(
      error_of([&] { gemm(1.0f, A, moved, 0.0f, row_major(c.data(), 3, 3)); }).find("moved-from"),
      std::string::npos);
  for (float x : c) EXPECT_EQ(x, 7.0f);
  EXPECT_NE(
      error_of([&] { PackedMatrix(row_major<const float>(nullptr, 4, 3)); }).find("b.data is null"),
      std::string::npos);
}

}  // namespace
}  // namespace ridge::test

// ridge::gemm with an Epilogue: bit-identical to the plain product followed by the same
// operations on each element (the unfused sequence), on every path the driver may take (matrix-
// vector, dot products, direct, packed over several depth slices, alpha = 0 and K = 0), both
// layouts, leading dimensions past the extent, 1 and 2 threads; and its argument checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gemm/reference.hpp"
#include "gemm/unfused_epilogue.hpp"
#include "ridge/ridge.hpp"
#include "support/invalid_argument.hpp"

namespace ridge::test {
namespace {

// The unfused sequence on every element of C, on the active path's kernels.
void apply_unfused(const Epilogue& e, Matrix<float>& c) {
  for (std::int64_t i = 0; i < c.rows; ++i)
    for (std::int64_t j = 0; j < c.cols; ++j)
      c.at(i, j) = unfused_operations(e, active_isa(), c.layout, i, j, c.at(i, j));
}

struct Shape {
  std::int64_t m, n, k;
  Transpose ta, tb;
};

// The operands of one product and the vectors and matrix its epilogues read.
struct Case {
  Matrix<float> a, b, c, residual;
  std::vector<float> per_row, per_column;
  // c_pad: the padding of C's rows or columns past its extent.
  Case(const Shape& s, Layout layout, std::mt19937& rng, std::int64_t c_pad = 1)
      : a(s.ta == Transpose::none ? s.m : s.k, s.ta == Transpose::none ? s.k : s.m, layout, 3),
        b(s.tb == Transpose::none ? s.k : s.n, s.tb == Transpose::none ? s.n : s.k, layout, 2),
        c(s.m, s.n, layout, c_pad),
        residual(s.m, s.n, layout, 5),
        per_row(static_cast<std::size_t>(s.m)),
        per_column(static_cast<std::size_t>(s.n)) {
    a.fill_random(rng);
    b.fill_random(rng);
    c.fill_random(rng);
    residual.fill_random(rng);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    for (float& x : per_row) x = dist(rng);
    for (float& x : per_column) x = dist(rng);
  }
};

std::vector<Epilogue> epilogues(Case& t) {
  std::vector<Epilogue> list(3);
  list[0]
      .add_per_column(t.per_column.data())
      .activation(Activation::gelu_tanh)
      .add_matrix(t.residual.data(), t.residual.ld);
  list[1]
      .add_per_row(t.per_row.data())
      .scale_per_column(t.per_column.data())
      .activation(Activation::silu)
      .clamp(-0.5f, 0.75f);
  list[2]
      .activation(Activation::relu)
      .activation(Activation::gelu_erf)
      .scale_per_row(t.per_row.data());
  return list;
}

const Shape kShapes[] = {
    {1, 1, 1, Transpose::none, Transpose::none},
    {1, 37, 50, Transpose::none, Transpose::none},       // one row: matrix-vector
    {37, 1, 50, Transpose::none, Transpose::transpose},  // one column: matrix-vector
    {8, 300, 64, Transpose::none, Transpose::transpose},  // row-major x W^T: dot products
    {16, 16, 16, Transpose::none, Transpose::none},
    {33, 29, 17, Transpose::transpose, Transpose::none},
    {100, 130, 700, Transpose::none, Transpose::none},  // several depth slices
    {257, 3, 1000, Transpose::none, Transpose::none},
    {300, 200, 300, Transpose::transpose, Transpose::transpose},
    {0, 5, 5, Transpose::none, Transpose::none},
    {5, 7, 0, Transpose::none, Transpose::none},  // K = 0: C = beta C, then the epilogue
    {300, 500, 0, Transpose::none, Transpose::none},  // ... as a pass split between threads
};

std::string describe(const Shape& s, Layout layout, float alpha, float beta, int e, int threads) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
         (layout == Layout::row_major ? " row-major" : " col-major") +
         " alpha " + std::to_string(alpha) + " beta " + std::to_string(beta) + " epilogue " +
         std::to_string(e) + ", " + std::to_string(threads) + " threads";
}

TEST(GemmEpilogue, MatchesTheUnfusedSequenceBitForBit) {
  std::mt19937 rng(7);
  const int saved_threads = num_threads();
  for (const Shape& s : kShapes) {
    for (Layout layout : {Layout::row_major, Layout::col_major}) {
      Case t(s, layout, rng);
      const std::vector<Epilogue> list = epilogues(t);
      for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, {0.5f, 2.0f}, {0.0f, 1.0f}}) {
        for (int e = 0; e < static_cast<int>(list.size()); ++e) {
          Matrix<float> expected = t.c;
          gemm(alpha, t.a.view(s.ta), t.b.view(s.tb), beta, expected.view());
          apply_unfused(list[e], expected);
          for (int threads : {1, 2}) {
            set_num_threads(threads);
            Matrix<float> got = t.c;
            gemm(alpha, t.a.view(s.ta), t.b.view(s.tb), beta, got.view(), list[e]);
            bool same = true;
            for (std::size_t i = 0; i < got.storage.size(); ++i)
              same = same && same_bits(got.storage[i], expected.storage[i]);
            EXPECT_TRUE(same) << describe(s, layout, alpha, beta, e, threads);
            EXPECT_TRUE(got.gaps_intact()) << describe(s, layout, alpha, beta, e, threads);
          }
        }
      }
    }
  }
  set_num_threads(saved_threads);
}

// One column of a row-major C (or one row of a column-major one) stored compactly, its
// elements 1 apart: its strides fit either layout, and the epilogue's rows, columns and
// residual must still be the caller's.
TEST(GemmEpilogue, CompactOneColumnOrRowKeepsItsLayout) {
  std::mt19937 rng(19);
  for (const Shape& s : {Shape{37, 1, 50, Transpose::none, Transpose::none},
                         Shape{1, 37, 50, Transpose::none, Transpose::transpose},
                         Shape{1, 1, 7, Transpose::none, Transpose::none},
                         Shape{1000, 1, 300, Transpose::transpose, Transpose::none}}) {
    for (Layout layout : {Layout::row_major, Layout::col_major}) {
      Case t(s, layout, rng, 0);
      const std::vector<Epilogue> list = epilogues(t);
      for (int e = 0; e < static_cast<int>(list.size()); ++e) {
        Matrix<float> expected = t.c, got = t.c;
        gemm(0.5f, t.a.view(s.ta), t.b.view(s.tb), 1.0f, expected.view());
        apply_unfused(list[e], expected);
        gemm(0.5f, t.a.view(s.ta), t.b.view(s.tb), 1.0f, got.view(), list[e]);
        bool same = true;
        for (std::size_t i = 0; i < got.storage.size(); ++i)
          same = same && same_bits(got.storage[i], expected.storage[i]);
        EXPECT_TRUE(same) << describe(s, layout, 0.5f, 1.0f, e, num_threads());
      }
    }
  }
}

// The epilogue's values against extended precision where they are exact or nearly: a bias and
// a ReLU on a product of small integers (exact in float).
TEST(GemmEpilogue, BiasAndReluOnAnExactProduct) {
  const std::int64_t m = 5, n = 4, k = 3;
  std::vector<float> a(m * k), b(k * n), c(m * n, 9.0f), bias(n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(static_cast<int>(i % 5) - 2);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(static_cast<int>(i % 3) - 1);
  for (std::int64_t j = 0; j < n; ++j) bias[j] = static_cast<float>(j) - 1.5f;
  gemm(1.0f, row_major<const float>(a.data(), m, k), row_major<const float>(b.data(), k, n),
       0.0f, row_major(c.data(), m, n),
       Epilogue().add_per_column(bias.data()).activation(Activation::relu));
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < n; ++j) {
      float v = bias[j];
      for (std::int64_t p = 0; p < k; ++p) v += a[i * k + p] * b[p * n + j];
      EXPECT_EQ(c[i * n + j], v > 0 ? v : 0.0f) << i << ", " << j;
    }
  }
}

TEST(GemmEpilogue, RejectsBadOperationsLeavingCUntouched) {
  std::vector<float> a(12, 1.0f), b(12, 1.0f), c(9, 7.0f), r(9, 1.0f);
  const auto A = row_major<const float>(a.data(), 3, 4);
  const auto B = row_major<const float>(b.data(), 4, 3);
  const auto C = row_major<float>(c.data(), 3, 3);
  EXPECT_NE(error_of([&] { gemm(1.0f, A, B, 0.0f, C, Epilogue().add_per_column(nullptr)); })
                .find("epilogue operation 0 has a null pointer"),
            std::string::npos);
  EXPECT_NE(
      error_of([&] {
        gemm(1.0f, A, B, 0.0f, C, Epilogue().activation(Activation::relu).add_matrix(r.data(), 2));
      }).find("epilogue operation 1 (add_matrix) has ld 2, below 3"),
      std::string::npos);
  for (float x : c) EXPECT_EQ(x, 7.0f);
  // An empty C needs no data behind the operations.
  EXPECT_NO_THROW(gemm(1.0f, row_major<const float>(nullptr, 0, 4), B, 0.0f,
                       row_major<float>(nullptr, 0, 3), Epilogue().add_per_row(nullptr)));

  Epilogue full;
  for (int i = 0; i < Epilogue::kMaxOperations; ++i) full.activation(Activation::relu);
  EXPECT_THROW(full.activation(Activation::relu), std::length_error);
  EXPECT_THROW(Epilogue().clamp(1.0f, 0.0f), std::invalid_argument);
  EXPECT_THROW(Epilogue().clamp(std::numeric_limits<float>::quiet_NaN(), 1.0f),
               std::invalid_argument);
}

}  // namespace
}  // namespace ridge::test

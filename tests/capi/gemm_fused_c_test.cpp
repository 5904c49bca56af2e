// ridge_sgemm_fused, the C API: the same results as ridge::gemm with the Epilogue it describes
// (bias per column, activation, residual), for each activation, both layouts and transpositions;
// and each error code for bad arguments with C untouched.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "gemm/reference.hpp"
#include "ridge/ridge.h"
#include "ridge/ridge.hpp"

namespace ridge::test {
namespace {

constexpr Activation kActivations[] = {Activation::relu, Activation::gelu_tanh,
                                       Activation::gelu_erf, Activation::silu};

TEST(GemmFusedC, MatchesTheCppEpilogue) {
  const std::int64_t m = 23, n = 41, k = 19;
  std::mt19937 rng(5);
  for (Layout layout : {Layout::row_major, Layout::col_major}) {
    const CBLAS_ORDER order = layout == Layout::row_major ? CblasRowMajor : CblasColMajor;
    Matrix<float> a(k, m, layout, 2), b(k, n, layout, 1), c(m, n, layout, 3),
        residual(m, n, layout, 4);  // A stored transposed
    a.fill_random(rng);
    b.fill_random(rng);
    c.fill_random(rng);
    residual.fill_random(rng);
    std::vector<float> bias(n);
    for (float& x : bias) x = std::uniform_real_distribution<float>(-1, 1)(rng);
    for (int activation = RIDGE_ACT_NONE; activation <= RIDGE_ACT_SILU; ++activation) {
      for (bool with_bias : {false, true}) {
        for (bool with_residual : {false, true}) {
          Epilogue e;
          if (with_bias) e.add_per_column(bias.data());
          if (activation != RIDGE_ACT_NONE) e.activation(kActivations[activation - 1]);
          if (with_residual) e.add_matrix(residual.data(), residual.ld);
          Matrix<float> want = c, got = c;
          gemm(0.75f, a.view(Transpose::transpose), b.view(), 0.5f, want.view(), e);
          ASSERT_EQ(ridge_sgemm_fused(order, CblasTrans, CblasNoTrans, m, n, k, 0.75f, a.data(),
                                      a.ld, b.data(), b.ld, 0.5f, got.data(), got.ld,
                                      with_bias ? bias.data() : nullptr, activation,
                                      with_residual ? residual.data() : nullptr,
                                      with_residual ? residual.ld : 0),
                    0);
          EXPECT_EQ(std::memcmp(got.data(), want.data(), got.storage.size() * sizeof(float)), 0)
              << "activation " << activation << (with_bias ? ", bias" : "")
              << (with_residual ? ", residual" : "");
        }
      }
    }
  }
}

TEST(GemmFusedC, ReportsEachBadArgumentLeavingCUntouched) {
  std::vector<float> a(6, 1.0f), b(6, 1.0f), c(4, 7.0f), r(4, 1.0f);
  const auto call = [&](CBLAS_ORDER order, CBLAS_TRANSPOSE ta, int64_t m, int64_t lda,
                        const float* a_data, int activation, int64_t ldr) {
    return ridge_sgemm_fused(order, ta, CblasNoTrans, m, 2, 3, 1.0f, a_data, lda, b.data(), 2,
                             0.0f, c.data(), 2, nullptr, activation, r.data(), ldr);
  };
  // Row-major 2 x 3 times 3 x 2, good but for the argument under test.
  EXPECT_EQ(call(static_cast<CBLAS_ORDER>(100), CblasNoTrans, 2, 3, a.data(), 0, 2),
            RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(call(CblasRowMajor, static_cast<CBLAS_TRANSPOSE>(0), 2, 3, a.data(), 0, 2),
            RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(call(CblasRowMajor, CblasNoTrans, 2, 3, a.data(), 5, 2), RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(call(CblasRowMajor, CblasNoTrans, 2, 3, a.data(), -1, 2), RIDGE_ERROR_BAD_ARGUMENT);
  EXPECT_EQ(call(CblasRowMajor, CblasNoTrans, -1, 3, a.data(), 0, 2), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(call(CblasRowMajor, CblasNoTrans, 2, 2, a.data(), 0, 2), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(call(CblasRowMajor, CblasNoTrans, 2, 3, a.data(), 0, 1), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(call(CblasRowMajor, CblasNoTrans, 2, 3, nullptr, 0, 2), RIDGE_ERROR_NULL_POINTER);
  // Sizes whose product does not fit in 64 bits are not mistaken for an empty C.
  constexpr int64_t kHuge = int64_t{1} << 32;
  EXPECT_EQ(ridge_sgemm_fused(CblasRowMajor, CblasNoTrans, CblasNoTrans, kHuge, kHuge, 1, 1.0f,
                              a.data(), 1, b.data(), kHuge, 0.0f, nullptr, kHuge, nullptr,
                              RIDGE_ACT_NONE, nullptr, 0),
            RIDGE_ERROR_NULL_POINTER);
  for (float x : c) EXPECT_EQ(x, 7.0f);
  // ldr is not read without a residual; an empty A may be null.
  EXPECT_EQ(ridge_sgemm_fused(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 3, 1.0f, a.data(),
                              3, b.data(), 2, 0.0f, c.data(), 2, nullptr, RIDGE_ACT_RELU, nullptr,
                              -5),
            0);
  EXPECT_EQ(c[0], 3.0f);
  EXPECT_EQ(ridge_sgemm_fused(CblasColMajor, CblasNoTrans, CblasNoTrans, 0, 2, 3, 1.0f, nullptr,
                              1, b.data(), 3, 0.0f, c.data(), 1, nullptr, RIDGE_ACT_NONE, nullptr,
                              0),
            0);
}

}  // namespace
}  // namespace ridge::test

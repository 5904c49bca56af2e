// ridge_attention_f32, the C API: the same results as the C++ call with the accurate exp2, and
// each error code for bad arguments with nothing written.
#include <gtest/gtest.h>

#include <vector>

#include "attention/reference.hpp"
#include "ridge/ridge.h"

namespace ridge::test {
namespace {

TEST(AttentionC, MatchesTheReference) {
  for (int causal : {0, 1}) {
    TestTensor q(2, 19, 4, 48), k(2, 33, 2, 48), v(2, 33, 2, 48), out(2, 19, 4, 48);
    std::mt19937 rng(12);
    q.fill_random(rng);
    k.fill_random(rng);
    v.fill_random(rng);
    ASSERT_EQ(ridge_attention_f32(q.storage.data(), k.storage.data(), v.storage.data(),
                                  out.storage.data(), 2, 19, 33, 4, 2, 48, 0.0f, causal),
              0);
    EXPECT_LE(max_relative_error(out, reference_attention(q, k, v, 1 / std::sqrt(48.0), causal), v),
              1e-5);
    // An explicit scale.
    ASSERT_EQ(ridge_attention_f32(q.storage.data(), k.storage.data(), v.storage.data(),
                                  out.storage.data(), 2, 19, 33, 4, 2, 48, 0.3f, causal),
              0);
    EXPECT_LE(max_relative_error(out, reference_attention(q, k, v, 0.3f, causal), v), 1e-5);
  }
}

TEST(AttentionC, ReportsBadArgumentsAndWritesNothing) {
  std::vector<float> a(1024, 1.0f), out(1024, 7.0f);
  const float* p = a.data();
  float* o = out.data();
  EXPECT_EQ(ridge_attention_f32(p, p, p, o, -1, 2, 2, 2, 1, 8, 0, 0), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_attention_f32(p, p, p, o, 1, 2, -2, 2, 1, 8, 0, 0), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_attention_f32(p, p, p, o, 1, 2, 2, 2, 1, 0, 0, 0), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_attention_f32(p, p, p, o, 1, 2, 2, 2, 1, 257, 0, 0), RIDGE_ERROR_BAD_SIZE);
  EXPECT_EQ(ridge_attention_f32(p, p, p, o, 1, 2, 2, 3, 2, 8, 0, 0), RIDGE_ERROR_BAD_HEADS);
  EXPECT_EQ(ridge_attention_f32(p, p, p, o, 1, 2, 2, 2, 0, 8, 0, 0), RIDGE_ERROR_BAD_HEADS);
  EXPECT_EQ(ridge_attention_f32(nullptr, p, p, o, 1, 2, 2, 2, 1, 8, 0, 0),
            RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_attention_f32(p, p, nullptr, o, 1, 2, 2, 2, 1, 8, 0, 0),
            RIDGE_ERROR_NULL_POINTER);
  EXPECT_EQ(ridge_attention_f32(p, p, p, nullptr, 1, 2, 2, 2, 1, 8, 0, 0),
            RIDGE_ERROR_NULL_POINTER);
  for (float x : out) EXPECT_EQ(x, 7.0f);
  // Empty tensors need no pointers.
  EXPECT_EQ(ridge_attention_f32(nullptr, nullptr, nullptr, nullptr, 0, 2, 2, 2, 1, 8, 0, 0), 0);
}

}  // namespace
}  // namespace ridge::test

// ridge::attention against the double-precision unfused reference: grouped-query shapes, head
// dimensions and lengths that are not multiples of the tiles, causal masks aligned bottom-right
// (rows that see no key), large-magnitude scores, all-equal rows, other strides, both exp2
// polynomials, thread counts. The suite runs once per ISA (RIDGE_ISA, see tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "attention/reference.hpp"
#include "ridge/ridge.hpp"

namespace ridge::test {
namespace {

struct Shape {
  std::int64_t batch, q_len, kv_len, q_heads, kv_heads, head_dim;
};

// The accuracy bounds: accurate exp2 1e-5, cubic 2e-4 (see max_relative_error in reference.hpp).
double bound(Exp2 variant) { return variant == Exp2::accurate ? 1e-5 : 2e-4; }

class AttentionTest : public ::testing::Test {
 protected:
  // Two threads whatever the machine: whether a mid-sized shape decodes or runs the prefill
  // tiles depends on the thread count (attention.cpp, decodes()).
  void SetUp() override { set_num_threads(2); }
  void TearDown() override { set_num_threads(0); }

  // Runs one attention on random inputs (scores scaled by `magnitude`^2) and returns its error.
  double error(const Shape& s, bool causal, Exp2 variant, float magnitude = 1.0f,
               bool heads_major = false, std::int64_t d_stride = 1,
               AttentionStats* stats = nullptr) {
    std::mt19937 rng(static_cast<unsigned>(s.q_len * 131 + s.kv_len * 7 + s.head_dim));
    TestTensor q(s.batch, s.q_len, s.q_heads, s.head_dim, heads_major, d_stride);
    TestTensor k(s.batch, s.kv_len, s.kv_heads, s.head_dim, heads_major, d_stride);
    TestTensor v(s.batch, s.kv_len, s.kv_heads, s.head_dim, heads_major, d_stride);
    TestTensor out(s.batch, s.q_len, s.q_heads, s.head_dim, heads_major, d_stride);
    q.fill_random(rng, magnitude);
    k.fill_random(rng, magnitude);
    v.fill_random(rng);
    AttentionOptions options;
    options.causal = causal;
    options.exp2 = variant;
    const AttentionStats got = attention(q.view, k.view, v.view, out.view, options);
    if (stats != nullptr) *stats = got;
    return max_relative_error(out,
                              reference_attention(q, k, v, 1.0 / std::sqrt(s.head_dim), causal), v);
  }
};

// Grouped-query, multi-head and multi-query shapes with lengths and head dimensions off every
// tile size. Which of the first ten decode and which run the prefill tiles follows the path's
// tile height and the thread count (decodes() in attention.cpp); the kernels themselves are
// covered shape by shape in tile_kernels_test.cpp.
TEST_F(AttentionTest, GroupedQueryShapesAndOddSizes) {
  const Shape shapes[] = {
      {2, 37, 53, 4, 2, 64},   // GQA
      {1, 16, 64, 3, 3, 32},   // MHA
      {1, 17, 65, 8, 1, 80},   // MQA
      {1, 5, 130, 2, 1, 96},
      {1, 33, 29, 2, 2, 128},
      {1, 9, 70, 2, 1, 256},
      {1, 1, 300, 4, 2, 128},  // one query against a longer cache
      {1, 20, 20, 1, 1, 1},
      {1, 19, 41, 2, 1, 13},
      {1, 7, 7, 1, 1, 33},
  };
  // More query rows per key/value head than decoding takes on any path: the prefill tiles.
  const Shape prefill[] = {
      {2, 137, 53, 4, 2, 64},
      {1, 131, 65, 8, 1, 80},
      {1, 129, 29, 2, 2, 128},
      {1, 150, 41, 2, 1, 13},
  };
  for (Exp2 variant : {Exp2::accurate, Exp2::cubic})
    for (bool causal : {false, true}) {
      for (const Shape& s : shapes)
        EXPECT_LE(error(s, causal, variant), bound(variant))
            << s.q_len << "x" << s.kv_len << " d " << s.head_dim << " causal " << causal;
      for (const Shape& s : prefill) {
        AttentionStats stats;
        EXPECT_LE(error(s, causal, variant, 1.0f, false, 1, &stats), bound(variant))
            << s.q_len << "x" << s.kv_len << " d " << s.head_dim << " causal " << causal;
        EXPECT_FALSE(stats.decoding) << s.q_len << "x" << s.kv_len;
      }
    }
}

// Causal with more queries than keys: query i sees keys j <= i + kv_len - q_len, so the first
// q_len - kv_len rows see none and must come out as zeros (max_relative_error demands exact
// zeros there), never NaN.
TEST_F(AttentionTest, CausalRowsThatSeeNoKeyAreZero) {
  for (Exp2 variant : {Exp2::accurate, Exp2::cubic}) {
    EXPECT_LE(error({1, 40, 12, 2, 1, 64}, true, variant), bound(variant));
    EXPECT_LE(error({1, 3, 0, 1, 1, 16}, false, variant), bound(variant));
  }
}

// Logits up to +-1e4: weights underflow (2^-126 at the clamp) and the running maximum jumps
// across tiles and decoding's blocks, so rows rescale.
TEST_F(AttentionTest, LargeMagnitudeScores) {
  for (Exp2 variant : {Exp2::accurate, Exp2::cubic})
    for (const Shape& shape : {Shape{1, 24, 300, 2, 1, 64}, Shape{1, 1, 3000, 2, 1, 64}}) {
      AttentionStats stats;
      EXPECT_LE(error(shape, false, variant, 12.5f, false, 1, &stats), bound(variant));
      EXPECT_GT(stats.rescales, 0) << shape.q_len;
      EXPECT_EQ(stats.decoding, shape.q_len == 1);
    }
}

// Identical keys: every weight equal, the output the plain mean of the values.
TEST_F(AttentionTest, AllEqualScoresAverageTheValues) {
  TestTensor q(1, 4, 1, 8), k(1, 100, 1, 8), v(1, 100, 1, 8), out(1, 4, 1, 8);
  std::mt19937 rng(2);
  q.fill_random(rng);
  v.fill_random(rng);
  for (std::int64_t j = 0; j < 100; ++j)
    for (std::int64_t x = 0; x < 8; ++x) k.at(0, j, 0, x) = 0.25f;
  AttentionStats stats = attention(q.view, k.view, v.view, out.view);
  EXPECT_EQ(stats.rescales, 0);
  for (std::int64_t x = 0; x < 8; ++x) {
    double mean = 0;
    for (std::int64_t j = 0; j < 100; ++j) mean += v.at(0, j, 0, x) / 100.0;
    for (std::int64_t i = 0; i < 4; ++i) EXPECT_NEAR(out.at(0, i, 0, x), mean, 1e-6);
  }
}

// A running maximum that grows a little at a time keeps the stale one (no rescale), and the
// result is still exact.
TEST_F(AttentionTest, SmallGrowthOfTheMaximumDoesNotRescale) {
  for (std::int64_t q_len : {1, 40}) {  // decoding, and the prefill tiles
    TestTensor q(1, q_len, 1, 4), k(1, 512, 1, 4), v(1, 512, 1, 4), out(1, q_len, 1, 4);
    std::mt19937 rng(3);
    v.fill_random(rng);
    for (std::int64_t i = 0; i < q_len; ++i)
      for (std::int64_t x = 0; x < 4; ++x) q.at(0, i, 0, x) = 1.0f;
    // q . k rises by 6 / 512 per key, 6 in all: times scale * log2(e) = 0.72, 4.3 in the exp2
    // domain, under the rescale threshold of 8.
    for (std::int64_t j = 0; j < 512; ++j)
      for (std::int64_t x = 0; x < 4; ++x) k.at(0, j, 0, x) = 6.0f * j / 512 / 4;
    const AttentionStats stats = attention(q.view, k.view, v.view, out.view);
    EXPECT_EQ(stats.decoding, q_len == 1);
    EXPECT_EQ(stats.rescales, 0) << q_len;
    EXPECT_LE(max_relative_error(out, reference_attention(q, k, v, 0.5, false), v), 1e-5);
  }
}

TEST_F(AttentionTest, OtherStrides) {
  for (Exp2 variant : {Exp2::accurate, Exp2::cubic}) {
    EXPECT_LE(error({2, 21, 45, 4, 2, 40}, true, variant, 1.0f, true), bound(variant));
    EXPECT_LE(error({1, 18, 33, 2, 1, 24}, false, variant, 1.0f, false, 3), bound(variant));
  }
}

// Tiles are independent, so the thread count does not change a single bit (beyond decoding,
// whose key ranges and whose choice follow the thread count: 300 query rows per key/value head,
// 150 queries of two heads, are more than decoding takes on any path).
TEST_F(AttentionTest, ThreadCountDoesNotChangeResults) {
  std::vector<std::vector<float>> results;
  for (int threads : {1, 2, 3}) {
    set_num_threads(threads);
    TestTensor q(2, 150, 4, 64), k(2, 70, 2, 64), v(2, 70, 2, 64), out(2, 150, 4, 64);
    std::mt19937 rng(5);
    q.fill_random(rng);
    k.fill_random(rng);
    v.fill_random(rng);
    AttentionOptions options;
    options.causal = true;
    attention(q.view, k.view, v.view, out.view, options);
    results.push_back(out.storage);
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

// Decoding (all of a key/value head's query rows in one tile) splits the keys into ranges, one
// or more per thread, and merges their partial softmaxes: more threads than heads exercise the
// merge, large-magnitude scores make the ranges' maxima differ by far more than float's range.
TEST_F(AttentionTest, DecodingMergesKeyRanges) {
  for (int threads : {1, 4}) {
    set_num_threads(threads);
    for (Exp2 variant : {Exp2::accurate, Exp2::cubic}) {
      EXPECT_LE(error({1, 1, 5000, 8, 1, 128}, false, variant), bound(variant)) << threads;
      EXPECT_LE(error({2, 3, 4099, 4, 2, 64}, true, variant), bound(variant)) << threads;
      EXPECT_LE(error({1, 1, 3000, 2, 1, 32}, false, variant, 12.5f), bound(variant)) << threads;
    }
  }
}

// Decoding's score tiles take query rows four at a time and alone, and W / rows keys at a time,
// with one key at a time for the rest; its P V passes end in partial vectors where head_dim is
// off the vector width; its blocks hold fewer keys than one tile step where the key/value heads
// are wide (blocks are sized to L2: 16 heads of 256 in f32 give 4-8 keys a block).
TEST_F(AttentionTest, DecodingTilesHeadDimsAndBlockSizes) {
  const Shape shapes[] = {
      {1, 1, 777, 12, 3, 80},    // 4 rows per key/value head; head_dim 64 + 16
      {1, 2, 1000, 6, 2, 33},    // 6 rows: a group of four and two alone; head_dim 2 x 16 + 1
      {1, 1, 513, 5, 5, 13},     // MHA: one row; head_dim inside one vector
      {1, 1, 300, 32, 16, 256},  // 2 rows; small blocks
      {1, 1, 70, 64, 16, 256},   // 4 rows; small blocks
  };
  for (int threads : {1, 2})
    for (const Shape& shape : shapes) {
      set_num_threads(threads);
      for (Exp2 variant : {Exp2::accurate, Exp2::cubic})
        EXPECT_LE(error(shape, false, variant), bound(variant))
            << shape.q_heads << "/" << shape.kv_heads << " heads of " << shape.head_dim << ", "
            << threads << " threads";
    }
}

TEST_F(AttentionTest, RejectsBadArgumentsNamingThem) {
  std::vector<float> a(4096, 1.0f), o(4096, 7.0f);
  const auto call = [&](Tensor4<const float> q, Tensor4<const float> k, Tensor4<const float> v,
                        Tensor4<float> out) {
    try {
      attention(q, k, v, out);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  const auto q = bshd<const float>(a.data(), 1, 4, 4, 16),
             kv = bshd<const float>(a.data(), 1, 8, 2, 16);
  const auto out = bshd(o.data(), 1, 4, 4, 16);
  EXPECT_EQ(call(q, bshd<const float>(a.data(), 1, 8, 3, 16),
                 bshd<const float>(a.data(), 1, 8, 3, 16), out),
            "ridge::attention: q_heads (4) is not a multiple of kv_heads (3)");
  EXPECT_EQ(call(bshd<const float>(a.data(), 1, 4, 4, 300), kv, kv, out),
            "ridge::attention: head_dim 300 is outside [1, 256]");
  EXPECT_EQ(call(q, kv, bshd<const float>(a.data(), 1, 9, 2, 16), out),
            "ridge::attention: k and v must have the same kv_len");
  EXPECT_EQ(call(q, kv, kv, bshd(o.data(), 1, 5, 4, 16)),
            "ridge::attention: out must be shaped like q");
  EXPECT_EQ(call(bshd<const float>(nullptr, 1, 4, 4, 16), kv, kv, out),
            "ridge::attention: q.data is null");
  for (float x : o) EXPECT_EQ(x, 7.0f);
}

}  // namespace
}  // namespace ridge::test

// bf16 inputs: the conversions, and attention on bf16 Q, K, V against the double reference on
// the same (bf16-exact) values, through the prefill tiles and decoding, on every path. Products
// of bf16 values are exact in float and summed in float on every path (widened to float, or
// VDPBF16PS's pairs), so the float bounds hold.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "attention/job.hpp"
#include "attention/reference.hpp"
#include "ridge/ridge.hpp"

namespace ridge::test {
namespace {

TEST(Bf16, RoundsToNearestEvenAndKeepsSpecialValues) {
  EXPECT_EQ(to_bf16(1.0f).bits, 0x3f80);
  EXPECT_EQ(to_float(to_bf16(1.0f)), 1.0f);
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties go to the even one, 1.
  EXPECT_EQ(to_float(to_bf16(1.0f + 0x1p-8f)), 1.0f);
  // 1 + 3 x 2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: to 1 + 2^-6 (even).
  EXPECT_EQ(to_float(to_bf16(1.0f + 3 * 0x1p-8f)), 1.0f + 0x1p-6f);
  EXPECT_EQ(to_float(to_bf16(1.0f + 0x1p-8f + 0x1p-20f)), 1.0f + 0x1p-7f);  // above half: up
  EXPECT_EQ(to_float(to_bf16(-2.5f)), -2.5f);
  EXPECT_TRUE(std::isinf(to_float(to_bf16(std::numeric_limits<float>::infinity()))));
  EXPECT_TRUE(std::isnan(to_float(to_bf16(std::numeric_limits<float>::quiet_NaN()))));
  // The largest float rounds up to infinity, as IEEE rounding to bf16's precision does.
  EXPECT_TRUE(std::isinf(to_float(to_bf16(std::numeric_limits<float>::max()))));
}

// A float tensor rounded to bf16 values, and the same values stored as bf16 with its strides.
struct Bf16Tensor {
  TestTensor values;
  std::vector<bf16> storage;
  Tensor4<const bf16> view;

  Bf16Tensor(std::int64_t b, std::int64_t s, std::int64_t h, std::int64_t d, std::mt19937& rng,
             bool heads_major = false, float magnitude = 1.0f)
      : values(b, s, h, d, heads_major) {
    values.fill_random(rng, magnitude);
    storage.resize(values.storage.size());
    for (std::size_t i = 0; i < storage.size(); ++i) {
      storage[i] = to_bf16(values.storage[i]);
      values.storage[i] = to_float(storage[i]);  // the gaps stay NaN
    }
    const Tensor4<float>& f = values.view;
    view = {storage.data(), b, s, h, d, {f.strides[0], f.strides[1], f.strides[2], f.strides[3]}};
  }
};

// The bf16 tile kernels of the ISA in force (RIDGE_ISA) that this CPU runs: on AVX-512 both the
// VDPBF16PS one (with AVX512_BF16) and the widening one that CPUs without it fall back to.
struct Path {
  const char* name;
  attention_detail::TileKernelFactory<bf16> factory;
};
std::vector<Path> bf16_paths() {
  switch (active_isa()) {
#if defined(__x86_64__)
    case Isa::avx512: {
      std::vector<Path> paths{{"avx512", &avx512::attention_kernel_bf16}};
      if (Machine::current().isa.avx512_bf16)
        paths.push_back({"avx512_bf16", &avx512_bf16::attention_kernel_bf16});
      return paths;
    }
    case Isa::avx2:
      return {{"avx2", &avx2::attention_kernel_bf16}};
#endif
    default:
      return {{"generic", &generic::attention_kernel_bf16}};
  }
}

TEST(AttentionBf16, MatchesTheReferenceOnTheSameValuesOnEveryPath) {
  struct Case {
    std::int64_t batch, q_len, kv_len, q_heads, kv_heads, head_dim;
    bool causal, heads_major;
    float magnitude;  // of q and k: logits up to about magnitude^2 x head_dim / 4
  };
  const Case cases[] = {
      {1, 40, 75, 4, 2, 64, false, false, 1},  // prefill tiles
      {1, 37, 37, 2, 1, 33, true, false, 1},       {2, 21, 45, 4, 2, 40, true, true, 1},
      {1, 24, 300, 2, 1, 64, false, false, 12.5f},  // logits to about +-1e4
      {1, 5, 19, 1, 1, 1, false, false, 1},         // head_dim 1: one pair, half zero
      {1, 1, 700, 8, 2, 128, false, false, 1},      // decoding
      {1, 3, 1100, 4, 1, 20, true, false, 1},      {1, 2, 9, 2, 2, 256, false, false, 1},
      {1, 1, 333, 6, 2, 33, false, false, 1},  // odd head_dim: the last pair half zero
  };
  for (const Path& path : bf16_paths())
    for (const Case& c : cases)
      for (Exp2 variant : {Exp2::accurate, Exp2::cubic})
        for (int threads : {1, 3}) {
          set_num_threads(threads);
          std::mt19937 rng(static_cast<unsigned>(c.kv_len));
          Bf16Tensor q(c.batch, c.q_len, c.q_heads, c.head_dim, rng, c.heads_major, c.magnitude);
          Bf16Tensor k(c.batch, c.kv_len, c.kv_heads, c.head_dim, rng, c.heads_major, c.magnitude);
          Bf16Tensor v(c.batch, c.kv_len, c.kv_heads, c.head_dim, rng, c.heads_major);
          TestTensor out(c.batch, c.q_len, c.q_heads, c.head_dim, c.heads_major);
          AttentionOptions options;
          options.causal = c.causal;
          options.exp2 = variant;
          attention_detail::run_attention(q.view, k.view, v.view, out.view, options, path.factory);
          const double error =
              max_relative_error(out,
                                 reference_attention(q.values, k.values, v.values,
                                                     1 / std::sqrt(double(c.head_dim)), c.causal),
                                 v.values);
          EXPECT_LE(error, variant == Exp2::accurate ? 1e-5 : 2e-4)
              << path.name << " " << c.q_len << "x" << c.kv_len << " d " << c.head_dim
              << " threads " << threads;
        }
  set_num_threads(0);
}

// The public entry takes VDPBF16PS where the ISA in force is AVX-512 and the CPU has
// AVX512_BF16, and says so.
TEST(AttentionBf16, ThePublicEntryNamesItsPath) {
  set_num_threads(2);  // 80 rows over 50 keys: the prefill tiles on 2 threads (decodes())
  std::mt19937 rng(7);
  Bf16Tensor q(1, 40, 2, 64, rng), k(1, 50, 1, 64, rng), v(1, 50, 1, 64, rng);
  TestTensor out(1, 40, 2, 64);
  const AttentionStats stats = attention(q.view, k.view, v.view, out.view);
  EXPECT_FALSE(stats.decoding);
  EXPECT_STREQ(stats.kernel, bf16_paths().back().name);
  TestTensor one_row(1, 1, 2, 64);
  const AttentionStats decoding =
      attention(Tensor4<const bf16>{q.storage.data(), 1, 1, 2, 64, {40 * 128, 128, 64, 1}}, k.view,
                v.view, one_row.view);
  EXPECT_TRUE(decoding.decoding);
  EXPECT_STREQ(decoding.kernel, bf16_paths().back().name);
  set_num_threads(0);
}

}  // namespace
}  // namespace ridge::test

// The attention kernels of every ISA path, called directly with their workspace: the prefill
// tile (pack, then run) for 1 .. MR query rows against keys around the micro-tile and tile
// widths, head dimensions that end mid-panel, causal rows at the start and the end of the
// queries, other strides; decoding over small and full blocks of keys, query rows taken in
// fours and alone, head dimensions that end mid-vector, key ranges merged as the driver merges
// them. Independent of the decoding rule and of this host's caches.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "attention/job.hpp"
#include "attention/reference.hpp"
#include "support/isa_paths.hpp"

namespace ridge::test {
namespace {

using attention_detail::Job;
using attention_detail::TileKernel;

TileKernel<float> kernel_for(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512: return avx512::attention_kernel_f32(Exp2::accurate);
    case Isa::avx2: return avx2::attention_kernel_f32(Exp2::accurate);
#endif
    default: return generic::attention_kernel_f32(Exp2::accurate);
  }
}

// Query head h of batch 0, query rows [q0, q0 + rows) of `out` against the reference, relative
// to the largest value magnitude (as max_relative_error in reference.hpp).
double rows_error(const TestTensor& out, const std::vector<double>& want, const TestTensor& v,
                  std::int64_t h, std::int64_t q0, std::int64_t rows) {
  double scale = 0;
  for (float x : v.storage)
    if (!std::isnan(x)) scale = std::max(scale, std::fabs(static_cast<double>(x)));
  double worst = 0;
  for (std::int64_t i = q0; i < q0 + rows; ++i)
    for (std::int64_t x = 0; x < out.head_dim; ++x) {
      const double w = want[static_cast<std::size_t>((i * out.heads + h) * out.head_dim + x)];
      const double e = std::fabs(out.at(0, i, h, x) - w);
      if (std::isnan(e)) return std::numeric_limits<double>::infinity();
      worst = std::max(worst, e / scale);
    }
  return worst;
}

Job<float> make_job(const TestTensor& q, const TestTensor& k, const TestTensor& v, TestTensor& out,
                    bool causal) {
  Job<float> job{q.view, k.view, v.view, out.view};
  job.scale_log2 = static_cast<float>(1.0 / std::sqrt(q.head_dim) * std::numbers::log2e);
  job.causal = causal;
  job.group = q.heads / k.heads;
  return job;
}

class AttentionKernels : public ::testing::TestWithParam<Isa> {};

TEST_P(AttentionKernels, PrefillTileAtEveryRowKeyAndDimensionEdge) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  const TileKernel<float> kernel = kernel_for(GetParam());
  const std::int64_t mr = kernel.rows, nr = kernel.panel_keys, tile_keys = kernel.tile_keys;
  int index = 0;
  for (std::int64_t rows : {std::int64_t{1}, mr / 2 + 1, mr})
    for (std::int64_t kv_len : {std::int64_t{1}, nr - 1, nr + 1, tile_keys - 1, tile_keys + 1,
                                2 * tile_keys + 3})
      for (std::int64_t d : {std::int64_t{1}, std::int64_t{13}, nr + 1, std::int64_t{64}})
        for (bool causal : {false, true}) {
          ++index;
          const bool other_strides = index % 2 == 0;
          // Two query heads share the key/value head; q_len leaves room for the tile at its start
          // and at its end (causal rows there see few keys, or all of them).
          const std::int64_t q_len = rows + 5;
          std::mt19937 rng(static_cast<unsigned>(index));
          TestTensor q(1, q_len, 2, d, other_strides, other_strides ? 2 : 1);
          TestTensor k(1, kv_len, 1, d, other_strides), v(1, kv_len, 1, d);
          TestTensor out(1, q_len, 2, d);
          q.fill_random(rng);
          k.fill_random(rng);
          v.fill_random(rng);
          const Job<float> job = make_job(q, k, v, out, causal);
          std::vector<float> panels(static_cast<std::size_t>(kernel.panel_floats(job)));
          std::vector<float> tile(static_cast<std::size_t>(kernel.tile_floats(job)));
          kernel.pack(job, 0, 0, panels.data());
          const std::vector<double> want =
              reference_attention(q, k, v, 1.0 / std::sqrt(static_cast<double>(d)), causal);
          for (std::int64_t q0 : {std::int64_t{0}, q_len - rows}) {
            kernel.run(job, 0, 1, q0, static_cast<int>(rows), panels.data(), tile.data());
            EXPECT_LE(rows_error(out, want, v, 1, q0, rows), 1e-5)
                << rows << " rows from " << q0 << ", " << kv_len << " keys, d " << d
                << " causal " << causal;
          }
        }
}

// Decoding over key ranges [bounds[i], bounds[i + 1]), merged as attention.cpp merges them.
void check_decode(const TileKernel<float>& kernel, std::int64_t q_len, std::int64_t group,
                  std::int64_t kv_heads, std::int64_t kv_len, std::int64_t d, bool causal,
                  int block, const std::vector<std::int64_t>& bounds, unsigned seed) {
  std::mt19937 rng(seed);
  TestTensor q(1, q_len, kv_heads * group, d), k(1, kv_len, kv_heads, d),
      v(1, kv_len, kv_heads, d), out(1, q_len, kv_heads * group, d);
  q.fill_random(rng);
  k.fill_random(rng);
  v.fill_random(rng);
  Job<float> job = make_job(q, k, v, out, causal);
  job.decode_block_keys = block;
  const std::int64_t rows = q_len * group, all_rows = kv_heads * rows;
  std::vector<float> work(static_cast<std::size_t>(kernel.decode_floats(job)));
  std::vector<std::vector<float>> max(bounds.size() - 1), sum(max.size()), o(max.size());
  for (std::size_t r = 0; r + 1 < bounds.size(); ++r) {
    max[r].resize(all_rows);
    sum[r].resize(all_rows);
    o[r].resize(all_rows * d);
    kernel.decode(job, 0, bounds[r], bounds[r + 1], max[r].data(), sum[r].data(), o[r].data(),
                  work.data());
  }
  for (std::int64_t hr = 0; hr < all_rows; ++hr) {
    float top = -std::numeric_limits<float>::infinity();
    for (const auto& m : max) top = std::max(top, m[hr]);
    const std::int64_t h = hr / rows, r = hr % rows;
    float* dst = out.view.at(0, r % q_len, h * group + r / q_len);
    for (std::int64_t x = 0; x < d; ++x) {
      double total = 0, value = 0;
      for (std::size_t c = 0; c < max.size(); ++c) {
        if (max[c][hr] == -std::numeric_limits<float>::infinity()) continue;
        const double weight = std::exp2(static_cast<double>(max[c][hr]) - top);
        total += weight * sum[c][hr];
        value += weight * o[c][hr * d + x];
      }
      dst[x] = total > 0 ? static_cast<float>(value / total) : 0.0f;
    }
  }
  const std::vector<double> want =
      reference_attention(q, k, v, 1.0 / std::sqrt(static_cast<double>(d)), causal);
  EXPECT_LE(max_relative_error(out, want, v), 1e-5)
      << q_len << " queries x " << group << " heads per key/value head, " << kv_heads
      << " key/value heads, " << kv_len << " keys in blocks of " << block << ", d " << d
      << ", ranges " << bounds.size() - 1 << " causal " << causal;
}

TEST_P(AttentionKernels, DecodingOverBlocksRowGroupsAndKeyRanges) {
  RIDGE_SKIP_UNLESS_SUPPORTED(GetParam());
  const TileKernel<float> kernel = kernel_for(GetParam());
  unsigned seed = 0;
  struct Rows {
    std::int64_t q_len, group;
  };
  // 1 row; 4 rows of one query (taken as one group of four); 5 and 9 rows (groups and singles).
  for (Rows rows : {Rows{1, 1}, Rows{1, 4}, Rows{5, 1}, Rows{3, 3}})
    for (std::int64_t kv_heads : {1, 2})
      for (std::int64_t d : {1, 13, 80})
        for (int block : {1, 3, attention_detail::kMaxDecodeBlockKeys})
          for (std::int64_t kv_len : {7, 70}) {
            check_decode(kernel, rows.q_len, rows.group, kv_heads, kv_len, d, false, block,
                         {0, kv_len}, ++seed);
            check_decode(kernel, rows.q_len, rows.group, kv_heads, kv_len, d, true, block,
                         {0, kv_len}, ++seed);
            check_decode(kernel, rows.q_len, rows.group, kv_heads, kv_len, d, false, block,
                         {0, kv_len / 3, kv_len}, ++seed);
          }
}

INSTANTIATE_TEST_SUITE_P(Isa, AttentionKernels, ::testing::ValuesIn(kAllIsas), isa_test_name);

}  // namespace
}  // namespace ridge::test

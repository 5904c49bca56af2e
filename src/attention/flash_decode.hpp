// Decoding attention (flash-decoding, Dao et al. 2023), written once over the vector traits and
// instantiated per ISA: a few query rows per key/value head (q_len x group of them) against a
// long key/value cache. The work is reading K and V, once and in place, in address order: a
// block of keys at a time, each key for every key/value head before the next key
// ([seq][heads][head_dim] puts all heads of a key side by side; one head at a time would read
// 512 of every 4096 bytes at head_dim 128 and 8 heads, a pattern the hardware prefetchers
// follow poorly: 8-10 GB/s on 1 thread, against 22 for a plain read). The softmax is online
// over the blocks, with lazy rescaling, as in the tile kernel.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "attention/exp2.hpp"
#include "attention/job.hpp"
#include "runtime/aligned_buffer.hpp"

namespace ridge::attention_detail {

template <class V, Exp2 Variant>
struct FlashDecode {
  using reg = typename V::reg;
  static constexpr int W = V::width;
  // Keys per block: all heads' keys and values of a block (64 x heads x head_dim x 8 bytes,
  // 512 KiB at 8 heads of 128) stay in L2 while the heads take their turns.
  static constexpr int kBlockKeys = 64;
  static constexpr int kRowGroup = 4;               // query rows sharing each load of a value row
  static constexpr int kColumnVectors = 4;          // head_dim vectors per pass: 16 accumulators
  static constexpr float kRescaleThreshold = 8.0f;  // as FlashTile's
  static constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

  static float dot(const float* a, const float* b, std::int64_t d) {
    reg acc = V::zero();
    std::int64_t p = 0;
    for (; p + W <= d; p += W) acc = V::fma(V::load(a + p), V::load(b + p), acc);
    if (p < d) {
      const int lanes = static_cast<int>(d - p);
      acc = V::fma(V::load_partial(a + p, lanes), V::load_partial(b + p, lanes), acc);
    }
    return V::reduce_add(acc);
  }

  // o[0, d) += p x v[0, d).
  static void add_scaled(float* o, float p, const float* v, std::int64_t d) {
    const reg pv = V::set1(p);
    std::int64_t c = 0;
    for (; c + W <= d; c += W) V::store(o + c, V::fma(pv, V::load(v + c), V::load(o + c)));
    if (c < d) {
      const int lanes = static_cast<int>(d - c);
      V::store_partial(
          o + c, V::fma(pv, V::load_partial(v + c, lanes), V::load_partial(o + c, lanes)), lanes);
    }
  }

  // Every key/value head of batch b against keys [kv0, kv1): for row r of head h (index
  // h * rows + r, rows = q_len x group), the maximum score, the sum of the weights and the
  // weighted values [head_dim], as TileKernel::decode describes. Needs head_dim stride 1 in k
  // and v (attention.cpp checks).
  static void run(const Job& job, std::int64_t b, std::int64_t kv0, std::int64_t kv1,
                  float* row_max, float* row_sum, float* o) {
    const std::int64_t d = job.q.head_dim, q_len = job.q.seq, kv_len = job.k.seq;
    const std::int64_t rows = q_len * job.group, heads = job.k.heads, all_rows = heads * rows;
    // q [all_rows][d], scaled; s [all_rows][kBlockKeys]
    float* q = static_cast<float*>(detail::thread_scratch(detail::ScratchSlot::attention)
                                       .get(sizeof(float) * all_rows * (d + kBlockKeys)));
    float* s = q + all_rows * d;
    const std::int64_t qs = job.q.strides[3];
    for (std::int64_t hr = 0; hr < all_rows; ++hr) {
      const std::int64_t h = hr / rows, r = hr % rows;
      const float* src = job.q.at(b, r % q_len, h * job.group + r / q_len);
      for (std::int64_t p = 0; p < d; ++p) q[hr * d + p] = src[p * qs] * job.scale_log2;
    }
    std::fill_n(row_max, all_rows, kMinusInfinity);
    std::fill_n(row_sum, all_rows, 0.0f);
    std::fill_n(o, all_rows * d, 0.0f);

    for (std::int64_t j0 = kv0; j0 < kv1; j0 += kBlockKeys) {
      const int keys = static_cast<int>(std::min<std::int64_t>(kBlockKeys, kv1 - j0));
      // S for every head and row, K read in address order: key, then head.
      for (int j = 0; j < keys; ++j)
        for (std::int64_t h = 0; h < heads; ++h) {
          const float* kj = job.k.at(b, j0 + j, h);
          for (std::int64_t r = 0; r < rows; ++r)
            s[(h * rows + r) * kBlockKeys + j] = dot(q + (h * rows + r) * d, kj, d);
        }
      // The online softmax of each row over the block.
      for (std::int64_t hr = 0; hr < all_rows; ++hr) {
        float* sr = s + hr * kBlockKeys;
        // Causal: query (hr % rows) % q_len sees keys up to itself + kv_len - q_len.
        const int seen = job.causal ? static_cast<int>(std::clamp<std::int64_t>(
                                          hr % rows % q_len + kv_len - q_len + 1 - j0, 0, keys))
                                    : keys;
        std::fill(sr + seen, sr + keys, 0.0f);
        if (seen == 0) continue;
        const float block_max = *std::max_element(sr, sr + seen);
        if (row_max[hr] == kMinusInfinity) {
          row_max[hr] = block_max;
        } else if (block_max > row_max[hr] + kRescaleThreshold) {
          const float factor = std::exp2(row_max[hr] - block_max);
          row_sum[hr] *= factor;
          for (std::int64_t c = 0; c < d; ++c) o[hr * d + c] *= factor;
          row_max[hr] = block_max;
        }
        const reg m = V::set1(row_max[hr]);
        reg total = V::zero();
        for (int j = 0; j < seen; j += W) {
          const int lanes = std::min(W, seen - j);
          V::store_partial(sr + j, exp2<V, Variant>(V::sub(V::load_partial(sr + j, lanes), m)),
                           lanes);
          total = V::add(total, V::load_partial(sr + j, lanes));
        }
        row_sum[hr] += V::reduce_add(total);
      }
      // O += P V, V read in address order: key, then head.
      for (int j = 0; j < keys; ++j)
        for (std::int64_t h = 0; h < heads; ++h) {
          const float* vj = job.v.at(b, j0 + j, h);
          for (std::int64_t r = 0; r < rows; ++r) {
            const std::int64_t hr = h * rows + r;
            add_scaled(o + hr * d, s[hr * kBlockKeys + j], vj, d);
          }
        }
    }
  }
};

}  // namespace ridge::attention_detail

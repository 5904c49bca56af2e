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

#include "attention/elements.hpp"
#include "attention/exp2.hpp"
#include "attention/job.hpp"
#include "runtime/aligned_buffer.hpp"

namespace ridge::attention_detail {

template <class V, Exp2 Variant, class In>
struct FlashDecode {
  using reg = typename V::reg;
  static constexpr int W = V::width;
  // Keys per block: all heads' keys and values of a block (64 x heads x head_dim x 8 bytes,
  // 512 KiB at 8 heads of 128) stay in L2 while the heads take their turns.
  static constexpr int kBlockKeys = 64;
  static constexpr int kLineElements = 64 / sizeof(In);  // a 64-byte cache line
  static constexpr int kRowGroup = 4;       // query rows sharing each load of a key or value
  static constexpr int kColumnVectors = 4;  // head_dim vectors per pass of P V: 16 accumulators
  static constexpr float kRescaleThreshold = 8.0f;  // as FlashTile's
  static constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

  // s[r * lds] = q_r . k for Rows query rows q_r = q + r * d: the key is loaded once for all
  // of them, and their Rows accumulators are independent FMA chains (one row at a time, the
  // chain's latency bound it).
  template <int Rows>
  static void dots(const float* q, const In* k, std::int64_t d, float* s, std::int64_t lds) {
    reg acc[Rows];
    for (int r = 0; r < Rows; ++r) acc[r] = V::zero();
    std::int64_t p = 0;
    for (; p + W <= d; p += W) {
      const reg kv = load_row<V>(k + p);
      for (int r = 0; r < Rows; ++r) acc[r] = V::fma(V::load(q + r * d + p), kv, acc[r]);
    }
    if (p < d) {
      const int lanes = static_cast<int>(d - p);
      const reg kv = load_row_partial<V>(k + p, lanes);
      for (int r = 0; r < Rows; ++r)
        acc[r] = V::fma(V::load_partial(q + r * d + p, lanes), kv, acc[r]);
    }
    for (int r = 0; r < Rows; ++r) s[r * lds] = V::reduce_add(acc[r]);
  }

  // o[r][c0, c0 + kColumnVectors W) += sum over keys j of p[r][j] v_j[...], for Rows rows; the
  // last vector holds fewer lanes where the head_dim ends inside it.
  template <int Rows>
  static void add_values(const In* const* v, int keys, const float* p, std::int64_t ldp, float* o,
                         std::int64_t ldo, std::int64_t c0, std::int64_t d) {
    const int vectors =
        static_cast<int>(std::min<std::int64_t>(kColumnVectors, (d - c0 + W - 1) / W));
    const int tail = static_cast<int>(std::min<std::int64_t>(W, d - c0 - (vectors - 1) * W));
    const auto load_o = [&](const float* x, int i) {
      return i + 1 < vectors ? V::load(x) : V::load_partial(x, tail);
    };
    const auto load_v = [&](const In* x, int i) {
      return i + 1 < vectors ? load_row<V>(x) : load_row_partial<V>(x, tail);
    };
    reg acc[Rows][kColumnVectors];
    for (int r = 0; r < Rows; ++r)
      for (int i = 0; i < vectors; ++i) acc[r][i] = load_o(o + r * ldo + c0 + i * W, i);
    for (int j = 0; j < keys; ++j) {
      reg pj[Rows];
      for (int r = 0; r < Rows; ++r) pj[r] = V::set1(p[r * ldp + j]);
      for (int i = 0; i < vectors; ++i) {
        const reg vi = load_v(v[j] + c0 + i * W, i);
        for (int r = 0; r < Rows; ++r) acc[r][i] = V::fma(pj[r], vi, acc[r][i]);
      }
    }
    for (int r = 0; r < Rows; ++r)
      for (int i = 0; i < vectors; ++i) {
        float* dst = o + r * ldo + c0 + i * W;
        if (i + 1 < vectors) {
          V::store(dst, acc[r][i]);
        } else {
          V::store_partial(dst, acc[r][i], tail);
        }
      }
  }

  // Every key/value head of batch b against keys [kv0, kv1): for row r of head h (index
  // h * rows + r, rows = q_len x group), the maximum score, the sum of the weights and the
  // weighted values [head_dim], as TileKernel::decode describes. Needs head_dim stride 1 in k
  // and v (attention.cpp checks).
  static void run(const Job<In>& job, std::int64_t b, std::int64_t kv0, std::int64_t kv1,
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
      const In* src = job.q.at(b, r % q_len, h * job.group + r / q_len);
      for (std::int64_t p = 0; p < d; ++p) q[hr * d + p] = element(src + p * qs) * job.scale_log2;
    }
    std::fill_n(row_max, all_rows, kMinusInfinity);
    std::fill_n(row_sum, all_rows, 0.0f);
    std::fill_n(o, all_rows * d, 0.0f);

    for (std::int64_t j0 = kv0; j0 < kv1; j0 += kBlockKeys) {
      const int keys = static_cast<int>(std::min<std::int64_t>(kBlockKeys, kv1 - j0));
      // S for every head and row, K read (and V fetched) in address order: key, then head.
      for (int j = 0; j < keys; ++j)
        for (std::int64_t h = 0; h < heads; ++h) {
          const In* kj = job.k.at(b, j0 + j, h);
          const In* vj = job.v.at(b, j0 + j, h);
          for (std::int64_t c = 0; c < d; c += kLineElements) __builtin_prefetch(vj + c, 0, 2);
          std::int64_t r = 0;
          for (; r + kRowGroup <= rows; r += kRowGroup)
            dots<kRowGroup>(q + (h * rows + r) * d, kj, d, s + (h * rows + r) * kBlockKeys + j,
                            kBlockKeys);
          for (; r < rows; ++r)
            dots<1>(q + (h * rows + r) * d, kj, d, s + (h * rows + r) * kBlockKeys + j, kBlockKeys);
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
      // O += P V, a head at a time: the head's rows of o stay in registers across the block's
      // keys (kRowGroup rows by kColumnVectors vectors of head_dim per pass). V was fetched into
      // L2 in address order while S was computed.
      for (std::int64_t h = 0; h < heads; ++h) {
        const In* v_rows[kBlockKeys];
        for (int j = 0; j < keys; ++j) v_rows[j] = job.v.at(b, j0 + j, h);
        for (std::int64_t c0 = 0; c0 < d; c0 += kColumnVectors * W) {
          std::int64_t r = 0;
          for (; r + kRowGroup <= rows; r += kRowGroup)
            add_values<kRowGroup>(v_rows, keys, s + (h * rows + r) * kBlockKeys, kBlockKeys,
                                  o + (h * rows + r) * d, d, c0, d);
          for (; r < rows; ++r)
            add_values<1>(v_rows, keys, s + (h * rows + r) * kBlockKeys, kBlockKeys,
                          o + (h * rows + r) * d, d, c0, d);
        }
      }
    }
  }
};

}  // namespace ridge::attention_detail

// The fused attention tile, written once over the vector traits (src/simd) and instantiated per
// ISA: kTileRows query rows against the keys they see, kTileKeys at a time, with the online
// softmax (Milakov and Gimelshein 2018; FlashAttention, Dao et al. 2022) and FlashAttention-4's
// lazy rescaling. Scores live in the exp2 domain (Q is scaled by scale * log2(e) once).
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
struct FlashTile {
  using reg = typename V::reg;
  static constexpr int W = V::width;
  // A rescale is due only when the running maximum grew by more than this (a factor 256 in
  // the weights): until then the stale maximum keeps every weight below 256, far from float's
  // range, and the result is exact because the row's sum uses the same maximum.
  static constexpr float kRescaleThreshold = 8.0f;

  // Copies `rows` rows of length d (element stride ds) into buf, rows `ld` apart, each zero-padded
  // to ld and multiplied by `factor`.
  static void copy_rows(float* buf, std::int64_t ld, const float* const* src, int rows,
                        std::int64_t d, std::int64_t ds, float factor) {
    for (int r = 0; r < rows; ++r) {
      float* dst = buf + r * ld;
      for (std::int64_t i = 0; i < d; ++i) dst[i] = src[r][i * ds] * factor;
      std::fill(dst + d, dst + ld, 0.0f);
    }
  }

  static float dot(const float* a, const float* b, std::int64_t ld) {
    reg acc = V::zero();
    for (std::int64_t i = 0; i < ld; i += W) acc = V::fma(V::load(a + i), V::load(b + i), acc);
    return V::reduce_add(acc);
  }

  static std::int64_t run(const Job& job, std::int64_t b, std::int64_t h, std::int64_t q0,
                          int rows) {
    const std::int64_t d = job.q.head_dim, ld = (d + W - 1) / W * W;
    const std::int64_t q_len = job.q.seq, kv_len = job.k.seq, kv_head = h / job.group;
    // buffers: q [kTileRows][ld], o [kTileRows][ld]; k, v [kTileKeys][ld]; scores [kTileKeys]
    float* q = static_cast<float*>(detail::thread_scratch(detail::ScratchSlot::packed_a)
                                       .get(sizeof(float) * 2 * kTileRows * ld));
    float* o = q + kTileRows * ld;
    float* k = static_cast<float*>(detail::thread_scratch(detail::ScratchSlot::packed_b)
                                       .get(sizeof(float) * (2 * kTileKeys * ld + kTileKeys)));
    float* v = k + kTileKeys * ld;
    float* p = v + kTileKeys * ld;

    const float* src[kTileKeys];
    for (int r = 0; r < rows; ++r) src[r] = job.q.at(b, q0 + r, h);
    copy_rows(q, ld, src, rows, d, job.q.strides[3], job.scale_log2);
    std::fill(o, o + rows * ld, 0.0f);
    float max_used[kTileRows], sum[kTileRows];
    std::fill_n(max_used, rows, -std::numeric_limits<float>::infinity());
    std::fill_n(sum, rows, 0.0f);
    std::int64_t rescales = 0;

    // Row r sees keys [0, last[r]]; causal rows are aligned to the end of the keys.
    std::int64_t last[kTileRows];
    for (int r = 0; r < rows; ++r)
      last[r] = job.causal ? std::min(kv_len - 1, q0 + r + kv_len - q_len) : kv_len - 1;
    const std::int64_t kv_end = *std::max_element(last, last + rows) + 1;

    for (std::int64_t kv0 = 0; kv0 < kv_end; kv0 += kTileKeys) {
      const int keys = static_cast<int>(std::min<std::int64_t>(kTileKeys, kv_end - kv0));
      for (int c = 0; c < keys; ++c) src[c] = job.k.at(b, kv0 + c, kv_head);
      copy_rows(k, ld, src, keys, d, job.k.strides[3], 1.0f);
      for (int c = 0; c < keys; ++c) src[c] = job.v.at(b, kv0 + c, kv_head);
      copy_rows(v, ld, src, keys, d, job.v.strides[3], 1.0f);

      for (int r = 0; r < rows; ++r) {
        const int seen = static_cast<int>(std::min<std::int64_t>(keys, last[r] + 1 - kv0));
        if (seen <= 0) continue;
        const float* qr = q + r * ld;
        float tile_max = -std::numeric_limits<float>::infinity();
        for (int c = 0; c < seen; ++c) {
          p[c] = dot(qr, k + c * ld, ld);
          tile_max = std::max(tile_max, p[c]);
        }
        float* orow = o + r * ld;
        if (max_used[r] == -std::numeric_limits<float>::infinity()) {
          max_used[r] = tile_max;
        } else if (tile_max > max_used[r] + kRescaleThreshold) {
          const float factor = std::exp2(max_used[r] - tile_max);
          sum[r] *= factor;
          const reg f = V::set1(factor);
          for (std::int64_t i = 0; i < ld; i += W) V::store(orow + i, V::mul(V::load(orow + i), f));
          max_used[r] = tile_max;
          ++rescales;
        }
        // p = 2^(s - max_used), only over the keys this row sees.
        const reg shift = V::set1(max_used[r]);
        for (int c = 0; c < seen; c += W) {
          const int lanes = std::min(W, seen - c);
          const reg e = exp2<V, Variant>(V::sub(V::load_partial(p + c, lanes), shift));
          V::store_partial(p + c, e, lanes);
        }
        float row_sum = 0;
        for (int c = 0; c < seen; ++c) row_sum += p[c];
        sum[r] += row_sum;
        // o += p v, one vector of the row at a time, kept in a register across the keys.
        for (std::int64_t i = 0; i < ld; i += W) {
          reg acc = V::load(orow + i);
          for (int c = 0; c < seen; ++c) acc = V::fma(V::load(v + c * ld + i), V::set1(p[c]), acc);
          V::store(orow + i, acc);
        }
      }
    }

    for (int r = 0; r < rows; ++r) {
      float* dst = job.out.at(b, q0 + r, h);
      const float* orow = o + r * ld;
      // A row that saw no key has sum 0: its output is zeros, not 0 / 0.
      const float inverse = sum[r] > 0 ? 1.0f / sum[r] : 0.0f;
      for (std::int64_t i = 0; i < d; ++i) dst[i * job.out.strides[3]] = orow[i] * inverse;
    }
    return rescales;
  }

  static TileKernel kernel() { return &run; }
};

// The tile kernel of one ISA for `variant`.
template <class V>
TileKernel tile_kernel(Exp2 variant) {
  return variant == Exp2::cubic ? FlashTile<V, Exp2::cubic>::kernel()
                                : FlashTile<V, Exp2::accurate>::kernel();
}

template <class V, Exp2 Variant>
void exp2_array(const float* x, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; i += V::width) {
    const int lanes = static_cast<int>(std::min<std::int64_t>(V::width, n - i));
    V::store_partial(y + i, exp2<V, Variant>(V::load_partial(x + i, lanes)), lanes);
  }
}

template <class V>
Exp2Kernel exp2_kernel(Exp2 variant) {
  return variant == Exp2::cubic ? &exp2_array<V, Exp2::cubic> : &exp2_array<V, Exp2::accurate>;
}

}  // namespace ridge::attention_detail

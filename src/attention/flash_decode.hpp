// Decoding attention (flash-decoding, Dao et al. 2023), written once over the vector traits and
// instantiated per ISA: a few query rows per key/value head (q_len x group of them) against a
// long key/value cache. The work is reading K and V, once and in place, a block of keys at a
// time for every key/value head ([seq][heads][head_dim] puts all heads of a key side by side,
// so a block is one stretch of memory; one head at a time over all keys would read 512 of every
// 4096 bytes at head_dim 128 and 8 heads, a pattern the hardware prefetchers follow poorly: 8-10
// GB/s on 1 thread, against 22 for a plain read). The softmax is online over the blocks, with
// lazy rescaling, as in the tile kernel.
//
// The blocks are software-pipelined: while a block is computed, the next block's keys and values
// are fetched into L2, spread evenly over the work: each step of S that loads a vector of key j
// fetches the same vector of key j + block, and each key's step of P V the next block's values
// in the columns it reads. Memory is then busy in every phase. Fetching only the current block's
// values during its S left it idle through the softmax and P V, a third of the time: 43-55% of
// the DRAM read bandwidth on 1 thread, against 65-89% pipelined. Fetching into L1 (PREFETCHT0
// or PREFETCHNTA rather than PREFETCHT1): 7.9-8.7 GB/s against 16-18 (1 thread, three runs
// each; on Zen 4, presumably, those hold L1's few miss buffers for the whole DRAM latency).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "attention/elements.hpp"
#include "attention/exp2.hpp"
#include "attention/job.hpp"

namespace ridge::attention_detail {

// Pairs as FlashTile's: void (S on V, keys widened to float), or the traits of bf16 pairs
// (In = bf16 on AVX512_BF16), whose lanes hold two key elements and whose fma is VDPBF16PS.
template <class V, Exp2 Variant, class In, class Pairs = void>
struct FlashDecode {
  using reg = typename V::reg;
  static constexpr int W = V::width;
  static constexpr bool kPairs = !std::is_void_v<Pairs>;
  using SV = std::conditional_t<kPairs, Pairs, V>;       // S's arithmetic
  static constexpr int kLaneElements = kPairs ? 2 : 1;   // key elements per lane of S
  static constexpr int kLineElements = 64 / sizeof(In);  // a 64-byte cache line
  static constexpr int kRowGroup = 4;       // query rows sharing each load of a key or value
  static constexpr int kColumnVectors = 4;  // head_dim vectors per pass of P V: 16 accumulators

  // Lanes [p, p + W) of S's inner dimension of key row k (d elements): elements p on, or pairs
  // of them from 2p on; where the row ends inside them (Full false), its last elements only and
  // zeros after, nothing read past the end.
  template <bool Full>
  static reg load_key(const In* k, std::int64_t p, std::int64_t d) {
    const std::int64_t e = p * kLaneElements;
    if constexpr (kPairs) {
      return Full ? Pairs::load_pairs(&k[e].bits)
                  : Pairs::load_pairs_partial(&k[e].bits, static_cast<int>(d - e));
    } else {
      return Full ? load_row<V>(k + e) : load_row_partial<V>(k + e, static_cast<int>(d - e));
    }
  }
  // Lanes [p, p + W) of a query row laid out for S (depth lanes).
  template <bool Full>
  static reg load_query(const float* q, std::int64_t p, std::int64_t depth) {
    return Full ? V::load(q + p) : V::load_partial(q + p, static_cast<int>(depth - p));
  }
  // Lanes up to which every step of W lanes holds whole vectors of key elements: the steps
  // after it (at most one) take the Full = false loads. Deciding it once per step, not per key,
  // keeps the steps' loops free of branches: with a branch per key GCC kept a tile's
  // accumulators in memory.
  static std::int64_t full_lanes(std::int64_t d) { return d / (W * kLaneElements) * W; }

  // s[r * lds + j] = scale q_r . k_j for Rows query rows q_r (q + r * depth, laid out for S:
  // elements.hpp) and the W / Rows keys k_j = k + j * key_stride: each vector of a key or a
  // query row is loaded once per step for the whole tile, and the tile's W dot products are
  // summed across lanes together (transpose_add: about 3 instructions a sum, against 6-8 with
  // reduce_add alone). Measured on 1 thread with K and V in the caches (kv_len 512, 8 heads of
  // 128): 26.7 GB/s of K and V, against 20.1 with one reduce_add per dot product (32-34 since
  // the steps lost their per-key branch, full_lanes). Each step also fetches the same place
  // `ahead` elements on (the next block's keys) into L2, unless 0.
  template <int Rows>
  static void dot_tile(const float* q, const In* k, std::int64_t key_stride, std::int64_t d,
                       float scale, float* s, std::int64_t lds, std::int64_t ahead) {
    constexpr int Keys = W / Rows;
    const std::int64_t depth = s_depth<Pairs>(d);
    reg acc[W];  // acc[r * Keys + j]
    for (int i = 0; i < W; ++i) acc[i] = V::zero();
    const auto step = [&](std::int64_t p, auto full) {
      constexpr bool Full = decltype(full)::value;
      const std::int64_t e = p * kLaneElements;
      if (ahead != 0 && e % kLineElements == 0)
        for (int j = 0; j < Keys; ++j) __builtin_prefetch(k + j * key_stride + e + ahead, 0, 2);
      reg kv[Keys];
      for (int j = 0; j < Keys; ++j) kv[j] = load_key<Full>(k + j * key_stride, p, d);
      for (int r = 0; r < Rows; ++r) {
        const reg qv = load_query<Full>(q + r * depth, p, depth);
        for (int j = 0; j < Keys; ++j) acc[r * Keys + j] = SV::fma(qv, kv[j], acc[r * Keys + j]);
      }
    };
    const std::int64_t full = full_lanes(d);
    std::int64_t p = 0;
    for (; p < full; p += W) step(p, std::true_type{});
    if (p < depth) step(p, std::false_type{});
    alignas(64) float sums[W];
    V::store(sums, V::mul(V::transpose_add(acc), V::set1(scale)));
    for (int r = 0; r < Rows; ++r)
      for (int j = 0; j < Keys; ++j) s[r * lds + j] = sums[r * Keys + j];
  }

  // s[r * lds] = scale q_r . k for Rows query rows q_r = q + r * depth: the key is loaded once for
  // all of them, and their Rows accumulators are independent FMA chains (one row at a time, the
  // chain's latency bound it). Fetches `ahead` as dot_tile.
  template <int Rows>
  static void dots(const float* q, const In* k, std::int64_t d, float scale, float* s,
                   std::int64_t lds, std::int64_t ahead) {
    const std::int64_t depth = s_depth<Pairs>(d);
    reg acc[Rows];
    for (int r = 0; r < Rows; ++r) acc[r] = V::zero();
    const auto step = [&](std::int64_t p, auto full) {
      constexpr bool Full = decltype(full)::value;
      const std::int64_t e = p * kLaneElements;
      if (ahead != 0 && e % kLineElements == 0) __builtin_prefetch(k + e + ahead, 0, 2);
      const reg kv = load_key<Full>(k, p, d);
      for (int r = 0; r < Rows; ++r)
        acc[r] = SV::fma(load_query<Full>(q + r * depth, p, depth), kv, acc[r]);
    };
    const std::int64_t full = full_lanes(d);
    std::int64_t p = 0;
    for (; p < full; p += W) step(p, std::true_type{});
    if (p < depth) step(p, std::false_type{});
    for (int r = 0; r < Rows; ++r) s[r * lds] = V::reduce_add(acc[r]) * scale;
  }

  // s[r * lds + j] = scale q_r . k_j for Rows query rows from q and `keys` keys from k (key j
  // at k + j * key_stride): tiles of W / Rows keys, then the keys left over one at a time.
  template <int Rows>
  static void scores(const float* q, const In* k, std::int64_t key_stride, int keys, std::int64_t d,
                     float scale, float* s, std::int64_t lds, std::int64_t ahead, int fetch_keys) {
    static_assert(W % Rows == 0);
    int j = 0;
    for (; j + W / Rows <= keys; j += W / Rows)
      dot_tile<Rows>(q, k + j * key_stride, key_stride, d, scale, s + j, lds,
                     j + W / Rows <= fetch_keys ? ahead : 0);
    for (; j < keys; ++j)
      dots<Rows>(q, k + j * key_stride, d, scale, s + j, lds, j < fetch_keys ? ahead : 0);
  }

  // o[r][c0, c0 + kColumnVectors W) += sum over keys j of p[r][j] v_j[c0, ...), for Rows rows
  // (row r's weights at p + r * ldp, its o at o + r * ldo), of which the first `lanes_left`
  // columns exist (all of them when Full). Loop bounds are constants so the Rows x
  // kColumnVectors accumulators stay in registers: with the vector count a run-time bound, GCC
  // kept them in memory and P V ran 3x slower than its FMAs. Each key's step also fetches the
  // same columns of the next block's key `j` (v_next, j < next_keys) into L2.
  template <int Rows, bool Full>
  static void add_values(const In* const* v, int keys, const float* p, std::int64_t ldp, float* o,
                         std::int64_t ldo, std::int64_t c0, int lanes_left, const In* const* v_next,
                         int next_keys) {
    int lanes[kColumnVectors];
    for (int i = 0; i < kColumnVectors; ++i) lanes[i] = std::clamp(lanes_left - i * W, 0, W);
    // Vectors past head_dim are neither read nor written.
    const auto present = [&](int i) { return Full || lanes[i] > 0; };
    reg acc[Rows][kColumnVectors];
    for (int r = 0; r < Rows; ++r)
      for (int i = 0; i < kColumnVectors; ++i) {
        const float* x = o + r * ldo + c0 + i * W;
        acc[r][i] = !present(i) ? V::zero() : Full ? V::load(x) : V::load_partial(x, lanes[i]);
      }
    for (int j = 0; j < keys; ++j) {
      if (j < next_keys)
        for (int c = 0; c < lanes_left; c += kLineElements)
          __builtin_prefetch(v_next[j] + c0 + c, 0, 2);
      reg pj[Rows];
      for (int r = 0; r < Rows; ++r) pj[r] = V::set1(p[r * ldp + j]);
      for (int i = 0; i < kColumnVectors; ++i) {
        if (!present(i)) continue;
        const In* x = v[j] + c0 + i * W;
        const reg vi = Full ? load_row<V>(x) : load_row_partial<V>(x, lanes[i]);
        for (int r = 0; r < Rows; ++r) acc[r][i] = V::fma(pj[r], vi, acc[r][i]);
      }
    }
    for (int r = 0; r < Rows; ++r)
      for (int i = 0; i < kColumnVectors; ++i) {
        if (!present(i)) continue;
        float* x = o + r * ldo + c0 + i * W;
        if (Full) {
          V::store(x, acc[r][i]);
        } else {
          V::store_partial(x, acc[r][i], lanes[i]);
        }
      }
  }

  // add_values for the columns from c0 of head_dim d, in its Full form while kColumnVectors
  // whole vectors remain.
  template <int Rows>
  static void add_values(const In* const* v, int keys, const float* p, std::int64_t ldp, float* o,
                         std::int64_t d, std::int64_t c0, const In* const* v_next, int next_keys) {
    const int left = static_cast<int>(std::min<std::int64_t>(d - c0, kColumnVectors * W));
    if (left == kColumnVectors * W) {
      add_values<Rows, true>(v, keys, p, ldp, o, d, c0, left, v_next, next_keys);
    } else {
      add_values<Rows, false>(v, keys, p, ldp, o, d, c0, left, v_next, next_keys);
    }
  }

  static int block_keys(const Job<In>& job) {
    return std::clamp(job.decode_block_keys, 1, kMaxDecodeBlockKeys);
  }
  // Floats of run()'s own buffers: q [all_rows][depth] and s [all_rows][block].
  static std::int64_t work_floats(const Job<In>& job) {
    return job.k.heads * job.q.seq * job.group * (job.q.head_dim + block_keys(job));
  }

  // Every key/value head of batch b against keys [kv0, kv1): for row r of head h (index
  // h * rows + r, rows = q_len x group), the maximum score, the sum of the weights and the
  // weighted values [head_dim], as TileKernel::decode describes; returns the rescale count.
  // Needs head_dim stride 1 in k and v (attention.cpp checks). work: work_floats() floats.
  static std::int64_t run(const Job<In>& job, std::int64_t b, std::int64_t kv0, std::int64_t kv1,
                          float* row_max, float* row_sum, float* o, float* work) {
    const std::int64_t d = job.q.head_dim, q_len = job.q.seq, kv_len = job.k.seq;
    const std::int64_t rows = q_len * job.group, heads = job.k.heads, all_rows = heads * rows;
    const std::int64_t depth = s_depth<Pairs>(d);
    const int block = block_keys(job);
    // q [all_rows][depth], laid out for S; s [all_rows][block], scaled to the exp2 domain (as in
    // FlashTile, S rather than Q: one rounding fewer)
    float* q = work;
    float* s = q + all_rows * d;
    const std::int64_t qs = job.q.strides[3];
    for (std::int64_t hr = 0; hr < all_rows; ++hr) {
      const std::int64_t h = hr / rows, r = hr % rows;
      const In* src = job.q.at(b, r % q_len, h * job.group + r / q_len);
      for (std::int64_t p = 0; p < depth; ++p)
        put_s_element<Pairs>(q + hr * depth + p, src, p, d, qs);
    }
    std::fill_n(row_max, all_rows, kMinusInfinity);
    std::fill_n(row_sum, all_rows, 0.0f);
    std::fill_n(o, all_rows * d, 0.0f);
    std::int64_t rescales = 0;
    const std::int64_t key_stride = job.k.strides[1];
    const auto fetch_into_l2 = [d](const In* x) {
      for (std::int64_t c = 0; c < d; c += kLineElements) __builtin_prefetch(x + c, 0, 2);
    };

    for (std::int64_t j0 = kv0; j0 < kv1; j0 += block) {
      const int keys = static_cast<int>(std::min<std::int64_t>(block, kv1 - j0));
      const int next_keys = static_cast<int>(std::clamp<std::int64_t>(kv1 - j0 - block, 0, block));
      // S for every head and row, W keys at a time, each head in turn. Meanwhile the next
      // block's keys are fetched (and, for the first block, its own values: no block before it
      // fetched them).
      for (int j1 = 0; j1 < keys; j1 += W) {
        const int step_keys = std::min(W, keys - j1);
        for (std::int64_t h = 0; h < heads; ++h) {
          if (j0 == kv0)
            for (int j = j1; j < j1 + step_keys; ++j) fetch_into_l2(job.v.at(b, j0 + j, h));
          const In* k = job.k.at(b, j0 + j1, h);
          const int fetch_keys = std::clamp(next_keys - j1, 0, step_keys);
          std::int64_t r = 0;
          for (; r + kRowGroup <= rows; r += kRowGroup)
            scores<kRowGroup>(q + (h * rows + r) * depth, k, key_stride, step_keys, d,
                              job.scale_log2, s + (h * rows + r) * block + j1, block,
                              block * key_stride, r == 0 ? fetch_keys : 0);
          for (; r < rows; ++r)
            scores<1>(q + (h * rows + r) * depth, k, key_stride, step_keys, d, job.scale_log2,
                      s + (h * rows + r) * block + j1, block, block * key_stride,
                      r == 0 ? fetch_keys : 0);
        }
      }
      // The online softmax of each row over the block.
      for (std::int64_t hr = 0; hr < all_rows; ++hr) {
        float* sr = s + hr * block;
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
          ++rescales;
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
      // keys (kRowGroup rows by kColumnVectors vectors of head_dim per pass), the values come
      // from L2, and the first row group's passes fetch the next block's values.
      for (std::int64_t h = 0; h < heads; ++h) {
        const In* v_rows[kMaxDecodeBlockKeys];
        const In* v_next[kMaxDecodeBlockKeys];
        for (int j = 0; j < keys; ++j) v_rows[j] = job.v.at(b, j0 + j, h);
        for (int j = 0; j < next_keys; ++j) v_next[j] = job.v.at(b, j0 + block + j, h);
        for (std::int64_t c0 = 0; c0 < d; c0 += kColumnVectors * W) {
          std::int64_t r = 0;
          for (; r + kRowGroup <= rows; r += kRowGroup)
            add_values<kRowGroup>(v_rows, keys, s + (h * rows + r) * block, block,
                                  o + (h * rows + r) * d, d, c0, v_next, r == 0 ? next_keys : 0);
          for (; r < rows; ++r)
            add_values<1>(v_rows, keys, s + (h * rows + r) * block, block, o + (h * rows + r) * d,
                          d, c0, v_next, r == 0 ? next_keys : 0);
        }
      }
    }
    return rescales;
  }
};

}  // namespace ridge::attention_detail

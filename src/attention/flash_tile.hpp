// The fused attention tile, written once over the vector traits (src/simd) and instantiated per
// ISA: MR query rows (the GEMM micro-tile's height) against the keys they see, kTileKeys at a
// time, with the online softmax (Milakov and Gimelshein 2018; FlashAttention, Dao et al. 2022)
// and FlashAttention-4's lazy rescaling. Both products run on the GEMM micro-kernel
// (kernels/microkernel.hpp) with packed operands:
//   S = Q K^T:  A = Q^T packed [d][MR], B = K packed into panels [d][NR], C = S stored
//               [key][MR], then scaled by scale * log2(e) (the exp2 domain).
//   O += P V:   A = P, which is S's buffer [key][MR] after the softmax, B = V packed into
//               panels [key][NR] of NR head_dim columns, C = O stored [d][MR].
// Storing S and O with the rows contiguous makes the softmax vector-wide across query rows:
// a running maximum, sum and rescale factor per lane. Scaling S rather than Q saves Q's rounding
// to the scaled value: the largest error measured at large logits (inputs to +-12.5, head_dim
// 64 and 128) fell from 7.9e-6 and 9.5e-6 to 7.3e-6 and 7.6e-6, on bf16-exact inputs (exact
// products) from 6.1e-6 and 1.5e-5 to 2.3e-6 and 4.2e-6.
//
// With bf16 inputs on AVX512_BF16, S = Q K^T runs on the micro-kernel instantiated on bf16
// pairs (simd/avx512_bf16.hpp: VDPBF16PS, two products per lane and instruction): Q^T and K
// packed as pairs along head_dim, [d / 2][MR] and [d / 2][NR]. P V stays in float: P rounded to
// bf16 would cost the accuracy bounds (2^-9 relative per weight).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "attention/elements.hpp"
#include "attention/exp2.hpp"
#include "attention/flash_decode.hpp"
#include "attention/job.hpp"
#include "kernels/microkernel.hpp"
#include "kernels/pack.hpp"
#include "kernels/tile_shapes.hpp"

namespace ridge::attention_detail {

// Pairs: void (S on V, Q and K widened to float), or the traits of bf16 pairs (In = bf16).
template <class V, int MV, int NR, Exp2 Variant, class In, class Pairs = void>
struct FlashTile {
  static constexpr bool kPairs = !std::is_void_v<Pairs>;
  static_assert(!kPairs || std::is_same_v<In, bf16>);
  using reg = typename V::reg;
  static constexpr int W = V::width;
  static constexpr int MR = MV * W;
  // Keys per tile: a whole number of NR-key panels; S and P then take kTileKeys x MR floats
  // (12 KiB for AVX-512's 32 rows), a tile's packed K and V kTileKeys x head_dim each (48 KiB
  // at head_dim 128: L2).
  static constexpr int kTileKeys = 8 * NR;

  // Keys rounded up to whole NR-key panels.
  static std::int64_t padded_keys(const Job<In>& job) { return (job.k.seq + NR - 1) / NR * NR; }
  static std::int64_t d_panels(const Job<In>& job) { return (job.q.head_dim + NR - 1) / NR; }
  // Floats of one key/value head packed: K and V panels for every key.
  static std::int64_t panel_floats(const Job<In>& job) {
    return padded_keys(job) * s_depth<Pairs>(job.q.head_dim) +
           d_panels(job) * NR * padded_keys(job);
  }

  // Floats of run()'s own buffers: q [depth][MR], o [d][MR], s [kTileKeys][MR].
  static std::int64_t tile_floats(const Job<In>& job) {
    return (2 * job.q.head_dim + kTileKeys) * MR;
  }

  // Packs key/value head `head` of batch b once for all the query tiles that read it:
  //   K: panels [depth][NR] per NR keys, S's inner element p of key j (elements.hpp) at
  //      k[(j / NR) * depth * NR + p * NR + j % NR], depth = s_depth (elements.hpp);
  //   V: panels [key][NR] per NR dims, V(key j, dim c) at v[(c / NR) * keys * NR + j * NR + c % NR]
  //      with keys = padded_keys;
  // zero past the last key and the last dim. Float inputs go through the GEMM's packing of B
  // (K as the d x keys B of S = Q K^T, V as the keys x d B of O = P V), whose transposes and
  // copies run on vectors: element by element, packing took a sixth of a prefill's time
  // (1 x 16 heads x 2048 x 2048, d 128, 2 threads, Xeon guest; every thread packs every head).
  static void pack(const Job<In>& job, std::int64_t b, std::int64_t head, float* panels) {
    if constexpr (std::is_same_v<In, float> && !kPairs) {
      pack_floats(job, b, head, panels);
    } else {
      pack_elements(job, b, head, panels);
    }
  }

  static void pack_floats(const Job<float>& job, std::int64_t b, std::int64_t head,
                          float* panels) {
    const std::int64_t d = job.q.head_dim, keys = padded_keys(job), kv_len = job.k.seq;
    float* k = panels;
    float* v = panels + keys * d;
    kernels::pack_b<V, NR>(d, kv_len, job.k.at(b, 0, head), job.k.strides[3], job.k.strides[1],
                           k);
    const float* v_rows = job.v.at(b, 0, head);
    for (std::int64_t c0 = 0; c0 < d; c0 += NR) {
      float* panel = v + c0 * keys;
      kernels::pack_b<V, NR>(kv_len, std::min<std::int64_t>(NR, d - c0),
                             v_rows + c0 * job.v.strides[3], job.v.strides[1], job.v.strides[3],
                             panel);
      std::fill(panel + kv_len * NR, panel + keys * NR, 0.0f);
    }
  }

  static void pack_elements(const Job<In>& job, std::int64_t b, std::int64_t head,
                            float* panels) {
    const std::int64_t d = job.q.head_dim, keys = padded_keys(job), kv_len = job.k.seq;
    const std::int64_t depth = s_depth<Pairs>(job.q.head_dim);
    const std::int64_t columns = d_panels(job) * NR;  // d rounded up to whole panels
    float* k = panels;
    float* v = panels + keys * depth;
    const std::int64_t ks = job.k.strides[3], vs = job.v.strides[3];
    for (std::int64_t j = 0; j < keys; ++j) {
      float* kdst = k + (j / NR) * depth * NR + j % NR;
      const In* ksrc = j < kv_len ? job.k.at(b, j, head) : nullptr;
      for (std::int64_t p = 0; p < depth; ++p) put_s_element<Pairs>(kdst + p * NR, ksrc, p, d, ks);
      const In* vsrc = j < kv_len ? job.v.at(b, j, head) : nullptr;
      for (std::int64_t c = 0; c < columns; ++c)
        v[(c / NR) * keys * NR + j * NR + c % NR] =
            vsrc != nullptr && c < d ? element(vsrc + c * vs) : 0.0f;
    }
  }

  // panels: pack()'s output for the key/value head that query head h reads; tile:
  // tile_floats() floats.
  static std::int64_t run(const Job<In>& job, std::int64_t b, std::int64_t h, std::int64_t q0,
                          int rows, const float* panels, float* tile) {
    const std::int64_t d = job.q.head_dim, q_len = job.q.seq, kv_len = job.k.seq;
    const std::int64_t keys_padded = padded_keys(job);
    const std::int64_t depth = s_depth<Pairs>(job.q.head_dim);
    const float* k = panels;
    const float* v = panels + keys_padded * depth;
    // q [depth][MR], o [d][MR], s [kTileKeys][MR]
    float* q = tile;
    float* o = q + d * MR;
    float* s = o + d * MR;

    // Q^T; rows past `rows` are zero (their outputs are computed and dropped). Float queries
    // by the GEMM's packing of A (vector transposes).
    const std::int64_t qs = job.q.strides[3];
    if constexpr (std::is_same_v<In, float> && !kPairs) {
      kernels::pack_a<V, MR>(rows, d, job.q.at(b, q0, h), job.q.strides[1], qs, q);
    } else {
      for (int r = 0; r < MR; ++r) {
        const In* src = r < rows ? job.q.at(b, q0 + r, h) : nullptr;
        for (std::int64_t p = 0; p < depth; ++p)
          put_s_element<Pairs>(q + p * MR + r, src, p, d, qs);
      }
    }
    std::fill(o, o + d * MR, 0.0f);
    alignas(64) float max_used[MR], sum[MR], factor[MR];
    std::fill_n(max_used, MR, kMinusInfinity);
    std::fill_n(sum, MR, 0.0f);
    std::int64_t rescales = 0;

    // Row r sees keys [0, first_hidden(r)): causal rows are aligned to the end of the keys.
    const std::int64_t offset = kv_len - q_len;
    const auto first_hidden = [&](int r) {
      return job.causal ? std::clamp<std::int64_t>(q0 + r + offset + 1, 0, kv_len) : kv_len;
    };
    const std::int64_t kv_end = first_hidden(rows - 1);

    for (std::int64_t kv0 = 0; kv0 < kv_end; kv0 += kTileKeys) {
      const int keys = static_cast<int>(std::min<std::int64_t>(kTileKeys, kv_end - kv0));

      // S = Q K^T scaled by scale * log2(e) (the exp2 domain) as the micro-kernel stores it (its
      // alpha), NR keys per micro-tile.
      using SV = std::conditional_t<kPairs, Pairs, V>;
      for (int j0 = 0; j0 < keys; j0 += NR)
        kernels::micro_tile<SV, MV, NR>(
            depth, kernels::PanelA<float>{q, MR},
            kernels::PackedB<SV, NR>{k + (kv0 + j0) / NR * depth * NR},
            kernels::TileC<float>{s + j0 * MR, MR, MR, std::min(NR, keys - j0), job.scale_log2,
                                  0.0f});
      // Under a causal mask, key j is hidden from the rows before first_row(j): a prefix,
      // since each row sees one key more than the row before. Only tiles that reach past the
      // first row's last key have any.
      const bool masked = first_hidden(0) < kv0 + keys;
      const auto first_row = [&](int j) {
        return static_cast<int>(std::clamp<std::int64_t>(kv0 + j - offset - q0, 0, MR));
      };
      if (masked)
        for (int j = 0; j < keys; ++j) std::fill_n(s + j * MR, first_row(j), kMinusInfinity);

      // The tile's maximum per row, then the lazy rescale, row by row (rare: a few per row).
      for (int i = 0; i < MV; ++i) {
        reg m = V::set1(kMinusInfinity);
        for (int j = 0; j < keys; ++j) m = V::max(m, V::load(s + j * MR + i * W));
        V::store(factor + i * W, m);  // the tile maxima, for now
      }
      bool any_rescale = false;
      for (int r = 0; r < MR; ++r) {
        const float tile_max = factor[r];
        factor[r] = 1.0f;
        if (tile_max == kMinusInfinity) continue;  // the row sees none of these keys
        if (max_used[r] == kMinusInfinity) {
          max_used[r] = tile_max;
        } else if (tile_max > max_used[r] + kRescaleThreshold) {
          factor[r] = std::exp2(max_used[r] - tile_max);
          sum[r] *= factor[r];
          max_used[r] = tile_max;
          any_rescale = true;
          rescales += r < rows;
        }
      }
      if (any_rescale)
        for (std::int64_t c = 0; c < d; ++c)
          for (int i = 0; i < MV; ++i) {
            float* oc = o + c * MR + i * W;
            V::store(oc, V::mul(V::load(oc), V::load(factor + i * W)));
          }

      // P = 2^(S - max), in place, and the row sums, in one pass where no key is hidden. Under
      // the mask, hidden keys must first weigh exactly zero (a row that has seen no key keeps
      // max -inf, its weights are garbage until zeroed), so the sums take a pass of their own.
      for (int i = 0; i < MV; ++i) {
        const reg m = V::load(max_used + i * W);
        reg total = V::load(sum + i * W);
        for (int j = 0; j < keys; ++j) {
          float* sj = s + j * MR + i * W;
          const reg p = exp2<V, Variant>(V::sub(V::load(sj), m));
          V::store(sj, p);
          if (!masked) total = V::add(total, p);
        }
        if (!masked) V::store(sum + i * W, total);
      }
      if (masked) {
        for (int j = 0; j < keys; ++j) std::fill_n(s + j * MR, first_row(j), 0.0f);
        for (int i = 0; i < MV; ++i) {
          reg total = V::load(sum + i * W);
          for (int j = 0; j < keys; ++j) total = V::add(total, V::load(s + j * MR + i * W));
          V::store(sum + i * W, total);
        }
      }

      // O += P V, NR head_dim columns per micro-tile.
      for (std::int64_t c0 = 0; c0 < d; c0 += NR)
        kernels::micro_tile<V, MV, NR>(
            keys, kernels::PanelA<float>{s, MR},
            kernels::PackedB<V, NR>{v + (c0 / NR) * keys_padded * NR + kv0 * NR},
            kernels::TileC<float>{o + c0 * MR, MR, MR,
                                  static_cast<int>(std::min<std::int64_t>(NR, d - c0)), 1.0f,
                                  1.0f});
    }

    // O / sum, then out = O^T (O is stored [d][MR]), 4 x 4 blocks at a time by vector transposes
    // where the output's head_dim is contiguous. A row that saw no key has sum 0: its output is
    // zeros, not 0 / 0.
    alignas(64) float inverse[MR];
    for (int r = 0; r < MR; ++r) inverse[r] = sum[r] > 0 ? 1.0f / sum[r] : 0.0f;
    for (std::int64_t c = 0; c < d; ++c)
      for (int i = 0; i < MV; ++i) {
        float* oc = o + c * MR + i * W;
        V::store(oc, V::mul(V::load(oc), V::load(inverse + i * W)));
      }
    const std::int64_t os = job.out.strides[3], row_stride = job.out.strides[1];
    float* out = job.out.at(b, q0, h);
    const int rows4 = os == 1 ? rows / 4 * 4 : 0;
    const std::int64_t d4 = d / 4 * 4;
    for (int r = 0; r < rows4; r += 4)
      for (std::int64_t c = 0; c < d4; c += 4)
        V::transpose_4x4(o + c * MR + r, MR, out + r * row_stride + c, row_stride);
    for (int r = 0; r < rows; ++r)
      for (std::int64_t c = r < rows4 ? d4 : 0; c < d; ++c)
        out[r * row_stride + c * os] = o[c * MR + r];
    return rescales;
  }
};

// The tile kernel of one ISA (its GEMM micro-tile, kernels/tile_shapes.hpp) for `variant`; Pairs
// as FlashTile's.
template <class V, kernels::TileShape Shape, class In, class Pairs = void>
TileKernel<In> tile_kernel(Exp2 variant) {
  constexpr const char* name = [] {
    if constexpr (std::is_void_v<Pairs>) {
      return V::name;
    } else {
      return Pairs::name;
    }
  }();
  const auto make = [&]<Exp2 Variant>() {
    using Tile = FlashTile<V, Shape.mv, Shape.nr, Variant, In, Pairs>;
    using Decode = FlashDecode<V, Variant, In, Pairs>;
    return TileKernel<In>{&Tile::panel_floats, &Tile::tile_floats,   &Tile::pack,
                          &Tile::run,          &Decode::work_floats, &Decode::run,
                          Tile::MR,            Shape.nr,             Tile::kTileKeys,
                          name};
  };
  return variant == Exp2::cubic ? make.template operator()<Exp2::cubic>()
                                : make.template operator()<Exp2::accurate>();
}

}  // namespace ridge::attention_detail

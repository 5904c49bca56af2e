// Exact attention, O = softmax(scale * Q K^T + mask) V, fused and tiled (FlashAttention): the
// score matrix is never materialised.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ridge/bf16.hpp"
#include "ridge/export.hpp"

namespace ridge {

// How the softmax computes its exponentials (src/attention/exp2.hpp): `accurate`, a degree-5
// polynomial, within float rounding; `cubic`, FlashAttention-4's degree-3 polynomial, 7.5e-5
// relative error and fewer instructions.
enum class Exp2 { accurate, cubic };

// A 4-D tensor [batch][seq][heads][head_dim] in memory: element (b, s, h, d) at
// data[b * strides[0] + s * strides[1] + h * strides[2] + d * strides[3]], any strides.
template <class T>
struct Tensor4 {
  T* data = nullptr;
  std::int64_t batch = 0, seq = 0, heads = 0, head_dim = 0;
  std::int64_t strides[4] = {0, 0, 0, 0};

  T* at(std::int64_t b, std::int64_t s, std::int64_t h) const {
    return data + b * strides[0] + s * strides[1] + h * strides[2];
  }
  operator Tensor4<const T>() const requires(!std::is_const_v<T>) {
    return {data, batch, seq, heads, head_dim, {strides[0], strides[1], strides[2], strides[3]}};
  }
};

// A contiguous [batch, seq, heads, head_dim] tensor.
template <class T>
Tensor4<T> bshd(T* data, std::int64_t batch, std::int64_t seq, std::int64_t heads,
                std::int64_t head_dim) {
  return {data,  batch,    seq,
          heads, head_dim, {seq * heads * head_dim, heads * head_dim, head_dim, 1}};
}

struct AttentionOptions {
  float scale = 0;      // <= 0: 1 / sqrt(head_dim)
  bool causal = false;  // query i sees keys j <= i + kv_len - q_len (aligned bottom-right)
  Exp2 exp2 = Exp2::accurate;
};

// What one call did, for the benchmark.
struct AttentionStats {
  // Times a row's running maximum grew by more than 8 (in the exp2 domain, a factor 256) and
  // its sum and output were rescaled; smaller growths keep the stale maximum (FlashAttention-4's
  // lazy rescaling), which is exact because the sum uses the same maximum.
  std::int64_t rescales = 0;
  // The path that ran: the ISA's name ("generic", "avx2", "avx512"), or "avx512_bf16" where
  // bf16 inputs multiply in Q K^T with AVX512_BF16's VDPBF16PS.
  const char* kernel = "";
  // Whether decoding ran (few query rows, long keys: K and V read in place, the keys split across
  // threads).
  bool decoding = false;
};

// out = softmax(scale * q k^T) v per batch and query head, with grouped-query attention: query
// head h reads key/value head h / (q.heads / k.heads). q: [batch, q_len, q_heads, head_dim],
// k and v: [batch, kv_len, kv_heads, head_dim], out like q. A query row that sees no key
// (causal with q_len > kv_len) gets zeros. Throws std::invalid_argument naming the argument for
// mismatched shapes, q_heads not a multiple of kv_heads, head_dim outside [1, 256], or a null
// pointer with a non-empty tensor.
RIDGE_API AttentionStats attention(const Tensor4<const float>& q, const Tensor4<const float>& k,
                                   const Tensor4<const float>& v, const Tensor4<float>& out,
                                   const AttentionOptions& options = {});
// The same with bf16 inputs, computed in float: where the CPU has AVX512_BF16, Q K^T multiplies
// bf16 pairs with VDPBF16PS (exact products summed in float; bf16 subnormals read as zero), else
// each element is widened exactly as it is read; P V always in float.
RIDGE_API AttentionStats attention(const Tensor4<const bf16>& q, const Tensor4<const bf16>& k,
                                   const Tensor4<const bf16>& v, const Tensor4<float>& out,
                                   const AttentionOptions& options = {});

}  // namespace ridge

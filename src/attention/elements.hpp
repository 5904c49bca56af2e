// Reading attention's inputs as float whatever their storage type (float or bf16): one element,
// or a vector of them through the traits; and laying them out for S = Q K^T, as floats or as
// bf16 pairs.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ridge/bf16.hpp"

namespace ridge::attention_detail {

inline float element(const float* p) { return *p; }
inline float element(const bf16* p) { return to_float(*p); }

template <class V>
typename V::reg load_row(const float* p) {
  return V::load(p);
}
template <class V>
typename V::reg load_row(const bf16* p) {
  return V::load_bf16(&p->bits);
}
template <class V>
typename V::reg load_row_partial(const float* p, int n) {
  return V::load_partial(p, n);
}
template <class V>
typename V::reg load_row_partial(const bf16* p, int n) {
  return V::load_bf16_partial(&p->bits, n);
}

// S = Q K^T's inner element p of the row x of Q or K (stride `stride`, d elements; nullptr: a
// row of zeros), written to *dst: with Pairs void, element p widened; with the traits of bf16
// pairs (simd/avx512_bf16.hpp), the pair of elements (2p, 2p + 1) as they are, its 32 bits in
// the float's place. Elements past d are zeros.
template <class Pairs, class In>
void put_s_element(float* dst, const In* x, std::int64_t p, std::int64_t d, std::int64_t stride) {
  if constexpr (std::is_void_v<Pairs>) {
    *dst = x != nullptr ? element(x + p * stride) : 0.0f;
  } else {
    static_assert(std::is_same_v<In, bf16>);
    const auto bits = [&](std::int64_t i) -> std::uint16_t {
      return x != nullptr && i < d ? x[i * stride].bits : 0;
    };
    const std::uint32_t pair = Pairs::pair(bits(2 * p), bits(2 * p + 1));
    std::memcpy(dst, &pair, sizeof(pair));
  }
}

// S's inner dimension for head_dim d, in float-sized elements: d, or its pairs.
template <class Pairs>
constexpr std::int64_t s_depth(std::int64_t d) {
  return std::is_void_v<Pairs> ? d : (d + 1) / 2;
}

}  // namespace ridge::attention_detail

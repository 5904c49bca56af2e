// Reading attention's inputs as float whatever their storage type (float or bf16): one element,
// or a vector of them through the traits.
#pragma once

#include <cstdint>

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

}  // namespace ridge::attention_detail

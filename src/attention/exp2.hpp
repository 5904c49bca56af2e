// 2^x in software, vectorised over the traits (src/simd), as FlashAttention-4 computes the
// softmax's exponentials (Shah et al., 2025): 2^x = 2^floor(x) * 2^f with f = x - floor(x) in
// [0, 1), the first factor written into the exponent bits, the second a polynomial. Two
// polynomials, minimax in relative error on [0, 1) (Remez exchange, tools/fit_exp2_polynomial.py;
// coefficients rounded to float, lowest power first):
//   cubic:   7.5e-5 relative error, where bf16's rounding (3.9e-3) or a softmax weight's own
//            rounding downstream hides it; four FMAs.
//   quintic: 9.0e-8 relative error, below half an ulp of float (6e-8) plus float rounding of
//            the evaluation; six FMAs.
// Arguments below -126 give 2^-126 (1.2e-38), never zero or a subnormal: callers that need an
// exact zero (masked scores) skip the element instead. Arguments above 127 give 2^127.
#pragma once

#include <algorithm>
#include <cstdint>

#include "attention/job.hpp"
#include "ridge/attention.hpp"

namespace ridge::attention_detail {

inline constexpr float kExp2Cubic[] = {0.9999252f, 0.69583356f, 0.22606716f, 0.07802452f};
inline constexpr float kExp2Quintic[] = {0.99999994f,  0.6931531f,  0.24015361f,
                                         0.055826318f, 0.00898934f, 0.0018775767f};

// 2^x in every lane, with the polynomial of Variant.
template <class V, Exp2 Variant>
typename V::reg exp2(typename V::reg x) {
  using reg = typename V::reg;
  constexpr const float* c = Variant == Exp2::cubic ? kExp2Cubic : kExp2Quintic;
  constexpr int degree = Variant == Exp2::cubic ? 3 : 5;
  x = V::min(V::max(x, V::set1(-126.0f)), V::set1(127.0f));
  const reg n = V::floor(x);
  const reg f = V::sub(x, n);  // exact: x and floor(x) share their leading bits
  reg p = V::set1(c[degree]);
  for (int i = degree - 1; i >= 0; --i) p = V::fma(p, f, V::set1(c[i]));
  return V::scale_by_pow2(p, n);
}

// y[i] = 2^x[i], i < n: an Exp2Kernel (attention/job.hpp), the exp2 as each ISA computes it.
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

// Traits over U registers of V at once, each operation applied to every register in turn: the
// arithmetic of U independent vectors then stands side by side in program order. An activation
// (kernels/activation_math.hpp) is a long chain of dependent instructions per vector, and the
// core's schedulers hold too few of them to overlap one vector's chain with the next vector's
// on their own (kernels/epilogue_kernel_set.hpp has the figures: GELU's erf form 40% less time
// eight vectors at once on AVX-512).
#pragma once

#include "simd/unroll.hpp"

namespace ridge::simd {

template <class V, int U>
struct Interleaved {
  using scalar = typename V::scalar;
  struct reg {
    typename V::reg r[U];
  };
  static constexpr int width = U * V::width;
  static constexpr bool fused_fma = V::fused_fma;

  static reg set1(scalar x) {
    return each([&](int) { return V::set1(x); });
  }
  static reg zero() { return set1(scalar(0)); }
  static reg add(reg a, reg b) { return apply<&V::add>(a, b); }
  static reg sub(reg a, reg b) { return apply<&V::sub>(a, b); }
  static reg mul(reg a, reg b) { return apply<&V::mul>(a, b); }
  static reg div(reg a, reg b) { return apply<&V::div>(a, b); }
  static reg max(reg a, reg b) { return apply<&V::max>(a, b); }
  static reg min(reg a, reg b) { return apply<&V::min>(a, b); }
  static reg minus_magnitude(reg a) { return apply<&V::minus_magnitude>(a); }
  static reg fma(reg a, reg b, reg c) { return apply<&V::fma>(a, b, c); }
  // fms, scale_by_pow2_exact and from_subnormal_units where V has them (ActivationMath asks).
  static reg fms(reg a, reg b, reg c) requires requires { &V::fms; }
  { return apply<&V::fms>(a, b, c); }
  static reg blend_by_sign(reg sign, reg a, reg b) { return apply<&V::blend_by_sign>(sign, a, b); }
  static reg floor(reg a) { return apply<&V::floor>(a); }
  static reg scale_by_pow2(reg a, reg n) { return apply<&V::scale_by_pow2>(a, n); }
  static reg scale_by_pow2_exact(reg a, reg n) requires requires { &V::scale_by_pow2_exact; }
  { return apply<&V::scale_by_pow2_exact>(a, n); }
  static reg from_subnormal_units(reg units, reg sign) requires requires {
    &V::from_subnormal_units;
  }
  { return apply<&V::from_subnormal_units>(units, sign); }
  static bool any_less(reg a, reg b) {
    bool any = false;
    RIDGE_UNROLL for (int u = 0; u < U; ++u) any |= V::any_less(a.r[u], b.r[u]);
    return any;
  }

 private:
  template <class F>
  [[gnu::always_inline]] static reg each(F f) {
    reg out;
    RIDGE_UNROLL for (int u = 0; u < U; ++u) out.r[u] = f(u);
    return out;
  }
  template <auto Op, class... Regs>
  [[gnu::always_inline]] static reg apply(Regs... operands) {
    return each([&](int u) { return Op(operands.r[u]...); });
  }
};

}  // namespace ridge::simd

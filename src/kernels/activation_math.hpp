// The activations of the GEMM epilogues in float, vectorised over the traits (src/simd) and
// accurate to a few ulp of the exact function of the float argument (bounds measured and tested
// in tests/kernels/activations_test.cpp). Each is a formula without cancellation:
//   SiLU(x)      = x sigmoid(x)
//   GELU, tanh   = x (1 + tanh(u)) / 2 = x sigmoid(2 u), u = sqrt(2 / pi) (x + 0.044715 x^3)
//   GELU, erf    = x Phi(x), Phi(x) = erfc(-x / sqrt(2)) / 2, with erfc(t) for t >= 0 only
//                  (Phi(x) = 1 - erfc(x / sqrt(2)) / 2 for x > 0, which is >= 1/2)
//   x sigmoid(z) = x / (1 + e^-z) for z >= 0, x e^z / (1 + e^z) below: e^-|z| never overflows.
// Where a result is tiny its exponential is carried as p 2^n, p near 1, and scaled once at the
// end: a subnormal e^z times x would keep the subnormal's rounding (up to 2^-149 / e^z relative).
// They follow their formula's IEEE arithmetic at the ends: a NaN gives a NaN, SiLU(-inf) and
// GELU(-inf) are -inf x 0 = NaN, and +inf gives +inf.
//
// The traits' min and max return their second operand where the two are unordered, so the
// clamps, min(hi, max(lo, x)), let a NaN through.
#pragma once

namespace ridge::kernels {

// The helpers are inlined by force: on the generic traits, whose operations are loops over an
// array, GCC kept them out of line and passed every vector through memory (GELU's tanh form
// 50 ns an element there, 15 inlined; the x86 traits inline them either way).
// kSubnormalsAtFullSpeed: whether the CPU makes subnormal results without a microcode assist
// (runtime/subnormal_speed.hpp); the results are the same bits either way.
template <class V, bool kSubnormalsAtFullSpeed = false>
struct ActivationMath {
  using reg = typename V::reg;
  // Whether V scales by any power of two in one instruction rounded once (AVX-512's VSCALEFPS),
  // with an exact form that makes no subnormal result (scale_by_pow2_exact).
  static constexpr bool kScalesAnyPower = requires(reg a) { V::scale_by_pow2_exact(a, a); };

  // e^(a + b) = p 2^n, p in [0.7, 1.42] (while a is finite), for a <= 0 (every caller's: the
  // exponentials are of minus a magnitude) and |b| < 2 a correction that a + b in float would
  // round away: n = round((a + b) / ln2), or where kTinyB (|b| below 2^-12) round(a / ln2), which
  // does not wait for b (an activation is a chain of dependent instructions, bound by their
  // latency more than by their count), by adding and taking away 1.5 x 2^23 (the float whose
  // ulp is 1; one instruction less than a rounding to an integer); e^r for
  // r = a - n ln2 + b (|r| <= ln2 / 2 + 2^-12) by a degree-6 polynomial 1 + r + r^2 P(r), P
  // minimax (tools/fit_exp_polynomial.py 6: 3.6e-9 relative, a sixteenth of an ulp; the Taylor
  // series needs the 7th power for as little; Estrin's form, three FMAs deep where Horner's rule
  // is six, ran GELU's tanh form 4% faster but raised its largest error from 2.74 to 2.95 ulp);
  // ln2 in two parts (Cody and Waite) so that n ln2_hi, and a less it, are exact for
  // |n| <= 256. Below a = -150, p = 0 (the callers multiply p 2^n by at most 2^128 before it is
  // scaled: the product would still underflow).
  struct Scaled {
    reg p, n;
  };
  template <bool kTinyB>
  [[gnu::always_inline]] static Scaled exp_scaled(reg a, reg b) {
    constexpr float kLog2e = 1.44269504088896341f;
    constexpr float kLn2High = 0.693145751953125f;  // 15 significant bits
    constexpr float kLn2Low = 1.42860682030941723212e-6f;
    constexpr float kPolynomial[] = {1.0f,          1.0f,          0.49999994f,  0.16666521f,
                                     0.041668389f,  0.0083687454f, 0.0013814541f};
    const reg below = V::add(a, V::set1(150.0f));  // negative where p = 0
    a = V::max(V::set1(-150.0f), a);
    constexpr float kRound = 0x1.8p23f;
    const reg near = kTinyB ? a : V::add(a, b);
    const reg n = V::sub(V::fma(near, V::set1(kLog2e), V::set1(kRound)), V::set1(kRound));
    reg r = V::fma(n, V::set1(-kLn2High), a);
    r = V::add(V::fma(n, V::set1(-kLn2Low), r), b);
    reg p = V::set1(kPolynomial[6]);
    for (int i = 5; i >= 0; --i) p = V::fma(p, r, V::set1(kPolynomial[i]));
    return {V::blend_by_sign(below, V::zero(), p), n};
  }
  // x p 2^n: x times an exponential carried as p 2^n, rounded once. Where that is subnormal or
  // zero it is built from its bits (from_subnormal_units) rather than by a multiplication that
  // underflows: x86 takes a microcode assist for each instruction whose result does (with FTZ
  // off, as a library must leave it). Measured, 1024^3 sgemm with a GELU epilogue, 1 thread,
  // AVX-512, every element of C at -10.5 / -11.5 (subnormal / zero results): 83 / 83 GFLOP/s
  // scaling every lane, 131 / 136 so; 137 at C = 0.2 (141 scaling every lane).
  [[gnu::always_inline]] static reg times_exp(reg x, reg p, reg n) {
    const reg v = V::mul(x, p);
    // Where subnormal results take no assist, one scaling for every lane, where it is one
    // instruction for any n rounded once (AVX-512's VSCALEFPS). Measured on Zen 5, GELU's tanh
    // form over 4096 floats in L1, ns an element: 0.478 -> 0.364 on U(-30, 30), whose vectors
    // nearly all have a lane below -10 (C from a product of a few thousand depths is so spread),
    // 0.386 -> 0.362 on U(-3, 3). The AVX2 traits build 2^n within the exponent range, so a
    // subnormal result takes two multiplications there, and those ran slower than the general
    // path below on Zen 5 (1.64 against 1.20 ns on U(-30, 30)).
    if constexpr (kSubnormalsAtFullSpeed && kScalesAnyPower) return V::scale_by_pow2(v, n);
    // Where every lane has n >= -100, each v 2^n is normal (or v itself subnormal, n = 0): one
    // exact scaling gives what the general form below would, at a fraction of its instructions
    // (the usual case: an activation of an argument within about 69 of 0). For that the callers'
    // |v| is at least 2^-26 wherever n < 0: their exponent is then below -ln2 / 2, so |x| > 0.2,
    // and the factors beside x (p, and the sigmoid's 1 / (1 + e^z) or erfc's s / 2) exceed 1/20.
    // Measured on the Zen 3 host (AVX2), 4096 floats in L1, the best of two runs, ns an element
    // without and with it and tiny_exp's single scaling: GELU's tanh form 2.65 / 1.88, its erf
    // form 3.58 / 2.35, SiLU 1.95 / 1.14.
    if (!V::any_less(n, V::set1(-100.0f))) return V::scale_by_pow2(v, n);
    if constexpr (kScalesAnyPower) {
      return V::scale_by_pow2_exact(v, n);
    } else {
      // |v| 2^n in units of 2^-149: below 2^23 the result is subnormal or zero (a large |v|
      // overflows to +inf, which is not below). Every caller's n is in [-217, 0], and its |v|
      // below 2^8 wherever p is not 0 (|x| <= 150, p <= 1.42), so two exact steps within the
      // exponent range do: the units from n held to -175 (below it they round to 0 all the
      // same) as |v| 2^(n + 100) 2^49, the result from n (-100 where it is subnormal) as
      // v 2^(n + 64) 2^-64.
      const reg magnitude = V::max(v, V::sub(V::zero(), v));
      const reg units =
          V::mul(V::scale_by_pow2(magnitude, V::add(V::max(V::set1(-175.0f), n), V::set1(100.0f))),
                 V::set1(0x1p49f));
      // Negative where subnormal; a NaN (min's second operand when unordered) is not.
      const reg subnormal = V::sub(V::min(units, V::set1(0x1p24f)), V::set1(0x1p23f));
      const reg normal_n = V::add(V::blend_by_sign(subnormal, V::set1(-100.0f), n), V::set1(64.0f));
      return V::blend_by_sign(subnormal, V::from_subnormal_units(units, v),
                              V::mul(V::scale_by_pow2(v, normal_n), V::set1(0x1p-64f)));
    }
  }
  // p 2^n where only 1 +- it is wanted: below 2^-100 it leaves 1 as it is, so n is held there
  // (an exact result without a subnormal, see times_exp; every caller's n is at most 0, so one
  // scaling does).
  [[gnu::always_inline]] static reg tiny_exp(reg p, reg n) {
    return V::scale_by_pow2(p, V::max(V::set1(-100.0f), n));
  }

  // x sigmoid(z) for a z of x's sign, given as -|z| = a + b, b a correction to a below 2^-12.
  [[gnu::always_inline]] static reg times_sigmoid(reg x, reg a, reg b) {
    const Scaled e = exp_scaled<true>(a, b);  // e^-|z|
    const reg quotient = V::div(x, V::add(V::set1(1.0f), tiny_exp(e.p, e.n)));
    return V::blend_by_sign(x, times_exp(quotient, e.p, e.n), quotient);
  }

  [[gnu::always_inline]] static reg relu(reg x) { return V::max(V::zero(), x); }

  [[gnu::always_inline]] static reg silu(reg x) {
    return times_sigmoid(x, V::minus_magnitude(x), V::zero());
  }

  // -|2 u| = w (c1 + c3 w^2), w = -|x|, c1 = 2 sqrt(2 / pi), c3 = 0.044715 c1, evaluated in pairs
  // of floats (about 44 bits): e^-|2u| would turn float's rounding of 2u into |2u| times as much
  // relative error (c1 alone, rounded to float, costs 2.8e-8 |2u|: 40 ulp where 2u = -87). w is
  // held to -16, beyond which sigmoid(2u) is 0 or 1 in float. q = c1 + c3 w^2 is then below 32,
  // and c1's high part a multiple of 2^-19 (20 bits), so both are multiples of q's ulp
  // (sum_of_product). The exponential's n is chosen from the pair's high part alone. The chain
  // so shortened (n from the high part, the pair of q by FMAs, -|x| by one OR where a subtraction
  // and a minimum were), measured on the 2-vCPU Xeon guest, 4096 floats in L1, ns an element:
  // AVX-512 N(0, 1) 0.63-0.64 -> 0.49-0.52, N(0, 10.7) 0.76-0.79 -> 0.63-0.65; AVX2 0.96-1.01 ->
  // 0.78-0.82, 1.75-1.78 -> 1.44-1.53 (SiLU, with n from a and the OR, AVX-512 0.38-0.40 ->
  // 0.33-0.35); the errors as before.
  [[gnu::always_inline]] static reg gelu_tanh(reg x) {
    constexpr float kC1High = 1.5957698822021484f, kC1Low = -7.605964356116601e-07f;
    constexpr float kC3High = 0.07135481387376785f, kC3Low = 2.3988324659995897e-09f;
    const reg w = V::max(V::set1(-16.0f), V::minus_magnitude(x));
    const Pair square = two_product(w, w);
    Pair q = sum_of_product(V::set1(kC3High), square.high, V::set1(kC1High));
    q.low = V::add(q.low, V::fma(V::set1(kC3High), square.low,
                                 V::fma(V::set1(kC3Low), square.high, V::set1(kC1Low))));
    Pair z = two_product(w, q.high);
    z.low = V::fma(w, q.low, z.low);
    return times_sigmoid(x, z.high, z.low);
  }

  // erfc(t) for t = |x| / sqrt(2) = s e^(-t^2) e^(g(s)), s = 1 / (1 + t / 2), g a degree-10
  // polynomial in u = s mapped onto [-1, 1] (tools/fit_erfcx_polynomial.py 10: 2.6e-8 from
  // ln(erfc(t) e^(t^2) / s) for t in [0, 11.5]). e^(-t^2) must not take the rounding of t^2,
  // which near t = 9 would cost 2 t^2 ulp: with |x| = h + l, h a multiple of 1/256 (so h^2, of at
  // most 24 bits, is exact for |x| <= 16), t^2 = h^2 / 2 + l (|x| + h) / 2, the large part exact
  // and the small one the correction. |x| is held to 16 here, beyond which Phi is 0 or 1 in float.
  [[gnu::always_inline]] static reg gelu_erf(reg x) {
    constexpr float kG[] = {-0.57126075f,    0.5822207f,    0.018502066f,  -0.031359714f,
                            -0.0015946137f,  0.0041711503f, -0.00021410194f, -0.000646106f,
                            0.00013585019f,  7.156935e-05f, -2.6009155e-05f};
    constexpr float kUScale = 2 / 0.8518518518518519f;  // u = s kUScale + kUOffset
    constexpr float kUOffset = -1.1481481481481481f / 0.8518518518518519f;
    constexpr float kRsqrt2 = 0.707106781186547524f;
    const reg one = V::set1(1.0f), half = V::set1(0.5f);
    const reg magnitude = V::max(x, V::sub(V::zero(), x));
    const reg a = V::min(V::set1(16.0f), magnitude);
    const reg t = V::mul(a, V::set1(kRsqrt2));
    const reg s = V::div(one, V::fma(t, half, one));
    const reg u = V::fma(s, V::set1(kUScale), V::set1(kUOffset));
    reg g = V::set1(kG[10]);
    for (int i = 9; i >= 0; --i) g = V::fma(g, u, V::set1(kG[i]));
    const reg h = V::mul(V::floor(V::mul(a, V::set1(256.0f))), V::set1(1.0f / 256));
    const reg l = V::sub(a, h);                              // exact
    // Exact; and far below -150 (Phi(-|x|) = 0) where |x| > 16.
    const reg large = V::fma(V::sub(magnitude, a), V::set1(-1e30f),
                             V::mul(V::mul(h, h), V::set1(-0.5f)));
    const reg small = V::fma(V::mul(l, V::add(a, h)), V::set1(-0.5f), g);
    const Scaled e = exp_scaled<false>(large, small);
    const reg half_erfc_p = V::mul(V::mul(e.p, s), half);  // Phi(-|x|) = half_erfc_p 2^n
    return V::blend_by_sign(x, times_exp(x, half_erfc_p, e.n),
                            V::mul(x, V::sub(one, tiny_exp(half_erfc_p, e.n))));
  }

 private:
  // The error-free product (Dekker): high + low is exactly a b. Its error is a b - high by one
  // FMA where the FMA rounds once; on the generic path, which has none, each factor splits into
  // halves of 12 bits whose products are exact (|a|, |b| below 2^100, so that the splitting's
  // 4097 a does not overflow). Measured, GELU's tanh form on AVX-512, 4096 floats in L1: 1.32 ns
  // an element with the split, 0.93 with the FMA (AVX2: 1.71, 1.46).
  struct Pair {
    reg high, low;
  };
  [[gnu::always_inline]] static Pair split(reg a) {
    const reg t = V::mul(V::set1(4097.0f), a);
    const reg high = V::sub(t, V::sub(t, a));
    return {high, V::sub(a, high)};
  }
  [[gnu::always_inline]] static Pair two_product(reg a, reg b) {
    const reg product = V::mul(a, b);
    if constexpr (V::fused_fma) return {product, V::fms(a, b, product)};
    const Pair x = split(a), y = split(b);
    const reg error = V::add(
        V::add(V::add(V::sub(V::mul(x.high, y.high), product), V::mul(x.high, y.low)),
               V::mul(x.low, y.high)),
        V::mul(x.low, y.low));
    return {product, error};
  }
  // a b + c as high + low (low within 2^-24 of the exact remainder), where c and the rounded sum
  // are multiples of the sum's ulp: c - high is then exact. With a fused multiply-add, high is
  // one and low another (the sum rounded once, its error rounded once); without, the product's
  // pair and the sum's error, three operations where a general two-sum takes six.
  [[gnu::always_inline]] static Pair sum_of_product(reg a, reg b, reg c) {
    if constexpr (V::fused_fma) {
      const reg high = V::fma(a, b, c);
      return {high, V::fma(a, b, V::sub(c, high))};
    }
    const Pair product = two_product(a, b);
    const reg high = V::add(product.high, c);
    return {high, V::add(V::sub(product.high, V::sub(high, c)), product.low)};
  }
};

}  // namespace ridge::kernels

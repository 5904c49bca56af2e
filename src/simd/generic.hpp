// Vector traits in portable C++: a small fixed-size array the compiler maps to whatever SIMD the
// baseline target has (SSE2 on x86-64, ASIMD on aarch64). The reference path for every kernel.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace ridge::simd {

template <class T>
struct Generic {
  using scalar = T;
  static constexpr int width = 16 / sizeof(T);  // one 128-bit register of the baseline ISA
  struct reg {
    T v[width];
  };
  static constexpr const char* name = "generic";

  static reg zero() { return reg{}; }
  static reg set1(T x) {
    reg r;
    for (int i = 0; i < width; ++i) r.v[i] = x;
    return r;
  }
  static reg broadcast(const T* p) { return set1(*p); }
  static reg load(const T* p) {
    reg r;
    for (int i = 0; i < width; ++i) r.v[i] = p[i];
    return r;
  }
  static void store(T* p, reg a) {
    for (int i = 0; i < width; ++i) p[i] = a.v[i];
  }
  // Lanes [0, n) only; nothing is read or written past p[n - 1].
  static reg load_partial(const T* p, int n) {
    reg r{};
    for (int i = 0; i < n; ++i) r.v[i] = p[i];
    return r;
  }
  static void store_partial(T* p, reg a, int n) {
    for (int i = 0; i < n; ++i) p[i] = a.v[i];
  }
  // a * b + c (rounded twice: the baseline has no fused multiply-add).
  static constexpr bool fused_fma = false;
  static reg fma(reg a, reg b, reg c) {
    for (int i = 0; i < width; ++i) c.v[i] = a.v[i] * b.v[i] + c.v[i];
    return c;
  }
  static reg mul(reg a, reg b) {
    for (int i = 0; i < width; ++i) a.v[i] *= b.v[i];
    return a;
  }
  static reg add(reg a, reg b) {
    for (int i = 0; i < width; ++i) a.v[i] += b.v[i];
    return a;
  }
  static reg sub(reg a, reg b) {
    for (int i = 0; i < width; ++i) a.v[i] -= b.v[i];
    return a;
  }
  // As x86's MAXPS and MINPS: b where the two are unordered (a NaN) or equal, so a NaN in b
  // comes through and one in a does not, on every path.
  static reg max(reg a, reg b) {
    for (int i = 0; i < width; ++i) a.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i];
    return a;
  }
  static reg min(reg a, reg b) {
    for (int i = 0; i < width; ++i) a.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i];
    return a;
  }
  static reg div(reg a, reg b) {
    for (int i = 0; i < width; ++i) a.v[i] /= b.v[i];
    return a;
  }
  // -|a|: the sign bit set (a NaN stays one).
  static reg minus_magnitude(reg a) {
    for (int i = 0; i < width; ++i) a.v[i] = std::copysign(a.v[i], T(-1));
    return a;
  }
  // a in the lanes whose `sign` has its sign bit set, b in the others. (By copysign: GCC 12's
  // vectoriser stops with an internal compiler error on std::signbit here.)
  static reg blend_by_sign(reg sign, reg a, reg b) {
    for (int i = 0; i < width; ++i) a.v[i] = std::copysign(T(1), sign.v[i]) < 0 ? a.v[i] : b.v[i];
    return a;
  }
  // Whether a < b in any lane (false where either is a NaN).
  static bool any_less(reg a, reg b) {
    bool any = false;
    for (int i = 0; i < width; ++i) any = any || a.v[i] < b.v[i];
    return any;
  }
  // The float of `units` x 2^-149 (units in [0, 2^23], rounded to an integer as arithmetic
  // rounds), with sign's sign, built from its bits: a subnormal (or zero, or 2^-126) that no
  // arithmetic instruction has to produce (x86 takes a microcode assist for each that does).
  // (Rounded by adding 2^23 and taking it away, floats from 2^23 up being whole numbers: a
  // library's nearbyint would be a call per lane.)
  static reg from_subnormal_units(reg units, reg sign) {
    static_assert(sizeof(T) == 4, "float only");
    for (int i = 0; i < width; ++i) {
      std::uint32_t bits = static_cast<std::uint32_t>((units.v[i] + 0x1p23f) - 0x1p23f);
      if (std::copysign(T(1), sign.v[i]) < 0) bits |= 0x80000000u;
      std::memcpy(&units.v[i], &bits, sizeof(bits));
    }
    return units;
  }
  static reg floor(reg a) {
    for (int i = 0; i < width; ++i) a.v[i] = std::floor(a.v[i]);
    return a;
  }
  // bf16 (a float's upper half) widened exactly.
  static reg load_bf16(const std::uint16_t* p) { return load_bf16_partial(p, width); }
  static reg load_bf16_partial(const std::uint16_t* p, int n) {
    reg r{};
    for (int i = 0; i < n; ++i) {
      const std::uint32_t bits = static_cast<std::uint32_t>(p[i]) << 16;
      std::memcpy(&r.v[i], &bits, sizeof(float));
    }
    return r;
  }
  // 2 x width bf16 from p as they lie, a pair to a lane (the first element in the lower half);
  // the first n only (n < 2 x width), the rest zero.
  static reg load_pairs(const std::uint16_t* p) { return load_pairs_partial(p, 2 * width); }
  static reg load_pairs_partial(const std::uint16_t* p, int n) {
    static_assert(sizeof(T) == 4, "float only");
    std::uint16_t elements[2 * width] = {};
    std::memcpy(elements, p, n * sizeof(std::uint16_t));
    reg r;
    std::memcpy(r.v, elements, sizeof(elements));
    return r;
  }
  // A register of pairs as the floats of its even (lower) and odd (upper) halves, widened
  // exactly.
  static void widen_pairs(reg pairs, reg& even, reg& odd) {
    for (int i = 0; i < width; ++i) {
      const std::uint32_t bits = std::bit_cast<std::uint32_t>(pairs.v[i]);
      even.v[i] = std::bit_cast<float>(bits << 16);
      odd.v[i] = std::bit_cast<float>(bits & 0xFFFF0000u);
    }
  }
  // The lanes of even and odd interleaved: rows[0] = even[0], odd[0], even[1], odd[1], ...,
  // rows[1] the same from lane width / 2 on (the inverse of widen_pairs' split).
  static void interleave(reg even, reg odd, reg (&rows)[2]) {
    for (int i = 0; i < width; ++i) {
      rows[i / (width / 2)].v[2 * i % width] = even.v[i];
      rows[i / (width / 2)].v[2 * i % width + 1] = odd.v[i];
    }
  }
  // Each lane rounded to bf16 (nearest, ties to even; a NaN stays a NaN, made quiet), the first
  // n stored.
  static void store_bf16_partial(std::uint16_t* p, reg a, int n) {
    static_assert(sizeof(T) == 4, "float only");
    for (int i = 0; i < n; ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, &a.v[i], sizeof bits);
      p[i] = (bits & 0x7fffffffu) > 0x7f800000u
                 ? static_cast<std::uint16_t>((bits >> 16) | 0x40)
                 : static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
    }
  }
  // The floats of p's first n int32 (rounded to nearest), 0 in the other lanes.
  static reg convert_int32_partial(const std::int32_t* p, int n) {
    reg r{};
    for (int i = 0; i < n; ++i) r.v[i] = static_cast<T>(p[i]);
    return r;
  }
  // a * 2^n for integral n in [-126, 127] (for double, [-1022, 1023]): 2^n written into a
  // float's exponent field, as the x86 traits do, rather than a library's ldexp per lane.
  static reg scale_by_pow2(reg a, reg n) {
    using Bits = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    constexpr int kFractionBits = std::numeric_limits<T>::digits - 1;
    constexpr Bits kBias = std::numeric_limits<T>::max_exponent - 1;
    for (int i = 0; i < width; ++i)
      a.v[i] *= std::bit_cast<T>((static_cast<Bits>(n.v[i]) + kBias) << kFractionBits);
    return a;
  }
  // dst[r * dst_stride + c] = src[c * src_stride + r] for r, c < 4: the packing of a
  // row-contiguous operand into column order, four rows and four columns at a time.
  static void transpose_4x4(const T* src, std::int64_t src_stride, T* dst, std::int64_t dst_stride) {
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) dst[r * dst_stride + c] = src[c * src_stride + r];
  }
  static T reduce_add(reg a) {
    T sum = 0;
    for (int i = 0; i < width; ++i) sum += a.v[i];
    return sum;
  }
  // Lane i = the sum of acc[i]'s lanes.
  static reg transpose_add(const reg (&acc)[width]) {
    reg sums;
    for (int i = 0; i < width; ++i) sums.v[i] = reduce_add(acc[i]);
    return sums;
  }
};

}  // namespace ridge::simd

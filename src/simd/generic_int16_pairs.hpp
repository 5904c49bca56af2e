// Portable traits for int16 pairs (simd/avx2_int16_pairs.hpp has the layout): 32-bit lanes that
// hold two int16 numbers in the micro-kernel's operands and one int32 in its accumulators and
// C, four to a 128-bit vector. Arithmetic is on uint32, so that it wraps modulo 2^32 as the
// vector instructions do instead of overflowing a signed int.
#pragma once

#include <cstdint>

#include "simd/generic.hpp"

namespace ridge::simd {

struct GenericInt32 {
  using scalar = std::int32_t;
  static constexpr int width = 4;
  struct reg {
    std::int32_t v[width];
  };
  static constexpr const char* name = "generic";

  static reg zero() { return reg{}; }
  static reg set1(std::int32_t x) {
    reg r;
    for (int i = 0; i < width; ++i) r.v[i] = x;
    return r;
  }
  static reg broadcast(const std::int32_t* p) { return set1(*p); }
  static reg load(const std::int32_t* p) { return load_partial(p, width); }
  static void store(std::int32_t* p, reg a) { store_partial(p, a, width); }
  // Lanes [0, n) only; nothing is read or written past p[n - 1].
  static reg load_partial(const std::int32_t* p, int n) {
    reg r{};
    for (int i = 0; i < n; ++i) r.v[i] = p[i];
    return r;
  }
  static void store_partial(std::int32_t* p, reg a, int n) {
    for (int i = 0; i < n; ++i) p[i] = a.v[i];
  }
  static reg add(reg a, reg b) {
    for (int i = 0; i < width; ++i) a.v[i] = wrap(unsigned_of(a.v[i]) + unsigned_of(b.v[i]));
    return a;
  }
  static reg mul(reg a, reg b) {
    for (int i = 0; i < width; ++i) a.v[i] = wrap(unsigned_of(a.v[i]) * unsigned_of(b.v[i]));
    return a;
  }
  static reg fma(reg a, reg b, reg c) { return add(mul(a, b), c); }
  // The sums of the lanes of four registers, modulo 2^32.
  static void sum_lanes(const reg (&v)[4], std::uint32_t (&sums)[4]) {
    for (int r = 0; r < 4; ++r) {
      sums[r] = 0;
      for (int i = 0; i < width; ++i) sums[r] += unsigned_of(v[r].v[i]);
    }
  }

 protected:
  static std::uint32_t unsigned_of(std::int32_t x) { return static_cast<std::uint32_t>(x); }
  static std::int32_t wrap(std::uint32_t x) { return static_cast<std::int32_t>(x); }
};

struct GenericInt16Pairs : GenericInt32 {
  using Out = GenericInt32;
  // The float traits of the same ISA: the dequantising epilogue's (kernels::Epilogue::scale).
  using Float = Generic<float>;
  static constexpr int depth_group = 2;
  static reg fma(reg a, reg b, reg c) {
    for (int i = 0; i < width; ++i) {
      const std::int32_t pairs = low(a.v[i]) * low(b.v[i]) + high(a.v[i]) * high(b.v[i]);
      c.v[i] = wrap(unsigned_of(c.v[i]) + unsigned_of(pairs));
    }
    return c;
  }

  // As Avx2Int16Pairs::pair_rows: 2 x width rows of two depth steps, as pairs less the zero
  // point.
  template <class S>
  static void pair_rows(const S* even, const S* odd, std::int32_t zero, reg (&rows)[2]) {
    for (int i = 0; i < 2 * width; ++i)
      rows[i / width].v[i % width] = pair(even[i] - zero, odd[i] - zero);
  }
  // 2 x width int8 from p in order, less zero, as pairs: two depth steps a lane of a contiguous
  // row.
  static reg row_pairs(const std::int8_t* p, std::int32_t zero) {
    reg r;
    for (int i = 0; i < width; ++i) r.v[i] = pair(p[2 * i] - zero, p[2 * i + 1] - zero);
    return r;
  }

 private:
  // The lane of two int16, first in the lower half (low and high read them back).
  static std::int32_t pair(std::int32_t first, std::int32_t second) {
    return wrap(static_cast<std::uint16_t>(first) |
                static_cast<std::uint32_t>(static_cast<std::uint16_t>(second)) << 16);
  }
  static std::int32_t low(std::int32_t lane) { return static_cast<std::int16_t>(lane & 0xffff); }
  static std::int32_t high(std::int32_t lane) {
    return static_cast<std::int16_t>(unsigned_of(lane) >> 16);
  }
};

}  // namespace ridge::simd

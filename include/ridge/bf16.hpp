// bfloat16: a float's upper 16 bits (sign, the full 8-bit exponent, 7 fraction bits), the
// storage type of AI weights and activations; ridge computes on it in float.
#pragma once

#include <cstdint>
#include <cstring>

namespace ridge {

struct bf16 {
  std::uint16_t bits = 0;
};

// Exact: every bf16 is a float.
inline float to_float(bf16 x) {
  const std::uint32_t bits = static_cast<std::uint32_t>(x.bits) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Rounded to nearest, ties to even; NaN stays NaN (quiet), infinities stay infinite.
inline bf16 to_bf16(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return {static_cast<std::uint16_t>((bits >> 16) | 0x40)};
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return {static_cast<std::uint16_t>(bits >> 16)};
}

}  // namespace ridge

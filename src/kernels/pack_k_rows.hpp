// Packing of B for the AMX tile (kernels/amx_tile.hpp), whose first operand holds 16 columns of
// B as rows of 64 bytes of consecutive depths (32 bf16 or 64 int8): a strip of kAmxColumns
// columns over a depth of k is [ceil(k / depths)][kAmxColumns][depths], zero past the depth and
// past the strip's n columns (so that the tile's products there are zero, whatever A holds).
// int8 is stored as unsigned bytes, as for the vector kernels (kernels/pack_quads.hpp: int8
// plus 128), with each column's sum of them added to column_sums where asked.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/amx_tile.hpp"

namespace ridge::kernels {

// B's columns [0, n) (n <= kAmxColumns) over depths [0, k), element (p, j) at b[p * rs + j * cs],
// into `steps` tile steps (steps >= ceil(k / depths)) at dst. S: bf16 bit patterns
// (std::uint16_t) or 8-bit integers.
template <class S>
void pack_k_rows(std::int64_t k, int n, const S* b, std::int64_t rs, std::int64_t cs,
                 std::int64_t steps, std::uint8_t* dst, std::int32_t* column_sums = nullptr) {
  constexpr int kDepths = kAmxRowBytes / sizeof(S);
  constexpr bool kInt8 = sizeof(S) == 1;
  const std::uint8_t flip = std::is_signed_v<S> ? 0x80 : 0;
  if (rs != 1) {
    // A row of B (a depth) at a time, along the columns, over a zeroed strip.
    std::memset(dst, 0, static_cast<std::size_t>(steps) * kAmxStepB);
    for (int j = 0; j < n; ++j) {
      std::uint32_t sum = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        S* row = reinterpret_cast<S*>(dst + (p / kDepths) * kAmxStepB + j * kAmxRowBytes);
        if constexpr (kInt8) {
          const std::uint8_t byte = static_cast<std::uint8_t>(b[p * rs + j * cs]) ^ flip;
          row[p % kDepths] = static_cast<S>(byte);
          sum += byte;
        } else {
          row[p % kDepths] = b[p * rs + j * cs];
        }
      }
      if (kInt8 && column_sums != nullptr)
        column_sums[j] =
            static_cast<std::int32_t>(static_cast<std::uint32_t>(column_sums[j]) + sum);
    }
    return;
  }
  // Each column contiguous along the depth (op(A) row-major as stored, the usual case): a column
  // at a time, one stream, 64 bytes a step through a mask (the last step's past the depth zero),
  // int8 flipped and summed (VPSADBW) as it passes; then zeros where no column or depth is. Each
  // byte is written once: zeroing the strip first and copying 64-byte rows by memcpy took 13% of
  // bf16 1024^3 on 2 threads (perf), more than packing A's pairs.
  const std::int64_t filled = (k + kDepths - 1) / kDepths;  // the steps that hold depths
  const __m512i flips = _mm512_set1_epi8(static_cast<char>(flip));
  for (int j = 0; j < n; ++j) {
    __m512i sums = _mm512_setzero_si512();
    for (std::int64_t s = 0; s < filled; ++s) {
      const std::int64_t depths = k - s * kDepths < kDepths ? k - s * kDepths : kDepths;
      const __mmask64 present =
          depths == kDepths ? ~__mmask64{0} : (__mmask64{1} << (depths * sizeof(S))) - 1;
      __m512i bytes = _mm512_maskz_loadu_epi8(present, b + s * kDepths + j * cs);
      if constexpr (kInt8) {
        bytes = _mm512_maskz_mov_epi8(present, _mm512_xor_si512(bytes, flips));
        sums = _mm512_add_epi64(sums, _mm512_sad_epu8(bytes, _mm512_setzero_si512()));
      }
      _mm512_storeu_si512(dst + s * kAmxStepB + j * kAmxRowBytes, bytes);
    }
    if (kInt8 && column_sums != nullptr) {
      // (Not _mm512_reduce_add_epi64, which GCC 12 warns reads an uninitialized value.)
      alignas(64) std::uint64_t lanes[8];
      _mm512_store_si512(lanes, sums);
      std::uint64_t sum = 0;
      for (std::uint64_t lane : lanes) sum += lane;
      column_sums[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(column_sums[j]) +
                                                 static_cast<std::uint32_t>(sum));
    }
  }
  for (std::int64_t s = 0; s < steps; ++s) {
    const int first = s < filled ? n : 0;
    if (first < kAmxColumns)
      std::memset(dst + s * kAmxStepB + first * kAmxRowBytes, 0,
                  static_cast<std::size_t>(kAmxColumns - first) * kAmxRowBytes);
  }
}

}  // namespace ridge::kernels

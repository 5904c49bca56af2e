// Packing of B for the AMX tile (kernels/amx_tile.hpp), whose first operand holds 16 columns of
// B as rows of 32 consecutive depths (64 bytes of bf16): a strip of kAmxColumns columns over a
// depth of k is [ceil(k / 32)][kAmxColumns][32], dst[s * kAmxStepB + j * 32 + d] = B(32 s + d, j),
// zero past the depth and past the strip's n columns (so that the tile's products there are
// zero, whatever A holds).
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/amx_tile.hpp"

namespace ridge::kernels {

// B's columns [0, n) (n <= kAmxColumns) over depths [0, k), element (p, j) at b[p * rs + j * cs],
// into `steps` tile steps (steps >= ceil(k / 32)).
inline void pack_k_rows(std::int64_t k, int n, const std::uint16_t* b, std::int64_t rs,
                        std::int64_t cs, std::int64_t steps, std::uint16_t* dst) {
  constexpr int kDepths = 2 * kAmxPairs;
  std::memset(dst, 0, static_cast<std::size_t>(steps) * kAmxStepB * sizeof(std::uint16_t));
  if (rs == 1) {
    // Each column contiguous along the depth (op(A) row-major as stored, the usual case): whole
    // rows of 64 bytes copied.
    for (std::int64_t s = 0; s * kDepths < k; ++s) {
      const std::int64_t depths = k - s * kDepths < kDepths ? k - s * kDepths : kDepths;
      for (int j = 0; j < n; ++j)
        std::memcpy(dst + s * kAmxStepB + j * kDepths, b + s * kDepths + j * cs,
                    static_cast<std::size_t>(depths) * sizeof(std::uint16_t));
    }
    return;
  }
  // Otherwise a row of B (a depth) at a time, along the columns.
  for (std::int64_t p = 0; p < k; ++p) {
    std::uint16_t* row = dst + (p / kDepths) * kAmxStepB + p % kDepths;
    for (int j = 0; j < n; ++j) row[j * kDepths] = b[p * rs + j * cs];
  }
}

}  // namespace ridge::kernels

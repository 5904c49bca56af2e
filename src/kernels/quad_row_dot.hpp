// One column of an int8 product against an A of contiguous rows: y = (A - a_zero)(x - x_zero),
// A m x k with rows lda apart (the weights of x W^T, W row-major as a linear layer stores them,
// for one row x), exact modulo 2^32 as the tiles' sums. Each element of y is the dot product of
// a row of A with x on the int8 quads' traits (simd/avx512_int8_quads.hpp): a vector of a row's
// bytes as it lies is 16 quads, and VPDPBUSD adds their 64 products by x's bytes to 16 sums. A
// is read once, a few rows at a time, in place; the packed path would transpose it into panels
// first (u8s8 1 x 4096 x 4096 on 2 threads, Zen 4: 0.2x oneDNN so).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "kernels/pack_quads.hpp"

namespace ridge::kernels {

template <class V, class SourceX>
struct QuadRowDot {
  using reg = typename V::reg;
  static constexpr int kBytes = 4 * V::width;  // a vector's bytes
  // Rows a step: as many streams of A in flight, each with its own sums.
  static constexpr int kRows = 4;

  // The workspace run() needs for depth k: x as unsigned bytes, zero-padded to whole vectors.
  static constexpr std::int64_t workspace_bytes(std::int64_t k) {
    return (k + kBytes - 1) / kBytes * kBytes;
  }

  // y[0, m) = sum_p (a[i * lda + p] - a_zero)(x[p] - x_zero). x_bytes: workspace_bytes(k).
  static void run(std::int64_t m, std::int64_t k, const std::int8_t* a, std::int64_t lda,
                  std::int32_t a_zero, const SourceX* x, std::int32_t x_zero, std::int32_t* y,
                  std::uint8_t* x_bytes) {
    // x as B's packing stores it (int8 plus 128, its zero point with it), and its sum.
    const std::int64_t padded = workspace_bytes(k);
    std::uint32_t x_sum = 0;
    for (std::int64_t p = 0; p < k; ++p) {
      x_bytes[p] = static_cast<std::uint8_t>(unsigned_byte(x[p]));
      x_sum += x_bytes[p];
    }
    std::fill(x_bytes + k, x_bytes + padded, std::uint8_t{0});
    const std::uint32_t zx =
        static_cast<std::uint32_t>(x_zero) + (std::is_signed_v<SourceX> ? 128 : 0);
    const std::uint32_t za = static_cast<std::uint32_t>(a_zero);
    // sum (A - za)(x - zx) = sum A x - zx sum A - za sum x + k za zx, modulo 2^32.
    const std::uint32_t fixed = static_cast<std::uint32_t>(k) * za * zx - za * x_sum;
    for (std::int64_t i = 0; i < m; i += kRows) {
      const int rows = static_cast<int>(std::min<std::int64_t>(kRows, m - i));
      // A tile of fewer rows repeats its last row, whose sums it does not store.
      const std::int8_t* row[kRows];
      for (int r = 0; r < kRows; ++r) row[r] = a + (i + std::min(r, rows - 1)) * lda;
      // The next tile's rows, fetched a line a step while these are read.
      const std::int64_t next = i + 2 * kRows <= m ? kRows * lda : 0;
      reg products[kRows], sums[kRows];
      for (int r = 0; r < kRows; ++r) products[r] = sums[r] = V::zero();
      for (std::int64_t p = 0; p < k; p += kBytes) {
        const int bytes = static_cast<int>(std::min<std::int64_t>(kBytes, k - p));
        const reg xv = V::load_quads(x_bytes + p);
        for (int r = 0; r < kRows; ++r) {
          if (next != 0) __builtin_prefetch(row[r] + next + p, 0, 2);
          const reg av = bytes == kBytes ? V::load_quads(row[r] + p)
                                         : V::load_quads_partial(row[r] + p, bytes);
          products[r] = V::fma(av, xv, products[r]);
          if (zx != 0) sums[r] = V::add_signed_quads(sums[r], av);
        }
      }
      for (int r = 0; r < rows; ++r)
        y[i + r] =
            std::bit_cast<std::int32_t>(lane_sum(products[r]) - zx * lane_sum(sums[r]) + fixed);
    }
  }

 private:
  // The sum of a vector's lanes, modulo 2^32 (once per row).
  static std::uint32_t lane_sum(reg v) {
    std::int32_t lanes[V::width];
    V::store(lanes, v);
    std::uint32_t sum = 0;
    for (std::int32_t lane : lanes) sum += static_cast<std::uint32_t>(lane);
    return sum;
  }
};

}  // namespace ridge::kernels

// Packing: copies a block of A or B into the contiguous micro-panel order the micro-kernel
// streams, zero-padding partial panels so the kernel never needs a masked load on packed data.
// Templates on the traits V, instantiated in each ISA's translation units like the micro-kernel.
#pragma once

#include <cstdint>

#include "simd/unroll.hpp"

namespace ridge::kernels {

// A block rows [0, m) x depth [0, kc), element (i, p) at a[i * rs + p * cs], into
// ceil(m / MR) micro-panels, each [kc][MR]: dst[panel * kc * MR + p * MR + i].
template <class V, int MR>
void pack_a(std::int64_t m, std::int64_t kc, const typename V::scalar* a, std::int64_t rs,
            std::int64_t cs, typename V::scalar* dst) {
  using T = typename V::scalar;
  constexpr int W = V::width;
  static_assert(MR % W == 0);
  if (rs == 1) {
    // Column-contiguous A: depth outermost, so each column's m elements are read in one
    // sequential run and scattered to the panels, eight columns at a time: eight runs in flight
    // keep more lines coming from memory. Packing a 928 x 596 block of a cold 4096-row matrix:
    // 9 GB/s one column at a time, 16 with four, 19 with eight, 11 with sixteen (their lines
    // share one L1 set when the stride is a multiple of 4 KiB). Panel-outer order would read MR
    // elements from each of kc columns lda apart -- a page apart once lda >= 1024 floats --
    // which the hardware prefetchers do not follow.
    constexpr std::int64_t kColumns = 8;
    for (std::int64_t p0 = 0; p0 < kc; p0 += kColumns) {
      const std::int64_t columns = kc - p0 < kColumns ? kc - p0 : kColumns;
      for (std::int64_t i0 = 0; i0 < m; i0 += MR) {
        T* panel = dst + i0 * kc + p0 * MR;
        for (std::int64_t g = 0; g < columns; ++g) {
          const T* col = a + (p0 + g) * cs + i0;
          RIDGE_UNROLL for (int i = 0; i < MR; i += W) {
            const std::int64_t left = m - i0 - i;
            const typename V::reg v = left >= W ? V::load(col + i)
                                     : left > 0 ? V::load_partial(col + i, static_cast<int>(left))
                                                : V::zero();
            V::store(panel + g * MR + i, v);
          }
        }
      }
    }
    return;
  }
  // Row-contiguous (transposed) A: a transposition, four rows by four depths at a time with
  // vector shuffles; general strides: row by row.
  for (std::int64_t i0 = 0; i0 < m; i0 += MR, dst += kc * MR) {
    const int rows = static_cast<int>(m - i0 < MR ? m - i0 : MR);
    const std::int64_t kc4 = cs == 1 ? kc / 4 * 4 : 0;
    int i = 0;
    if (kc4 > 0) {
      for (; i + 4 <= rows; i += 4)
        for (std::int64_t p = 0; p < kc4; p += 4)
          V::transpose_4x4(a + (i0 + i) * rs + p, rs, dst + p * MR + i, MR);
    }
    for (int ii = 0; ii < rows; ++ii) {
      const T* row = a + (i0 + ii) * rs;
      for (std::int64_t p = ii < i ? kc4 : 0; p < kc; ++p) dst[p * MR + ii] = row[p * cs];
    }
    for (int ii = rows; ii < MR; ++ii)
      for (std::int64_t p = 0; p < kc; ++p) dst[p * MR + ii] = T(0);
  }
}

// B block depth [0, kc) x columns [0, n), element (p, j) at b[p * rs + j * cs], into
// ceil(n / NR) micro-panels, each [kc][NR]: dst[panel * kc * NR + p * NR + j].
template <class V, int NR>
void pack_b(std::int64_t kc, std::int64_t n, const typename V::scalar* b, std::int64_t rs,
            std::int64_t cs, typename V::scalar* dst) {
  using T = typename V::scalar;
  for (std::int64_t j0 = 0; j0 < n; j0 += NR, dst += kc * NR) {
    const int cols = static_cast<int>(n - j0 < NR ? n - j0 : NR);
    const T* src = b + j0 * cs;
    if (cs == 1 && cols == NR) {
      // Row-contiguous B: each k is NR consecutive elements.
      for (std::int64_t p = 0; p < kc; ++p) {
        RIDGE_UNROLL for (int j = 0; j < NR; ++j) dst[p * NR + j] = src[p * rs + j];
      }
    } else if (rs == 1) {
      // Column-contiguous B (the usual column-major case): a transposition, four columns by
      // four depths at a time with vector shuffles, four depths of all the panel's columns at a
      // step: each column is read sequentially, all NR at once. Packing 596 x 1080 of a cold
      // 4096-row matrix: 15 GB/s, against 9 reading four columns through the whole depth
      // before the next four.
      const std::int64_t kc4 = kc / 4 * 4;
      const int full = cols / 4 * 4;
      for (std::int64_t p = 0; p < kc4; p += 4)
        for (int j = 0; j < full; j += 4)
          V::transpose_4x4(src + j * cs + p, cs, dst + p * NR + j, NR);
      for (int jj = 0; jj < cols; ++jj) {
        const T* col = src + jj * cs;
        for (std::int64_t p = jj < full ? kc4 : 0; p < kc; ++p) dst[p * NR + jj] = col[p];
      }
      for (int jj = cols; jj < NR; ++jj)
        for (std::int64_t p = 0; p < kc; ++p) dst[p * NR + jj] = T(0);
    } else {
      // General strides: one column at a time.
      for (int j = 0; j < cols; ++j) {
        const T* col = src + j * cs;
        for (std::int64_t p = 0; p < kc; ++p) dst[p * NR + j] = col[p * rs];
      }
      for (int j = cols; j < NR; ++j)
        for (std::int64_t p = 0; p < kc; ++p) dst[p * NR + j] = T(0);
    }
  }
}

}  // namespace ridge::kernels

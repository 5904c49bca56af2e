// Packing of operands for the micro-kernels on pairs: two depth steps of 16-bit values to a
// 32-bit slot (the even step in the lower half), in the micro-panel order of kernels/pack.hpp
// with the slot for the element: a depth of k takes ceil(k / 2) steps, the last one's upper
// halves zero when k is odd, and the rows or columns past the operand's are zero slots. For the
// int16-pair kernels (simd/*_int16_pairs.hpp) the values are 8-bit integers less their zero
// point, as int16 (a zero slot then multiplies to zero, whatever the zero points); for the bf16
// pairs (simd/avx512_bf16.hpp) bf16 bit patterns as stored, with a zero point of 0. Slot: the
// micro-kernel's scalar type (int32 or float), which each slot's 32 bits are stored as.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/transpose_blocks.hpp"
#include "simd/cache_line.hpp"

namespace ridge::kernels {

inline std::int32_t int16_pair(std::int32_t low, std::int32_t high) {
  return static_cast<std::int32_t>(static_cast<std::uint16_t>(low) |
                                   static_cast<std::uint32_t>(static_cast<std::uint16_t>(high))
                                       << 16);
}

// The slot of two values less a zero point.
template <class Slot>
Slot slot_of(std::int32_t low, std::int32_t high, std::int32_t zero) {
  return std::bit_cast<Slot>(int16_pair(low - zero, high - zero));
}

// V::pair_rows stored at dst: 2 x V::width rows of two depth steps, as packed panels hold them.
template <class V, class S>
void store_pairs(const S* even, const S* odd, std::int32_t zero, typename V::scalar* dst) {
  typename V::reg rows[2];
  V::pair_rows(even, odd, zero, rows);
  V::store(dst, rows[0]);
  V::store(dst + V::width, rows[1]);
}

// A block rows [0, m) x depth [0, k), element (i, p) at a[i * rs + p * cs], into ceil(m / MR)
// micro-panels of ceil(k / 2) steps, each [steps][MR]: dst[panel * steps * MR + s * MR + i].
// With panel_steps (>= ceil(k / 2)) the panels are that many steps apart, the steps past the
// depth zero slots (AMX tiles take whole blocks of steps: kernels/amx_tile.hpp).
template <class V, int MR, class S>
void pack_pairs_a(std::int64_t m, std::int64_t k, const S* a, std::int64_t rs, std::int64_t cs,
                  std::int32_t zero, typename V::scalar* dst, std::int64_t panel_steps = 0) {
  using Slot = typename V::scalar;
  constexpr int kRowsAtOnce = 2 * V::width;
  static_assert(MR % kRowsAtOnce == 0);
  const std::int64_t steps = (k + 1) / 2, pairs = k / 2;
  const std::int64_t stride = panel_steps > steps ? panel_steps : steps;
  const std::int64_t full_rows = rs == 1 ? m / MR * MR : 0;
  if (full_rows > 0) {
    // Column-contiguous A (the weights of x W, row-major W): depth outermost, so that each
    // column's rows are one sequential run, kColumns columns at a time, each panel's run of them
    // fetching the next kColumns' (as pack_a, whose measurements say why), each pair of columns
    // widened 2 x V::width rows at a time.
    constexpr std::int64_t kColumns = 8;
    for (std::int64_t s0 = 0; s0 < pairs; s0 += kColumns / 2) {
      const std::int64_t s_end = s0 + kColumns / 2 < pairs ? s0 + kColumns / 2 : pairs;
      const std::int64_t ahead_end = s_end + kColumns / 2 < pairs ? s_end + kColumns / 2 : pairs;
      for (std::int64_t i0 = 0; i0 < full_rows; i0 += MR) {
        for (std::int64_t p = 2 * s_end; p < 2 * ahead_end; ++p)
          simd::prefetch_run(a + i0 + p * cs, MR);
        for (std::int64_t s = s0; s < s_end; ++s) {
          const S* even = a + i0 + 2 * s * cs;
          Slot* slots = dst + i0 * stride + s * MR;
          for (int i = 0; i < MR; i += kRowsAtOnce)
            store_pairs<V>(even + i, even + cs + i, zero, slots + i);
        }
      }
    }
  }
  // bf16 as stored, row-contiguous, rows an even number of values apart (the weights of
  // x W^T, row-major W, as a linear layer stores them): a slot is the two values as they lie, so
  // a panel is the transposition of 32-bit words, four rows by four slots at a time, as
  // pack_pairs_b's.
  const bool words =
      sizeof(S) == 2 && std::is_same_v<Slot, float> && cs == 1 && rs % 2 == 0 && zero == 0;
  for (std::int64_t i0 = 0; i0 < m; i0 += MR) {
    const int rows = static_cast<int>(m - i0 < MR ? m - i0 : MR);
    Slot* panel = dst + i0 * stride;
    // Rows [0, shuffled_rows) of slots [0, shuffled) transposed.
    int shuffled_rows = 0;
    std::int64_t shuffled = 0;
    if constexpr (sizeof(S) == 2 && std::is_same_v<Slot, float>) {
      if (words) {
        shuffled_rows = rows / 4 * 4;
        shuffled = pairs / 4 * 4;
        transpose_blocks<V, TransposeOrder::lines_outer>(
            reinterpret_cast<const float*>(a + i0 * rs), rs / 2, shuffled_rows, shuffled, panel,
            MR);
      }
    }
    // The steps the loops above did not pack: all of a panel's, or a last odd depth's.
    for (std::int64_t s = i0 < full_rows ? pairs : 0; s < steps; ++s) {
      const S* even = a + i0 * rs + 2 * s * cs;
      Slot* slots = panel + s * MR;
      const int first = s < shuffled ? shuffled_rows : 0;
      if (2 * s + 1 < k) {
        const S* odd = even + cs;
        for (int i = first; i < rows; ++i)
          slots[i] = slot_of<Slot>(even[i * rs], odd[i * rs], zero);
      } else {
        for (int i = first; i < rows; ++i) slots[i] = slot_of<Slot>(even[i * rs], zero, zero);
      }
      for (int i = rows; i < MR; ++i) slots[i] = Slot{};
    }
    std::fill(panel + steps * MR, panel + stride * MR, Slot{});
  }
}

// B block depth [0, k) x columns [0, n), element (p, j) at b[p * rs + j * cs], into
// ceil(n / NR) micro-panels of ceil(k / 2) steps, each [steps][NR]: dst[panel * steps * NR +
// s * NR + j]. Column by column: with rs == 1 (x of x W, row-major x) each is one run.
//
// bf16 as stored with rs == 1 and an even cs (the row-major A of C = A B, the weights of a
// row-major x W^T): a slot is the two values as they lie, so a panel is the transposition of
// 32-bit words, done four columns by four slots at a time with V's float shuffles (through
// unaligned loads, as the words may lie 2 bytes off). Measured on Zen 4, row-major bf16 on 1
// thread, two runs: 1000 x 8 x 1000 (59% of the time in this packing, a slot at a time)
// 47-65 GFLOP/s a slot at a time, 85-113 with the shuffles; 4096 x 8 x 4096 22-28 and 54-67.
template <class V, int NR, class S, class Slot>
void pack_pairs_b(std::int64_t k, std::int64_t n, const S* b, std::int64_t rs, std::int64_t cs,
                  std::int32_t zero, Slot* dst) {
  const std::int64_t steps = (k + 1) / 2, pairs = k / 2;
  for (std::int64_t j0 = 0; j0 < n; j0 += NR, dst += steps * NR) {
    const int cols = static_cast<int>(n - j0 < NR ? n - j0 : NR);
    // Slots [0, shuffled) of columns [0, full) are transposed four by four.
    int full = 0;
    std::int64_t shuffled = 0;
    if constexpr (sizeof(S) == 2 && std::is_same_v<Slot, float>) {
      if (rs == 1 && zero == 0 && cs % 2 == 0) {
        full = cols / 4 * 4;
        shuffled = pairs / 4 * 4;
        transpose_blocks<V, TransposeOrder::slots_outer>(
            reinterpret_cast<const float*>(b + j0 * cs), cs / 2, full, shuffled, dst, NR);
      }
    }
    for (int j = 0; j < cols; ++j) {
      const S* col = b + (j0 + j) * cs;
      std::int64_t s = j < full ? shuffled : 0;
      if constexpr (sizeof(S) == 2) {
        if (rs == 1 && zero == 0) {  // bf16 as stored: a slot is the two values as they lie
          for (; s < pairs; ++s) {
            std::uint32_t word;
            std::memcpy(&word, col + 2 * s, sizeof word);
            dst[s * NR + j] = std::bit_cast<Slot>(word);
          }
        }
      }
      for (; s < pairs; ++s)
        dst[s * NR + j] = slot_of<Slot>(col[2 * s * rs], col[(2 * s + 1) * rs], zero);
      if (pairs < steps) dst[pairs * NR + j] = slot_of<Slot>(col[2 * pairs * rs], zero, zero);
    }
    for (int j = cols; j < NR; ++j)
      for (std::int64_t s = 0; s < steps; ++s) dst[s * NR + j] = Slot{};
  }
}

}  // namespace ridge::kernels

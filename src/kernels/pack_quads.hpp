// Packing of int8 operands for the micro-kernels on quads (simd/avx512_int8_quads.hpp): four
// depth steps of 8-bit values to a 32-bit slot (the first step in the lowest byte), in the
// micro-panel order of kernels/pack.hpp with the slot for the element: a depth of k takes
// ceil(k / 4) steps, the missing bytes of the last one zero, and the rows or columns past the
// operand's are zero slots. A (int8) is packed as stored; B as unsigned bytes: uint8 as stored,
// int8 plus 128 (its top bit flipped), with its zero point plus 128 to match.
//
// The zero points are then not in the operands (a difference of two bytes needs nine bits), so
// the kernel's sum is the plain product, and QuadCorrection adds the rest once a block of C has
// its whole depth:
//   sum_p (A_ip - za)(B_pj - zb) = sum_p A_ip B_pj - zb sum_p A_ip + (k za zb - za sum_p B_pj),
// a term per row and one per column, from sums the packing takes. Everything is int32 arithmetic
// modulo 2^32, the sums too: C is exact whenever the exact value fits int32 (the int16-pair
// kernels' result, wrapped the same way where it does not).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/transpose_blocks.hpp"
#include "simd/cache_line.hpp"

namespace ridge::kernels {

// An operand's byte as B's packing stores it: unsigned, an int8 plus 128.
template <class S>
std::uint32_t unsigned_byte(S x) {
  if constexpr (std::is_signed_v<S>) {
    return static_cast<std::uint8_t>(x) ^ 0x80u;
  } else {
    return x;
  }
}

// The slot of depth steps [4 s, min(4 s + 4, k)) of the values at p, p + stride, ...: bytes as
// `byte` gives them, missing ones zero.
template <class S, class Byte>
std::int32_t quad_slot(const S* p, std::int64_t stride, std::int64_t present, Byte byte) {
  std::uint32_t slot = 0;
  for (std::int64_t t = 0; t < std::min<std::int64_t>(present, 4); ++t)
    slot |= byte(p[t * stride]) << (8 * t);
  return std::bit_cast<std::int32_t>(slot);
}

// A block rows [0, m) x depth [0, k), element (i, p) at a[i * rs + p * cs], into ceil(m / MR)
// micro-panels of ceil(k / 4) steps, each [steps][MR]: dst[panel * steps * MR + s * MR + i].
// With panel_steps (>= ceil(k / 4)) the panels are that many steps apart, the steps past the
// depth zero slots (as pack_pairs_a's).
template <class V, int MR>
void pack_quads_a(std::int64_t m, std::int64_t k, const std::int8_t* a, std::int64_t rs,
                  std::int64_t cs, std::int32_t* dst, std::int64_t panel_steps = 0) {
  static_assert(MR % 16 == 0);  // V::store_quad_rows' rows
  const auto as_stored = [](std::int8_t x) {
    return static_cast<std::uint32_t>(static_cast<std::uint8_t>(x));
  };
  const std::int64_t steps = (k + 3) / 4, quads = k / 4;
  const std::int64_t stride = panel_steps > steps ? panel_steps : steps;
  const std::int64_t full_rows = rs == 1 ? m / MR * MR : 0;
  // Column-contiguous A (the weights of x W, row-major W): depth outermost, eight columns at a
  // time, each panel's run of them fetching the next eight's, as pack_a.
  constexpr std::int64_t kQuadsAtOnce = 2;
  for (std::int64_t s0 = 0; full_rows > 0 && s0 < quads; s0 += kQuadsAtOnce) {
    const std::int64_t s_end = std::min(s0 + kQuadsAtOnce, quads);
    const std::int64_t ahead_end = std::min(s_end + kQuadsAtOnce, quads);
    for (std::int64_t i0 = 0; i0 < full_rows; i0 += MR) {
      for (std::int64_t p = 4 * s_end; p < 4 * ahead_end; ++p)
        simd::prefetch_run(a + i0 + p * cs, MR);
      for (std::int64_t s = s0; s < s_end; ++s)
        for (int i = 0; i < MR; i += 16)
          V::store_quad_rows(a + i0 + i + 4 * s * cs, cs, dst + i0 * stride + s * MR + i);
    }
  }
  // Row-contiguous A with rows a multiple of 4 bytes apart (the weights of x W^T, row-major W,
  // as a linear layer stores them): a slot is four bytes as they lie, so a panel is the
  // transposition of 32-bit words, four rows by four slots at a time, as pack_quads_b's.
  const bool words = cs == 1 && rs % 4 == 0;
  for (std::int64_t i0 = 0; i0 < m; i0 += MR) {
    const int rows = static_cast<int>(std::min<std::int64_t>(m - i0, MR));
    std::int32_t* panel = dst + i0 * stride;
    // Rows [0, shuffled_rows) of slots [0, shuffled) transposed.
    const int shuffled_rows = words ? rows / 4 * 4 : 0;
    const std::int64_t shuffled = words ? quads / 4 * 4 : 0;
    transpose_blocks<typename V::Float, TransposeOrder::lines_outer>(
        reinterpret_cast<const float*>(a + i0 * rs), rs / 4, shuffled_rows, shuffled,
        reinterpret_cast<float*>(panel), MR);
    // The steps the loops above did not pack: all of a panel's, or a last partial quad.
    for (std::int64_t s = i0 < full_rows ? quads : 0; s < steps; ++s) {
      std::int32_t* slots = panel + s * MR;
      for (int i = s < shuffled ? shuffled_rows : 0; i < rows; ++i)
        slots[i] = quad_slot(a + (i0 + i) * rs + 4 * s * cs, cs, k - 4 * s, as_stored);
      for (int i = rows; i < MR; ++i) slots[i] = 0;
    }
    std::fill(panel + steps * MR, panel + stride * MR, 0);
  }
}

// B block depth [0, k) x columns [0, n), element (p, j) at b[p * rs + j * cs], into
// ceil(n / NR) micro-panels of ceil(k / 4) steps, each [steps][NR]: dst[panel * steps * NR +
// s * NR + j], as unsigned bytes. With column_sums, also adds each column's sum of those bytes
// to column_sums[j].
//
// With rs == 1 and cs a multiple of 4 (x of x W, row-major x) a slot is four bytes as they lie,
// so a panel is the transposition of 32-bit words, four columns by four slots at a time with the
// shuffles of V's float traits (V::Float), as pack_pairs_b does for bf16. Measured on Zen 4,
// u8s8 row-major on 2 threads, where this packing is most of the time: 4096 x 8 x 4096 and
// 4096 x 16 x 4096 (72% of the samples in it) ran at 0.51-0.57x and 0.38-0.45x oneDNN a slot at
// a time, 0.93x and 0.78-0.86x so.
template <class V, int NR, class S>
void pack_quads_b(std::int64_t k, std::int64_t n, const S* b, std::int64_t rs, std::int64_t cs,
                  std::int32_t* dst, std::int32_t* column_sums) {
  const std::int64_t steps = (k + 3) / 4, quads = k / 4;
  const std::uint32_t flip = std::is_signed_v<S> ? 0x80808080u : 0;
  for (std::int64_t j0 = 0; j0 < n; j0 += NR, dst += steps * NR) {
    const int cols = static_cast<int>(std::min<std::int64_t>(n - j0, NR));
    // Slots [0, shuffled) of columns [0, full) are transposed four by four, then flipped.
    int full = 0;
    std::int64_t shuffled = 0;
    if (rs == 1 && cs % 4 == 0) {
      full = cols / 4 * 4;
      shuffled = quads / 4 * 4;
      transpose_blocks<typename V::Float, TransposeOrder::slots_outer>(
          reinterpret_cast<const float*>(b + j0 * cs), cs / 4, full, shuffled,
          reinterpret_cast<float*>(dst), NR);
      if (flip != 0) {
        for (std::int64_t s = 0; s < shuffled; ++s)
          for (int j = 0; j < full; ++j)
            dst[s * NR + j] =
                std::bit_cast<std::int32_t>(std::bit_cast<std::uint32_t>(dst[s * NR + j]) ^ flip);
      }
    }
    for (int j = 0; j < cols; ++j) {
      const S* col = b + (j0 + j) * cs;
      std::int64_t s = j < full ? shuffled : 0;
      if (rs == 1) {  // each slot is four bytes as stored
        for (; s < quads; ++s) {
          std::uint32_t word;
          std::memcpy(&word, col + 4 * s, sizeof word);
          dst[s * NR + j] = std::bit_cast<std::int32_t>(word ^ flip);
        }
      }
      for (; s < steps; ++s)
        dst[s * NR + j] = quad_slot(col + 4 * s * rs, rs, k - 4 * s, unsigned_byte<S>);
      if (column_sums != nullptr) {
        std::uint32_t sum = 0;
        for (std::int64_t p = 0; p < k; ++p) sum += unsigned_byte(col[p * rs]);
        column_sums[j0 + j] =
            std::bit_cast<std::int32_t>(std::bit_cast<std::uint32_t>(column_sums[j0 + j]) + sum);
      }
    }
    for (int j = cols; j < NR; ++j)
      for (std::int64_t s = 0; s < steps; ++s) dst[s * NR + j] = 0;
  }
}

// The zero points' correction (see above) for the packed path on one m x n block of C, k deep:
// the sums of A's rows and B's columns as the packing finds them, each turned into its term
// once complete, and the terms added to C. `rows` holds m rounded up to MR, `columns` the
// widest column panel rounded up to NR.
template <class V, int MR>
class QuadCorrection {
 public:
  using Out = typename V::Out;
  QuadCorrection(std::int32_t a_zero, std::int32_t b_zero, std::int64_t k, std::int32_t* rows,
                 std::int32_t* columns)
      : a_zero_(static_cast<std::uint32_t>(a_zero)),
        b_zero_(static_cast<std::uint32_t>(b_zero)),
        k_(static_cast<std::uint32_t>(k)),
        rows_(rows),
        columns_(columns) {}

  // za = 0: no column term; zb = 0: no row term.
  bool row_terms() const { return b_zero_ != 0; }
  bool column_terms() const { return a_zero_ != 0; }

  void start_rows(std::int64_t m) {
    if (row_terms()) std::fill_n(rows_, round_up(m), 0);
  }
  void start_columns(std::int64_t n) {
    if (column_terms()) std::fill_n(columns_, n, 0);
  }
  // Where B's packing adds its column sums (null when no column term needs them).
  std::int32_t* column_sums() const { return column_terms() ? columns_ : nullptr; }

  // Adds the rows of A's packed block (rows [i0, i0 + m), `steps` deep) to their sums.
  void add_rows(const std::int32_t* panels, std::int64_t i0, std::int64_t m, std::int64_t steps) {
    if (!row_terms()) return;
    constexpr int W = V::width;
    for (std::int64_t r = 0; r < m; r += MR, panels += steps * MR) {
      typename V::reg sum[MR / W];
      for (int v = 0; v < MR / W; ++v) sum[v] = Out::load(rows_ + i0 + r + v * W);
      for (std::int64_t s = 0; s < steps; ++s)
        for (int v = 0; v < MR / W; ++v)
          sum[v] = V::add_signed_quads(sum[v], V::load(panels + s * MR + v * W));
      for (int v = 0; v < MR / W; ++v) Out::store(rows_ + i0 + r + v * W, sum[v]);
    }
  }

  // The sums of rows [0, m) stored beside an A packed beforehand (gemm_detail::
  // prepacked_panel_steps): MR of them at first + r x panel_stride for each panel's first row
  // r. Made whole (finish_rows) as they are loaded.
  void load_rows(const std::int32_t* first, std::int64_t panel_stride, std::int64_t m) {
    if (!row_terms()) return;
    for (std::int64_t r = 0; r < m; r += MR) std::copy_n(first + r * panel_stride, MR, rows_ + r);
    finish_rows(0, m);
  }

  // The sums of rows [i0, i0 + m) and of columns [j0, j0 + n) made whole: their terms,
  // -zb sum A_ip and k za zb - za sum B_pj.
  void finish_rows(std::int64_t i0, std::int64_t m) {
    if (!row_terms()) return;
    for (std::int64_t i = i0; i < i0 + m; ++i) rows_[i] = wrap(0u - b_zero_ * unwrap(rows_[i]));
  }
  void finish_columns(std::int64_t j0, std::int64_t n) {
    if (!column_terms()) return;
    const std::uint32_t fixed = k_ * a_zero_ * b_zero_;
    for (std::int64_t j = j0; j < j0 + n; ++j)
      columns_[j] = wrap(fixed - a_zero_ * unwrap(columns_[j]));
  }

  // Adds the terms to C's rows [i0, i0 + m) and columns [j0, j0 + n) (column-major, ldc): whole
  // vectors, then a masked one for the rows past the last (a masked load and store on every
  // vector, each with its mask made, ran this at 4.3% of s8s8 1024^3's samples on Zen 5).
  void apply(std::int32_t* c, std::int64_t ldc, std::int64_t i0, std::int64_t m, std::int64_t j0,
             std::int64_t n) const {
    if (!row_terms() && !column_terms()) return;
    constexpr int W = V::width;
    const std::int64_t whole = m / W * W;
    const int tail = static_cast<int>(m - whole);
    const std::int32_t* rows = rows_ + i0;
    for (std::int64_t j = 0; j < n; ++j) {
      const typename V::reg column = Out::set1(column_terms() ? columns_[j0 + j] : 0);
      std::int32_t* cj = c + j * ldc;
      for (std::int64_t i = 0; i < whole; i += W) {
        const typename V::reg row = row_terms() ? Out::load(rows + i) : Out::zero();
        Out::store(cj + i, Out::add(Out::load(cj + i), Out::add(row, column)));
      }
      if (tail > 0) {
        const typename V::reg row =
            row_terms() ? Out::load_partial(rows + whole, tail) : Out::zero();
        Out::store_partial(
            cj + whole, Out::add(Out::load_partial(cj + whole, tail), Out::add(row, column)), tail);
      }
    }
  }

 private:
  static std::int64_t round_up(std::int64_t m) { return (m + MR - 1) / MR * MR; }
  static std::uint32_t unwrap(std::int32_t x) { return static_cast<std::uint32_t>(x); }
  static std::int32_t wrap(std::uint32_t x) { return static_cast<std::int32_t>(x); }

  std::uint32_t a_zero_, b_zero_, k_;
  std::int32_t* rows_;
  std::int32_t* columns_;
};

}  // namespace ridge::kernels

// The bf16 GEMM tile on AMX with A's rows read where they lie: for C = A B with A's rows
// contiguous along the depth (the weights W of x W^T as a linear layer stores them) and C of a
// few columns (x's rows). The tile unit's first operand (tsrc1) takes 16 rows of 64 bytes at any
// stride, which is A's rows as they are, so A is never copied: its 32 rows a tile are 32 streams
// through memory, each read once. The second operand takes B in pairs (x's rows packed by
// kernels/pack_pairs.hpp, a panel of 32 columns). A tile register's rows are then C's rows, where
// kernels/amx_tile.hpp's are C's columns (C is column-major), so each tile is transposed on its
// way to and from C.
//
// The products, and the order they are summed in, are kernels/amx_tile.hpp's with the operands'
// roles exchanged (bf16 products are exact in float, so which factor comes first changes
// nothing): with the same depth slices and the same C = alpha AB + beta C per slice the results
// are those of the packed path to the bit.
// Include only from sources compiled with the AMX flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "kernels/amx_tile.hpp"

namespace ridge::kernels {

inline constexpr int kAmxStepDepths = 2 * kAmxSlots;  // bf16 depths a tile step takes

// A's rows for one tile step where they cannot be read in place (a block of fewer than 32 rows,
// or a step past the depth's end): `rows` rows `rs` values apart from a on, `depths` values each,
// into 32 rows of 64 bytes at stage, zero past them. The masked loads read nothing past a row.
inline void stage_rows(const std::uint16_t* a, std::int64_t rs, int rows, int depths,
                       std::uint16_t* stage) {
  const __mmask32 mask =
      depths >= kAmxStepDepths ? ~__mmask32{0} : (__mmask32{1} << depths) - __mmask32{1};
  for (int i = 0; i < kAmxRows; ++i)
    _mm512_storeu_si512(stage + i * kAmxStepDepths, i < rows
                                                        ? _mm512_maskz_loadu_epi16(mask, a + i * rs)
                                                        : _mm512_setzero_si512());
}

// One step's products on A's rows in registers 4 (rows 0-15) and 5 (16-31) and the panel of B's
// pairs at x: register 0 += A's rows 0-15 times columns 0-15, 2 rows 16-31 times columns 0-15,
// and with Columns = 32 1 and 3 the same rows times columns 16-31.
template <int Columns>
[[gnu::always_inline]] inline void amx_row_products(const float* x) {
  _tile_loadd(6, x, kAmxRows * 4);
  _tile_dpbf16ps(0, 4, 6);
  _tile_dpbf16ps(2, 5, 6);
  if constexpr (Columns == 32) {
    _tile_loadd(7, x + 16, kAmxRows * 4);
    _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(3, 5, 7);
  }
}

// Registers 0-3 += depths [0, k) of `rows` rows of A (at a, rs values apart) times the panel of
// B's pairs at x (kAmxStepA slots a step).
template <int Columns>
[[gnu::always_inline]] inline void amx_row_steps(std::int64_t k, const std::uint16_t* a,
                                                 std::int64_t rs, int rows, const float* x,
                                                 std::uint16_t* stage) {
  const std::int64_t in_place = rows == kAmxRows ? k / kAmxStepDepths : 0;
  const std::int64_t stride = rs * static_cast<std::int64_t>(sizeof(std::uint16_t));
  std::int64_t s = 0;
  for (; s < in_place; ++s, a += kAmxStepDepths, x += kAmxStepA) {
    _tile_loadd(4, a, stride);
    _tile_loadd(5, a + 16 * rs, stride);
    amx_row_products<Columns>(x);
  }
  for (; s * kAmxStepDepths < k; ++s, a += kAmxStepDepths, x += kAmxStepA) {
    stage_rows(a, rs, rows,
               static_cast<int>(std::min<std::int64_t>(kAmxStepDepths, k - s * kAmxStepDepths)),
               stage);
    _tile_loadd(4, stage, kAmxRowBytes);
    _tile_loadd(5, stage + 16 * kAmxStepDepths, kAmxRowBytes);
    amx_row_products<Columns>(x);
  }
}

// to[j * 32 + i] = from[i * 32 + j]: a 32 x 32 block between the tile registers' order (C's rows
// 32 floats apart) and C's (its columns 32 floats apart).
inline void transpose_32(const float* from, float* to) {
  for (int i = 0; i < kAmxRows; ++i)
    for (int j = 0; j < kAmxRows; ++j) to[j * kAmxRows + i] = from[i * kAmxRows + j];
}

// Registers 0-3 (0 and 2 with Columns = 16) from, or 0-3 to, a 32 x 32 block in the tile
// registers' order.
template <int Columns>
[[gnu::always_inline]] inline void amx_row_tiles_load(const float* t) {
  _tile_loadd(0, t, kAmxRows * 4);
  _tile_loadd(2, t + 16 * kAmxRows, kAmxRows * 4);
  if constexpr (Columns == 32) {
    _tile_loadd(1, t + 16, kAmxRows * 4);
    _tile_loadd(3, t + 16 * kAmxRows + 16, kAmxRows * 4);
  }
}
[[gnu::always_inline]] inline void amx_row_tiles_store(float* t) {
  _tile_stored(0, t, kAmxRows * 4);
  _tile_stored(1, t + 16, kAmxRows * 4);
  _tile_stored(2, t + 16 * kAmxRows, kAmxRows * 4);
  _tile_stored(3, t + 16 * kAmxRows + 16, kAmxRows * 4);
}

// One tile of C (at most 32 x 32), C = alpha AB + beta C over depths [0, k) of `c.rows` rows of
// A and the panel x of B's pairs, in slices `slice` depths deep as the packed path takes them
// (kernels/amx_tile.hpp, amx_tile_of): a slice with alpha 1 and beta 0 or 1 takes its products
// in place on C's values, which then run on through every later such slice without a store
// between (storing and reloading a float changes nothing); any other slice sums its products
// from zero and C = alpha AB + beta C after, beta the call's in the first slice and 1 after.
template <int Columns>
void amx_row_tile_of(std::int64_t k, std::int64_t slice, const std::uint16_t* a, std::int64_t rs,
                     const float* x, const TileC<float>& c, std::uint16_t* stage) {
  alignas(64) float tiles[kAmxRows * kAmxRows];   // the registers' order
  alignas(64) float column[kAmxRows * kAmxRows];  // C's order, columns 32 floats apart
  std::int64_t k0 = 0;
  for (; k0 < k && (c.alpha != 1 || (k0 == 0 && c.beta != 0 && c.beta != 1)); k0 += slice) {
    const std::int64_t depths = std::min(slice, k - k0);
    amx_zero_c<32>();
    amx_row_steps<Columns>(depths, a + k0, rs, c.rows, x + k0 / kAmxStepDepths * kAmxStepA, stage);
    amx_row_tiles_store(tiles);
    transpose_32(tiles, column);
    TileC<float> slice_c = c;
    if (k0 > 0) slice_c.beta = 1;
    apply_alpha_beta(column, slice_c);
  }
  if (k0 >= k) return;
  amx_zero_c<32>();
  if (k0 > 0 || c.beta == 1) {
    std::fill(column, column + kAmxRows * kAmxRows, 0.0f);
    copy_block(c.data, c.ld, column, kAmxRows, c.rows, c.cols);
    transpose_32(column, tiles);
    amx_row_tiles_load<Columns>(tiles);
  }
  amx_row_steps<Columns>(k - k0, a + k0, rs, c.rows, x + k0 / kAmxStepDepths * kAmxStepA, stage);
  amx_row_tiles_store(tiles);
  transpose_32(tiles, column);
  copy_block(column, kAmxRows, c.data, c.ld, c.rows, c.cols);
}
[[gnu::noinline]] inline void amx_row_tile(std::int64_t k, std::int64_t slice,
                                           const std::uint16_t* a, std::int64_t rs, const float* x,
                                           const TileC<float>& c, std::uint16_t* stage) {
  if (c.cols <= 16) {
    amx_row_tile_of<16>(k, slice, a, rs, x, c, stage);
  } else {
    amx_row_tile_of<32>(k, slice, a, rs, x, c, stage);
  }
}

}  // namespace ridge::kernels

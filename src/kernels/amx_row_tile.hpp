// The GEMM tile on AMX with A's rows read where they lie: for C = A B with A's rows contiguous
// along the depth (the weights W of x W^T as a linear layer stores them) and C of a few columns
// (x's rows). The tile unit's first operand (tsrc1) takes 16 rows of 64 bytes at any stride,
// which is A's rows as they are, so A is never copied: its 32 rows a tile are 32 streams through
// memory, each read once. The second operand takes B in pairs or quads (x's rows packed by
// kernels/pack_pairs.hpp or pack_quads.hpp, a panel of 32 columns). A tile register's rows are
// then C's rows, where kernels/amx_tile.hpp's are C's columns (C is column-major), so each tile
// is transposed on its way to and from C.
//
// bf16: the products, and the order they are summed in, are kernels/amx_tile.hpp's with the
// operands' roles exchanged (bf16 products are exact in float, so which factor comes first
// changes nothing): with the same depth slices and the same C = alpha AB + beta C per slice the
// results are those of the packed path to the bit. int8: A (int8) is the signed first operand
// as stored, so x needs no shift to unsigned bytes: TDPBSUD on uint8 x, TDPBSSD on int8 x, exact
// int32 sums wrapping as TDPBUSD's.
// Include only from sources compiled with the AMX flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "kernels/amx_tile.hpp"
#include "kernels/transpose_blocks.hpp"

namespace ridge::kernels {

// The element types of a product on A's rows: C (float or int32), A's element (bf16 bits or
// int8) and B's (bf16 bits, uint8 or int8), each tile step 64 bytes of depth of each.
template <class C, class A, class B>
struct AmxRowTypes {
  static_assert(std::is_same_v<C, float>
                    ? std::is_same_v<A, std::uint16_t>
                    : std::is_same_v<C, std::int32_t> && std::is_same_v<A, std::int8_t>);
  static constexpr int kStepDepths = kAmxRowBytes / static_cast<int>(sizeof(A));

  static constexpr bool kSignedB = std::is_signed_v<B>;
};

// What a step does beside its products, on the 32 rows of A it loaded (rows rs bytes apart):
// nothing, or int8's row sums (AmxRowSums).
struct NoRowWork {
  void step(const std::uint8_t*, std::int64_t) {}
};

// The sums of A's 32 rows of int8 over the steps, on the vector ports beside the tile unit: each
// row's 64 bytes of a step added as 16 quads into that row's 16 lanes (VPDPBUSD by ones: exact,
// wrapping as C does), the lanes summed at the end.
class AmxRowSums {
 public:
  AmxRowSums() { std::fill(lanes_, lanes_ + kAmxRows * 16, 0); }
  [[gnu::always_inline]] void step(const std::uint8_t* rows, std::int64_t rs) {
    const __m512i ones = _mm512_set1_epi8(1);
    for (int i = 0; i < kAmxRows; ++i) {
      std::int32_t* lanes = lanes_ + i * 16;
      _mm512_store_si512(lanes, _mm512_dpbusd_epi32(_mm512_load_si512(lanes), ones,
                                                    _mm512_loadu_si512(rows + i * rs)));
    }
  }
  // The sums of rows [0, rows) added to sums[0, rows).
  void add_to(std::int32_t* sums, int rows) const {
    for (int i = 0; i < rows; ++i) {
      auto sum = static_cast<std::uint32_t>(sums[i]);
      for (int l = 0; l < 16; ++l) sum += static_cast<std::uint32_t>(lanes_[i * 16 + l]);
      sums[i] = static_cast<std::int32_t>(sum);
    }
  }

 private:
  alignas(64) std::int32_t lanes_[kAmxRows * 16];
};

// int8's row sums of A on the tile unit instead, for a tile of at most 16 columns: registers 1
// and 3, free then, take A's rows times a register of ones (7), so each of their columns holds
// the rows' sums, at two more tile products a step where the tiles wait on A's lines anyway.
struct AmxTileRowSums {
  void step(const std::uint8_t*, std::int64_t) {}
  // The sums of rows [0, rows) added to sums[0, rows), once the tile is done.
  void add_to(std::int32_t* sums, int rows) const {
    for (int i = 0; i < rows; ++i)
      sums[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(sums[i]) +
                                          static_cast<std::uint32_t>(row_sums[i]));
  }
  std::int32_t row_sums[kAmxRows] = {};
};
// A tile register's 16 rows of 64 bytes, each 1.
inline constexpr auto kAmxOnes = [] {
  std::array<std::uint8_t, kAmxSlots * kAmxRowBytes> ones{};
  ones.fill(1);
  return ones;
}();

// A's rows for one tile step where they cannot be read in place (a block of fewer than 32 rows,
// or a step past the depth's end): `rows` rows `rs` bytes apart from a on, `bytes` bytes each,
// into 32 rows of 64 bytes at stage, zero past them. The masked loads read nothing past a row.
inline void stage_rows(const std::uint8_t* a, std::int64_t rs, int rows, int bytes,
                       std::uint8_t* stage) {
  const __mmask64 mask =
      bytes >= kAmxRowBytes ? ~__mmask64{0} : (__mmask64{1} << bytes) - __mmask64{1};
  for (int i = 0; i < kAmxRows; ++i)
    _mm512_storeu_si512(stage + i * kAmxRowBytes, i < rows
                                                      ? _mm512_maskz_loadu_epi8(mask, a + i * rs)
                                                      : _mm512_setzero_si512());
}

// One step's products on A's rows in registers 4 (rows 0-15) and 5 (16-31) and the panel of B's
// slots at x: register 0 += A's rows 0-15 times columns 0-15, 2 rows 16-31 times columns 0-15,
// and with Columns = 32 1 and 3 the same rows times columns 16-31. (The register numbers are
// literals: GCC's tile intrinsics paste them into the instruction's text.)
template <class Types, int Columns, bool TileSums, class C>
[[gnu::always_inline]] inline void amx_row_products(const C* x) {
  _tile_loadd(6, x, kAmxRows * 4);
  if constexpr (Columns == 32) _tile_loadd(7, x + 16, kAmxRows * 4);
  if constexpr (std::is_same_v<C, float>) {
    _tile_dpbf16ps(0, 4, 6);
    _tile_dpbf16ps(2, 5, 6);
    if constexpr (Columns == 32) {
      _tile_dpbf16ps(1, 4, 7);
      _tile_dpbf16ps(3, 5, 7);
    }
  } else if constexpr (Types::kSignedB) {
    _tile_dpbssd(0, 4, 6);
    _tile_dpbssd(2, 5, 6);
    if constexpr (Columns == 32) {
      _tile_dpbssd(1, 4, 7);
      _tile_dpbssd(3, 5, 7);
    }
  } else {
    _tile_dpbsud(0, 4, 6);
    _tile_dpbsud(2, 5, 6);
    if constexpr (Columns == 32) {
      _tile_dpbsud(1, 4, 7);
      _tile_dpbsud(3, 5, 7);
    }
  }
  if constexpr (TileSums) {  // register 7 the ones (AmxTileRowSums), either sign's instruction
    static_assert(Columns == 16 && std::is_same_v<C, std::int32_t>);
    _tile_dpbsud(1, 4, 7);
    _tile_dpbsud(3, 5, 7);
  }
}

// Registers 0-3 += depths [0, k) of `rows` rows of A (at a, rs elements apart) times the panel of
// B's slots at x (kAmxStepA a step); each step also does a step of `side`'s work on its rows.
template <class Types, int Columns, class C, class A, class Side>
[[gnu::always_inline]] inline void amx_row_steps(std::int64_t k, const A* a, std::int64_t rs,
                                                 int rows, const C* x, std::uint8_t* stage,
                                                 Side& side) {
  constexpr int kDepths = Types::kStepDepths;
  constexpr bool kTileSums = std::is_same_v<Side, AmxTileRowSums>;
  const std::int64_t in_place = rows == kAmxRows ? k / kDepths : 0;
  const std::int64_t stride = rs * static_cast<std::int64_t>(sizeof(A));
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(a);
  std::int64_t s = 0;
  for (; s < in_place; ++s, bytes += kAmxRowBytes, x += kAmxStepA) {
    _tile_loadd(4, bytes, stride);
    _tile_loadd(5, bytes + 16 * stride, stride);
    amx_row_products<Types, Columns, kTileSums>(x);
    side.step(bytes, stride);
  }
  for (; s * kDepths < k; ++s, bytes += kAmxRowBytes, x += kAmxStepA) {
    const auto depths = static_cast<int>(std::min<std::int64_t>(kDepths, k - s * kDepths));
    stage_rows(bytes, stride, rows, depths * static_cast<int>(sizeof(A)), stage);
    _tile_loadd(4, stage, kAmxRowBytes);
    _tile_loadd(5, stage + 16 * kAmxRowBytes, kAmxRowBytes);
    amx_row_products<Types, Columns, kTileSums>(x);
    side.step(stage, kAmxRowBytes);
  }
}

// to[j * 32 + i] = from[i * 32 + j]: a 32 x 32 block between the tile registers' order (C's rows
// 32 values apart) and C's (its columns 32 values apart), moved as floats.
template <class C>
void transpose_32(const C* from, C* to) {
  transpose_blocks<simd::Avx512<float>, TransposeOrder::slots_outer>(
      reinterpret_cast<const float*>(from), kAmxRows, kAmxRows, kAmxRows,
      reinterpret_cast<float*>(to), kAmxRows);
}

// One tile of C (at most 32 x 32), C = alpha AB + beta C over depths [0, k) of `c.rows` rows of
// A and the panel x of B's slots, in slices `slice` depths deep as the packed path takes them
// (kernels/amx_tile.hpp, amx_tile_of): a slice with alpha 1 and beta 0 or 1 takes its products
// in place on C's values, which then run on through every later such slice without a store
// between (storing and reloading a float changes nothing); any other slice sums its products
// from zero and C = alpha AB + beta C after, beta the call's in the first slice and 1 after
// (float C only: the int8 products take alpha 1 and beta 0 or 1, kernels/problem.hpp).
template <class Types, int Columns, class C, class A, class Side>
void amx_row_tile_of(std::int64_t k, std::int64_t slice, const A* a, std::int64_t rs, const C* x,
                     const TileC<C>& c, std::uint8_t* stage, Side& side) {
  alignas(64) C tiles[kAmxRows * kAmxRows];   // the registers' order
  alignas(64) C column[kAmxRows * kAmxRows];  // C's order, columns 32 values apart
  constexpr int kDepths = Types::kStepDepths;
  std::int64_t k0 = 0;
  if constexpr (std::is_same_v<C, float>) {
    for (; k0 < k && (c.alpha != 1 || (k0 == 0 && c.beta != 0 && c.beta != 1)); k0 += slice) {
      const std::int64_t depths = std::min(slice, k - k0);
      amx_zero_c<32>();
      amx_row_steps<Types, Columns>(depths, a + k0, rs, c.rows, x + k0 / kDepths * kAmxStepA, stage,
                                    side);
      amx_store_c<32>(tiles, kAmxRows);
      transpose_32(tiles, column);
      TileC<C> slice_c = c;
      if (k0 > 0) slice_c.beta = 1;
      apply_alpha_beta(column, slice_c);
    }
    if (k0 >= k) return;
  }
  amx_zero_c<32>();
  if (k0 > 0 || c.beta == 1) {
    std::fill(column, column + kAmxRows * kAmxRows, C{0});
    copy_block(c.data, c.ld, column, kAmxRows, c.rows, c.cols);
    transpose_32(column, tiles);
    amx_load_c<32>(tiles, kAmxRows);  // columns past C's zero
  }
  if constexpr (std::is_same_v<Side, AmxTileRowSums>) _tile_loadd(7, kAmxOnes.data(), kAmxRowBytes);
  amx_row_steps<Types, Columns>(k - k0, a + k0, rs, c.rows, x + k0 / kDepths * kAmxStepA, stage,
                                side);
  amx_store_c<32>(tiles, kAmxRows);
  if constexpr (std::is_same_v<Side, AmxTileRowSums>) {
    for (int i = 0; i < kAmxRows; ++i) side.row_sums[i] = tiles[i * kAmxRows + 16];
  }
  transpose_32(tiles, column);
  copy_block(column, kAmxRows, c.data, c.ld, c.rows, c.cols);
}
template <class Types, class C, class A, class Side>
[[gnu::noinline]] void amx_row_tile(std::int64_t k, std::int64_t slice, const A* a, std::int64_t rs,
                                    const C* x, const TileC<C>& c, std::uint8_t* stage,
                                    Side& side) {
  if constexpr (std::is_same_v<Side, AmxTileRowSums>) {
    amx_row_tile_of<Types, 16>(k, slice, a, rs, x, c, stage, side);  // c.cols <= 16
  } else if (c.cols <= 16) {
    amx_row_tile_of<Types, 16>(k, slice, a, rs, x, c, stage, side);
  } else {
    amx_row_tile_of<Types, 32>(k, slice, a, rs, x, c, stage, side);
  }
}

}  // namespace ridge::kernels

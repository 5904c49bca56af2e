// The GEMM tile on Intel AMX (Advanced Matrix Extensions): a 32 x 32 tile of C held in four of
// the eight tile registers (16 rows of 64 bytes each) while the depth runs in tile steps of 16
// slots (bf16 pairs or int8 quads), each step four TDPBF16PS (float C) or TDPBUSD (int32 C),
// each of those 16 x 16 x 16 slot products: 256 times the products of one VDPBF16PS or
// VPDPBUSD. (Intel 64 and IA-32 Architectures Optimization Reference Manual, "Intel AMX"; Intel
// Architecture Instruction Set Extensions Programming Reference, TDPBF16PS and TDPBUSD.)
//
// The tile instructions name a product's rows as its first operand's (tsrc1, k contiguous in
// each row) and its columns as the second's (tsrc2, pairs or quads of k in a 32-bit slot, as
// VDPBF16PS and VPDPBUSD take them). The internal problem's C is column-major, so a C tile
// register's rows are C's columns j (16 values of rows i each, stored ldc apart as C is), tsrc1
// holds B's columns (packed by kernels/pack_k_rows.hpp, 64 bytes of depths a row: unsigned
// bytes for TDPBUSD) and tsrc2 A's rows as kernels/pack_pairs.hpp and pack_quads.hpp pack them
// for the vector kernels: [slots][MR] with MR = 32, a register's 16 rows 128 bytes apart.
//
// bf16: the products are exact and summed in float, pair by pair in depth order into the tile's
// sums, reading bf16 subnormals as zero and writing float subnormals as zero (as VDPBF16PS).
// int8: exact int32 sums, wrapping as VPDPBUSD's do.
// Include only from sources compiled with the AMX flags (cmake/isa_flags.cmake).
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/microkernel.hpp"
#include "simd/avx512.hpp"

namespace ridge::kernels {

inline constexpr int kAmxRows = 32;      // rows of C a tile (MR: A's packed panels)
inline constexpr int kAmxColumns = 32;   // columns of C a tile (NR: B's packed strips)
inline constexpr int kAmxSlots = 16;     // depth slots (pairs or quads) a tile step takes
inline constexpr int kAmxRowBytes = 64;  // a tile register row
// A step's 32-bit slots of A and bytes of B.
inline constexpr int kAmxStepA = kAmxSlots * kAmxRows;
inline constexpr int kAmxStepB = kAmxRowBytes * kAmxColumns;

// The tile registers' shapes for the kernel below (LDTILECFG's 64-byte operand, palette 1):
// every register 16 rows of 64 bytes. Loaded per calling thread by AmxTiles.
struct alignas(64) AmxTileConfig {
  std::uint8_t palette = 1;
  std::uint8_t start_row = 0;
  std::uint8_t reserved[14] = {};
  std::uint16_t row_bytes[16] = {};
  std::uint8_t rows[16] = {};
};

// The tile registers configured for the kernel while in scope, released after (TILERELEASE:
// the thread then holds no AMX state, which the OS need not save, and another library's tiles
// start from their own configuration, as this one does on every call).
class AmxTiles {
 public:
  AmxTiles() {
    AmxTileConfig config;
    for (int t = 0; t < 8; ++t) {
      config.row_bytes[t] = kAmxRowBytes;
      config.rows[t] = kAmxSlots;
    }
    // LDTILECFG through an operand of the whole 64 bytes: GCC 12's _tile_loadconfig names only
    // the first 8 as read, so the compiler may drop the stores of the rest before it (seen: the
    // row widths left zero, and LDTILECFG faulting on the invalid configuration).
    asm volatile("ldtilecfg %0" : : "m"(config));
  }
  ~AmxTiles() { _tile_release(); }
  AmxTiles(const AmxTiles&) = delete;
  AmxTiles& operator=(const AmxTiles&) = delete;
};

// Registers 0-3 += `steps` tile steps of A's slots (a, kAmxStepA a step) times B's rows (b,
// kAmxStepB bytes a step): 0 and 1 columns 0-15 by rows 0-15 and 16-31, 2 and 3 columns 16-31
// (with Columns = 16, registers 0 and 1 alone: a strip of at most 16 columns, B's zero columns
// not multiplied). T: C's type, float (bf16 pairs) or int32 (int8 quads). Each step also does a
// step of `side`'s work, on the core's load ports while the tile unit multiplies.
template <class T, int Columns, bool kStreamA, class Side>
[[gnu::always_inline]] inline void amx_steps_of(std::int64_t steps, const T* a,
                                                const std::uint8_t* b, Side& side) {
  static_assert(Columns == 16 || Columns == 32);
  for (std::int64_t s = 0; s < steps; ++s, a += kAmxStepA, b += kAmxStepB) {
    _tile_loadd(4, b, kAmxRowBytes);
    if constexpr (Columns == 32) _tile_loadd(5, b + kAmxStepB / 2, kAmxRowBytes);
    if constexpr (kStreamA) {
      _tile_stream_loadd(6, a, kAmxRows * 4);
      _tile_stream_loadd(7, a + 16, kAmxRows * 4);
    } else {
      _tile_loadd(6, a, kAmxRows * 4);
      _tile_loadd(7, a + 16, kAmxRows * 4);
    }
    if constexpr (std::is_same_v<T, float>) {
      _tile_dpbf16ps(0, 4, 6);
      _tile_dpbf16ps(1, 4, 7);
      if constexpr (Columns == 32) {
        _tile_dpbf16ps(2, 5, 6);
        _tile_dpbf16ps(3, 5, 7);
      }
    } else {
      _tile_dpbusd(0, 4, 6);
      _tile_dpbusd(1, 4, 7);
      if constexpr (Columns == 32) {
        _tile_dpbusd(2, 5, 6);
        _tile_dpbusd(3, 5, 7);
      }
    }
    side.step();
  }
}
// With `stream_a`, A's registers load by TILELOADDT1, which leaves their lines out of L1: where
// B's strip fits in L1 beside the rest, it then stays there for every tile of the strip and only
// A's panel streams from L2 (gemm/amx_loops.hpp, AmxLoops::streams_a).
template <class T, int Columns, class Side>
[[gnu::always_inline]] inline void amx_steps(std::int64_t steps, const T* a, const std::uint8_t* b,
                                             bool stream_a, Side& side) {
  if (stream_a) {
    amx_steps_of<T, Columns, true>(steps, a, b, side);
  } else {
    amx_steps_of<T, Columns, false>(steps, a, b, side);
  }
}

// Registers 0-3 (0 and 1) zeroed, or from or to a 32 x Columns column-major block at c,
// columns ld apart.
template <int Columns>
[[gnu::always_inline]] inline void amx_zero_c() {
  _tile_zero(0);
  _tile_zero(1);
  if constexpr (Columns == 32) {
    _tile_zero(2);
    _tile_zero(3);
  }
}
template <int Columns, class T>
[[gnu::always_inline]] inline void amx_load_c(const T* c, std::int64_t ld) {
  const std::int64_t stride = ld * 4;
  _tile_loadd(0, c, stride);
  _tile_loadd(1, c + 16, stride);
  if constexpr (Columns == 32) {
    _tile_loadd(2, c + 16 * ld, stride);
    _tile_loadd(3, c + 16 * ld + 16, stride);
  }
}
template <int Columns, class T>
[[gnu::always_inline]] inline void amx_store_c(T* c, std::int64_t ld) {
  const std::int64_t stride = ld * 4;
  _tile_stored(0, c, stride);
  _tile_stored(1, c + 16, stride);
  if constexpr (Columns == 32) {
    _tile_stored(2, c + 16 * ld, stride);
    _tile_stored(3, c + 16 * ld + 16, stride);
  }
}

// Copies the rows x cols present of a column-major block (columns from_ld apart) to one whose
// columns are to_ld apart.
template <class T>
void copy_block(const T* from, std::int64_t from_ld, T* to, std::int64_t to_ld, int rows,
                int cols) {
  for (int j = 0; j < cols; ++j) std::memcpy(to + j * to_ld, from + j * from_ld, rows * sizeof(T));
}

// C = alpha AB + beta C on a float tile from AB's sums (ab, columns kAmxRows apart), as the
// micro-kernel's general case (kernels/microkernel.hpp).
inline void apply_alpha_beta(const float* ab, const TileC<float>& c) {
  using O = simd::Avx512<float>;
  const O::reg alpha = O::set1(c.alpha), beta = O::set1(c.beta);
  const bool read_c = c.beta != 0;  // beta = 0: NaN already in C does not propagate
  for (int j = 0; j < c.cols; ++j)
    for (int i = 0; i < c.rows; i += O::width) {
      const int n = c.rows - i < O::width ? c.rows - i : O::width;
      float* cij = c.data + j * c.ld + i;
      const O::reg old = read_c ? O::mul(beta, O::load_partial(cij, n)) : O::zero();
      O::store_partial(cij, O::fma(alpha, O::load_partial(ab + j * kAmxRows + i, n), old), n);
    }
}

// One tile of C (at most 32 x 32) from `steps` tile steps of A's panel and B's strip, zero-padded
// past the depth, C = alpha AB + beta C. With alpha = 1 and beta 0 or 1, nearly every call, C's
// tile starts as zero or as C and takes the products in place (C + p1 + p2 + ...); otherwise the
// products are summed from zero and C = alpha AB + beta C after, as the micro-kernel does
// (kernels/microkernel.hpp), one FMA an element (float C only: the int8 GEMM's products take
// alpha 1 and beta 0 or 1, kernels/problem.hpp). A tile at the edge of C takes the same steps on
// a copy, so that no element's value depends on where the tiles fall; one of at most 16 columns
// runs half the tile registers. Each step also does a step of `side`'s work (amx_steps). Where
// `sums` is not null (a whole tile of the in-place case), the result goes there (columns
// kAmxRows apart) and C is only read.
template <int Columns, class T, class Side>
[[gnu::always_inline]] inline void amx_tile_of(std::int64_t steps, const T* a,
                                               const std::uint8_t* b, const TileC<T>& c,
                                               bool stream_a, Side& side, T* sums) {
  const bool full = c.rows == kAmxRows && c.cols == Columns;
  alignas(64) T copy[kAmxRows * Columns];
  if (std::is_same_v<T, std::int32_t> || (c.alpha == 1 && (c.beta == 0 || c.beta == 1))) {
    T* const tile = full ? c.data : copy;
    const std::int64_t ld = full ? c.ld : kAmxRows;
    if (c.beta == 1) {
      if (!full) copy_block(c.data, c.ld, copy, kAmxRows, c.rows, c.cols);
      amx_load_c<Columns>(tile, ld);
    } else {
      amx_zero_c<Columns>();
    }
    amx_steps<T, Columns>(steps, a, b, stream_a, side);
    if (sums != nullptr) {
      amx_store_c<Columns>(sums, kAmxRows);
      return;
    }
    amx_store_c<Columns>(tile, ld);
    if (!full) copy_block(copy, kAmxRows, c.data, c.ld, c.rows, c.cols);
    return;
  }
  amx_zero_c<Columns>();
  amx_steps<T, Columns>(steps, a, b, stream_a, side);
  amx_store_c<Columns>(copy, kAmxRows);
  if constexpr (std::is_same_v<T, float>) apply_alpha_beta(copy, c);
}
template <class T, class Side>
[[gnu::noinline]] void amx_tile(std::int64_t steps, const T* a, const std::uint8_t* b,
                                const TileC<T>& c, bool stream_a, Side side, T* sums = nullptr) {
  if (c.cols <= 16) {
    amx_tile_of<16>(steps, a, b, c, stream_a, side, sums);
  } else {
    amx_tile_of<32>(steps, a, b, c, stream_a, side, sums);
  }
}

}  // namespace ridge::kernels

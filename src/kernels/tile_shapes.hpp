// Each ISA's register tiles, derived from its register file and FMA units: the GEMM micro-tile
// (MV vector registers of rows by NR columns; attention's tiles run on the same micro-kernel with
// the same shape), the narrow tiles of small products and the dot-product tiles.
#pragma once

namespace ridge::kernels {

// The FMA units a tile must keep busy: an accumulator can take its next FMA only latency_cycles
// after its last, and per_cycle FMAs of the ISA's width issue each cycle, so latency_cycles x
// per_cycle independent accumulators are needed in flight. These are the figures of the cores
// ridge is measured on (the probe's FMA peak divided by clock x lanes x 2 gives per_cycle: 2 for
// 256-bit FMA on AMD Zen 3 and Zen 4, 1 for 512-bit on Zen 4).
struct FmaUnits {
  int latency_cycles = 4;
  int per_cycle = 2;
  constexpr int in_flight() const { return latency_cycles * per_cycle; }
};

struct TileShape {
  int mv = 0, nr = 0;  // the micro-tile: mv vectors of rows by nr columns, mv x nr accumulators
  // The narrow tiles (products whose B fits L1, gemm/loops.hpp): the fewest accumulators that
  // keep the FMA units busy, twice the FMAs in flight. Where that is not below the full tile's
  // mv x nr, the full tile is already narrow enough and there are no narrow tiles.
  int narrow_accumulators = 0;
  int dot_rows = 0, dot_columns = 0;  // dot-product tiles (kernels/dot.hpp): rows x columns
};

constexpr TileShape tile_shape(int mv, int nr, FmaUnits fma, int dot_rows, int dot_columns) {
  return {mv, nr, 2 * fma.in_flight(), dot_rows, dot_columns};
}

// Portable traits (SSE2 on x86-64, ASIMD on aarch64): 128-bit vectors, 16 registers. 8 x 6
// (float) and 4 x 6 (double): 12 accumulators + 2 A registers + 1 broadcast = 15. Dot tiles 3 x 4:
// 12 accumulators + 3 A + 1 B = 16.
inline constexpr TileShape kGenericTiles = tile_shape(2, 6, FmaUnits{4, 2}, 3, 4);

// AVX2 + FMA: 256-bit vectors, 16 registers. 16 x 6 (float) and 8 x 6 (double): 12 accumulators
// + 2 A registers + 1 broadcast = 15 of 16, as in BLIS's haswell kernels; 12 independent chains
// cover the 8 FMAs in flight of two 256-bit pipes. Narrow tiles would need 16 accumulators, more
// than the tile has: none. Dot tiles 3 x 4: 12 accumulators + 3 A + 1 B = 16 registers.
inline constexpr TileShape kAvx2Tiles = tile_shape(2, 6, FmaUnits{4, 2}, 3, 4);

// AVX-512: 512-bit vectors, 32 registers. 32 x 12 (float) and 16 x 12 (double): 24 accumulators
// + 2 A registers + 1 broadcast = 27 of 32; per k step 2 vector loads and 12 broadcasts feed 24
// FMAs, inside two load ports per cycle. Narrow tiles: 8 accumulators for one 512-bit FMA per
// cycle, so 32 x 4 (float) and 16 x 4 (double). Dot tiles 6 x 4: 24 accumulators + 6 A + 1 B =
// 31 registers, 4 loads of B from L2 per 24 FMAs per vector of depth. Measured, sgemm x W^T on 1
// thread (Zen 4): 8 x 4096 x 4096 51 GFLOP/s with 3 x 8 tiles, 60 with 6 x 4; 32 x 4096 x 4096
// 68 and 87.
inline constexpr TileShape kAvx512Tiles = tile_shape(2, 12, FmaUnits{4, 1}, 6, 4);

}  // namespace ridge::kernels

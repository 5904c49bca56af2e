// Each ISA's register tiles, derived from its register file and FMA units: the GEMM micro-tile
// (MV vector registers of rows by NR columns; attention's tiles run on the same micro-kernel with
// the same shape), the narrow tiles of small products and the dot-product tiles.
#pragma once

namespace ridge::kernels {

// A narrow tile must keep the FMA units busy: an accumulator can take its next FMA only
// kFmaLatencyCycles after its last, and `pipes` FMAs of the ISA's width issue each cycle, so it
// holds twice latency x pipes accumulators (twice: the loads and the loop share the cycles). The
// pipes differ between cores of the same ISA (one 512-bit FMA a cycle on Zen 4, two on Xeons with
// two FMA units), and the probe's measurement of them picks the tiles (gemm/dispatch.cpp). The
// latency is 4 cycles on every x86 core since Skylake and Zen 3.
inline constexpr int kFmaLatencyCycles = 4;
inline constexpr int kMaxFmaPipes = 2;

struct TileShape {
  int mv = 0, nr = 0;  // the micro-tile: mv vectors of rows by nr columns, mv x nr accumulators
  int dot_rows = 0, dot_columns = 0;  // dot-product tiles (kernels/dot.hpp): rows x columns
  // The most columns of B against which the direct path runs tall tiles, 2 mv vectors of rows
  // (gemm/loops.hpp); 0: none.
  int tall_columns = 0;

  // Columns of the narrow mv-vector tiles (products whose B fits L1, gemm/loops.hpp) for `pipes`
  // FMA units: the fewest that keep one pipe busy; nr (none) for two, and where the full tile is
  // already that narrow. A narrow tile ends in fewer stores, and its successor starts while it
  // finishes; with two pipes the full tile's fewer loads per FMA count more. Measured, 1 thread,
  // 16^3 to 96^3, narrow tiles against the full 12 columns: Zen 4 (one 512-bit pipe), 4 columns
  // 1-3% faster; the 2-vCPU Xeon guest (two), 8 columns (twice latency x pipes) 3-6% slower in
  // sgemm and 5-9% in dgemm, 4 columns slower still.
  constexpr int narrow_columns(int pipes) const {
    const int columns = (2 * kFmaLatencyCycles + mv - 1) / mv;
    return pipes == 1 && columns < nr ? columns : nr;
  }
};

// Portable traits (SSE2 on x86-64, ASIMD on aarch64): 128-bit vectors, 16 registers. 8 x 6
// (float) and 4 x 6 (double): 12 accumulators + 2 A registers + 1 broadcast = 15. Narrow tiles
// 8 x 4 for one FMA pipe. Dot tiles 3 x 4: 12 accumulators + 3 A + 1 B = 16.
inline constexpr TileShape kGenericTiles{2, 6, 3, 4};

// AVX2 + FMA: 256-bit vectors, 16 registers. 16 x 6 (float) and 8 x 6 (double): 12 accumulators
// + 2 A registers + 1 broadcast = 15 of 16, as in BLIS's haswell kernels; 12 independent chains
// cover the 8 FMAs in flight of two 256-bit pipes. Narrow tiles 16 x 4 for one pipe; two would
// need 16 accumulators, more than the tile has. Dot tiles 3 x 4: 12 accumulators + 3 A + 1 B = 16
// registers.
inline constexpr TileShape kAvx2Tiles{2, 6, 3, 4};

// AVX-512: 512-bit vectors, 32 registers. 32 x 12 (float) and 16 x 12 (double): 24 accumulators
// + 2 A registers + 1 broadcast = 27 of 32; per k step 2 vector loads and 12 broadcasts feed 24
// FMAs, inside two load ports per cycle. Narrow tiles: 32 x 4 (float) and 16 x 4 (double) for
// one 512-bit pipe; with two the full tile (TileShape::narrow_columns). Dot
// tiles 6 x 4: 24 accumulators + 6 A + 1 B = 31 registers, 4 loads of B from L2 per 24 FMAs per
// vector of depth. Measured, sgemm x W^T on 1 thread (Zen 4): 8 x 4096 x 4096 51 GFLOP/s with
// 3 x 8 tiles, 60 with 6 x 4; 32 x 4096 x 4096 68 and 87. Tall tiles 64 x 6 (float) and 32 x 6
// (double) for the direct path against up to 6 columns of B, where 32 (16) rows would hold only
// 2 accumulators a column: 24 accumulators + 4 A + 1 broadcast = 29 registers, each broadcast
// feeding twice the FMAs. Measured on the 2-vCPU Xeon guest, sgemm
// row-major x W, W within L2, alternated, two rounds, GFLOP/s, 32-row tiles against tall ones:
// 1 thread 3 / 4 / 5 / 6 x 512 x 512 75-78 / 85-90 / 106-108 / 122 against 91-94 / 115-116 /
// 125-126 / 143-147; 2 threads 112 / 140 / 152-168 / 165-184 against 129-137 / 167-173 /
// 161-172 / 193-198, 6 x 520 x 520 214-217 against 202-205, 6 x 2048 x 128 178-180 against
// 207-210; from memory (5 / 6 x 4096 x 4096) level; dgemm level to 1.2x.
inline constexpr TileShape kAvx512Tiles{2, 12, 6, 4, 6};

}  // namespace ridge::kernels

// Tile-register throughput loops (AMX): TDPBF16PS and TDPBUSD on tiles that stay in the
// registers, the tile unit's own rate with no loads to wait for. Compiled with
// RIDGE_AVX512_AMX_FLAGS; run only where the CPU has the tiles and the process may use them
// (runtime/amx.hpp).
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "kernels/amx_tile.hpp"
#include "probe/fma_loop.hpp"

namespace ridge::avx512_amx {
namespace {

// Operations of one tile instruction on full 16 x 64-byte tiles: 16 x 16 results, each the sum
// of 32 bf16 or 64 int8 products, 2 operations a product.
constexpr std::int64_t kBf16Ops = 16 * 16 * 32 * 2;
constexpr std::int64_t kInt8Ops = 16 * 16 * 64 * 2;

// `Tiles` accumulator tiles (4: two A and two B tiles, as the GEMM tile; 6: one of each) stepped
// `iterations` times from A's bytes `a` and B's `b`; the sink gets the sum over the accumulators
// of their first element.
template <bool Int8, int Tiles>
std::int64_t tile_chains(std::int64_t iterations, volatile double* sink) {
  static_assert(Tiles == 4 || Tiles == 6);
  const kernels::AmxTiles tiles;
  alignas(64) std::uint8_t a[1024], b[1024];
  // bf16 1/1024 (0x3a80) and 1/2048 (0x3a00); int8 3 and -2.
  for (int i = 0; i < 1024; ++i) {
    a[i] = Int8 ? 3 : (i % 2 ? 0x3a : 0x80);
    b[i] = Int8 ? 0xfe : (i % 2 ? 0x3a : 0x00);
  }
  for (int t = 0; t < Tiles; ++t) {
    // (_tile_zero takes an immediate.)
    switch (t) {
      case 0:
        _tile_zero(0);
        break;
      case 1:
        _tile_zero(1);
        break;
      case 2:
        _tile_zero(2);
        break;
      case 3:
        _tile_zero(3);
        break;
      case 4:
        _tile_zero(4);
        break;
      default:
        _tile_zero(5);
        break;
    }
  }
#define RIDGE_TILE_DP(c, x, y) \
  if constexpr (Int8) {        \
    _tile_dpbusd(c, x, y);     \
  } else {                     \
    _tile_dpbf16ps(c, x, y);   \
  }
  if constexpr (Tiles == 4) {
    _tile_loadd(4, a, 64);
    _tile_loadd(5, a, 64);
    _tile_loadd(6, b, 64);
    _tile_loadd(7, b, 64);
    for (std::int64_t i = 0; i < iterations; ++i) {
      RIDGE_TILE_DP(0, 4, 6);
      RIDGE_TILE_DP(1, 4, 7);
      RIDGE_TILE_DP(2, 5, 6);
      RIDGE_TILE_DP(3, 5, 7);
    }
  } else {
    _tile_loadd(6, a, 64);
    _tile_loadd(7, b, 64);
    for (std::int64_t i = 0; i < iterations; ++i) {
      RIDGE_TILE_DP(0, 6, 7);
      RIDGE_TILE_DP(1, 6, 7);
      RIDGE_TILE_DP(2, 6, 7);
      RIDGE_TILE_DP(3, 6, 7);
      RIDGE_TILE_DP(4, 6, 7);
      RIDGE_TILE_DP(5, 6, 7);
    }
  }
#undef RIDGE_TILE_DP
  alignas(64) std::uint8_t out[Tiles][1024];
  _tile_stored(0, out[0], 64);
  _tile_stored(1, out[1], 64);
  _tile_stored(2, out[2], 64);
  _tile_stored(3, out[3], 64);
  if constexpr (Tiles == 6) {
    _tile_stored(4, out[4], 64);
    _tile_stored(5, out[5], 64);
  }
  double sum = 0;
  for (int t = 0; t < Tiles; ++t) {
    if constexpr (Int8) {
      std::int32_t first;
      std::memcpy(&first, out[t], sizeof first);
      sum += first;
    } else {
      float first;
      std::memcpy(&first, out[t], sizeof first);
      sum += first;
    }
  }
  *sink = sum;
  return iterations * Tiles * (Int8 ? kInt8Ops : kBf16Ops);
}

}  // namespace

// Run `bf16` only where IsaFeatures::amx_bf16 is set and `int8` only where amx_int8 is, and
// runtime::amx_usable().
probe::DotLoops tile_loops() {
  return {{{4, tile_chains<false, 4>}, {6, tile_chains<false, 6>}},
          {{4, tile_chains<true, 4>}, {6, tile_chains<true, 6>}}};
}

}  // namespace ridge::avx512_amx

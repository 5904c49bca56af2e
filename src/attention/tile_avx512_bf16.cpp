// The attention tile for bf16 inputs on AVX512_BF16 (compiled with its ISA flags, see
// src/CMakeLists.txt): the avx512 tile with Q K^T on bf16 pairs (simd/avx512_bf16.hpp).
#include "attention/flash_tile.hpp"
#include "gemm/micro_tiles.hpp"
#include "simd/avx512_bf16.hpp"

namespace ridge::attention_detail {

// The avx512 micro-tile, as attention/tile_avx512.cpp.
TileKernel<bf16> avx512_bf16_tile_kernel(Exp2 variant) {
  return tile_kernel<simd::Avx512<float>, gemm_detail::kAvx512MicroTile.mv,
                     gemm_detail::kAvx512MicroTile.nr, bf16, simd::Avx512Bf16Pairs>(variant);
}

}  // namespace ridge::attention_detail

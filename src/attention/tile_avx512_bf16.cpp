// The attention kernels for bf16 inputs on AVX512_BF16: the avx512 tile with Q K^T on bf16 pairs
// (simd/avx512_bf16.hpp; a per-ISA unit: simd/isa_unit.hpp).
#include "attention/flash_tile.hpp"
#include "simd/avx512_bf16.hpp"

namespace ridge::avx512_bf16 {

attention_detail::TileKernel<bf16> attention_kernel_bf16(Exp2 variant) {
  return attention_detail::tile_kernel<simd::Avx512<float>, kernels::kAvx512Tiles, bf16,
                                       simd::Avx512Bf16Pairs>(variant);
}

}  // namespace ridge::avx512_bf16

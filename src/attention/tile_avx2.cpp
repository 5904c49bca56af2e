// The attention kernels on AVX2 + FMA, on the micro-tile of its GEMM (a per-ISA unit:
// simd/isa_unit.hpp).
#include "attention/flash_tile.hpp"
#include "simd/avx2.hpp"

namespace ridge::avx2 {

using V = simd::Avx2<float>;

attention_detail::TileKernel<float> attention_kernel_f32(Exp2 variant) {
  return attention_detail::tile_kernel<V, kernels::kAvx2Tiles, float>(variant);
}
attention_detail::TileKernel<bf16> attention_kernel_bf16(Exp2 variant) {
  return attention_detail::tile_kernel<V, kernels::kAvx2Tiles, bf16>(variant);
}
attention_detail::Exp2Kernel exp2_kernel(Exp2 variant) {
  return attention_detail::exp2_kernel<V>(variant);
}

}  // namespace ridge::avx2

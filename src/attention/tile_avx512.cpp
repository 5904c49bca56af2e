// The attention tile for the avx512 path (compiled with its ISA flags, see src/CMakeLists.txt).
#include "attention/flash_tile.hpp"
#include "gemm/micro_tiles.hpp"
#include "simd/avx512.hpp"

namespace ridge::attention_detail {

// The micro-tile of the avx512 GEMM: MV vectors of query rows by NR keys (or head_dim columns).
template <class In>
TileKernel<In> avx512_tile_kernel(Exp2 variant) {
  return tile_kernel<simd::Avx512<float>, gemm_detail::kAvx512MicroTile.mv,
                     gemm_detail::kAvx512MicroTile.nr, In>(variant);
}
template TileKernel<float> avx512_tile_kernel<float>(Exp2);
template TileKernel<bf16> avx512_tile_kernel<bf16>(Exp2);
Exp2Kernel avx512_exp2_kernel(Exp2 variant) { return exp2_kernel<simd::Avx512<float>>(variant); }

}  // namespace ridge::attention_detail

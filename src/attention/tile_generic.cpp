// The attention tile for the generic path (compiled with its ISA flags, see src/CMakeLists.txt).
#include "attention/flash_tile.hpp"
#include "gemm/micro_tiles.hpp"
#include "simd/generic.hpp"

namespace ridge::attention_detail {

// The micro-tile of the generic GEMM: MV vectors of query rows by NR keys (or head_dim columns).
template <class In>
TileKernel<In> generic_tile_kernel(Exp2 variant) {
  return tile_kernel<simd::Generic<float>, gemm_detail::kGenericMicroTile.mv,
                     gemm_detail::kGenericMicroTile.nr, In>(variant);
}
template TileKernel<float> generic_tile_kernel<float>(Exp2);
template TileKernel<bf16> generic_tile_kernel<bf16>(Exp2);
Exp2Kernel generic_exp2_kernel(Exp2 variant) { return exp2_kernel<simd::Generic<float>>(variant); }

}  // namespace ridge::attention_detail

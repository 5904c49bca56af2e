// The attention tile for the generic path (compiled with its ISA flags, see src/CMakeLists.txt).
#include "attention/flash_tile.hpp"
#include "simd/generic.hpp"

namespace ridge::attention_detail {

// The micro-tile of the generic GEMM (gemm/isa_generic.cpp): 2 vectors of query rows by 6 columns.
template <class In>
TileKernel<In> generic_tile_kernel(Exp2 variant) {
  return tile_kernel<simd::Generic<float>, 2, 6, In>(variant);
}
template TileKernel<float> generic_tile_kernel<float>(Exp2);
template TileKernel<bf16> generic_tile_kernel<bf16>(Exp2);
Exp2Kernel generic_exp2_kernel(Exp2 variant) { return exp2_kernel<simd::Generic<float>>(variant); }

}  // namespace ridge::attention_detail

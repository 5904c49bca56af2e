// The attention tile for the generic path (compiled with its ISA flags, see src/CMakeLists.txt).
#include "attention/flash_tile.hpp"
#include "simd/generic.hpp"

namespace ridge::attention_detail {

TileKernel generic_tile_kernel(Exp2 variant) { return tile_kernel<simd::Generic<float>>(variant); }
Exp2Kernel generic_exp2_kernel(Exp2 variant) { return exp2_kernel<simd::Generic<float>>(variant); }

}  // namespace ridge::attention_detail

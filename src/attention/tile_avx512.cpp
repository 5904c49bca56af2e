// The attention tile for the avx512 path (compiled with its ISA flags, see src/CMakeLists.txt).
#include "attention/flash_tile.hpp"
#include "simd/avx512.hpp"

namespace ridge::attention_detail {

TileKernel avx512_tile_kernel(Exp2 variant) { return tile_kernel<simd::Avx512<float>>(variant); }
Exp2Kernel avx512_exp2_kernel(Exp2 variant) { return exp2_kernel<simd::Avx512<float>>(variant); }

}  // namespace ridge::attention_detail

// The attention tile for the avx2 path (compiled with its ISA flags, see src/CMakeLists.txt).
#include "attention/flash_tile.hpp"
#include "simd/avx2.hpp"

namespace ridge::attention_detail {

// The micro-tile of the avx2 GEMM (gemm/isa_avx2.cpp): 2 vectors of query rows by 6 columns.
template <class In>
TileKernel<In> avx2_tile_kernel(Exp2 variant) {
  return tile_kernel<simd::Avx2<float>, 2, 6, In>(variant);
}
template TileKernel<float> avx2_tile_kernel<float>(Exp2);
template TileKernel<bf16> avx2_tile_kernel<bf16>(Exp2);
Exp2Kernel avx2_exp2_kernel(Exp2 variant) { return exp2_kernel<simd::Avx2<float>>(variant); }

}  // namespace ridge::attention_detail

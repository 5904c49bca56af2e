// Portable kernels (baseline SSE2 on x86-64, ASIMD on aarch64): 128-bit vectors, 16 registers.
// 8x6 (float) and 4x6 (double) tiles: 12 accumulators + 2 A registers + 1 broadcast = 15.
// Dot-product tiles 3x4, and no narrow tiles, as for AVX2.
// The MV x NR shape itself is in gemm/micro_tiles.hpp, shared with attention.
#include "gemm/loops.hpp"
#include "gemm/micro_tiles.hpp"
#include "simd/generic.hpp"

namespace ridge::gemm_detail {

KernelSet<float> generic_kernels_f32() {
  return make_kernel_set<simd::Generic<float>, kGenericMicroTile.mv, kGenericMicroTile.nr, 3, 4,
                         16>();
}
KernelSet<double> generic_kernels_f64() {
  return make_kernel_set<simd::Generic<double>, kGenericMicroTile.mv, kGenericMicroTile.nr, 3, 4,
                         16>();
}

}  // namespace ridge::gemm_detail

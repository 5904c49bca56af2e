// AVX2 + FMA kernels: 256-bit vectors, 16 registers. 16x6 (float) and 8x6 (double) tiles:
// 12 accumulators + 2 A registers + 1 broadcast = 15 of 16 registers, as in BLIS's haswell
// kernels; 12 independent FMA chains cover the 4-cycle latency of 2 FMA pipes (8 in flight).
// Narrow tiles would need 16 accumulators (twice those 8), more than the tile has: none.
// Dot-product tiles 3x4: 12 accumulators + 3 A + 1 B = 16 registers.
// The MV x NR shape itself is in gemm/micro_tiles.hpp, shared with attention.
#include "gemm/loops.hpp"
#include "gemm/micro_tiles.hpp"
#include "simd/avx2.hpp"

namespace ridge::gemm_detail {

KernelSet<float> avx2_kernels_f32() {
  return make_kernel_set<simd::Avx2<float>, kAvx2MicroTile.mv, kAvx2MicroTile.nr, 3, 4, 16>();
}
KernelSet<double> avx2_kernels_f64() {
  return make_kernel_set<simd::Avx2<double>, kAvx2MicroTile.mv, kAvx2MicroTile.nr, 3, 4, 16>();
}

}  // namespace ridge::gemm_detail

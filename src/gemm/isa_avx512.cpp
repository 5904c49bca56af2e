// AVX-512 kernels: 512-bit vectors, 32 registers. 32x12 (float) and 16x12 (double) tiles:
// 24 accumulators + 2 A registers + 1 broadcast = 27 of 32 registers. Per k step: 2 vector
// loads and 12 broadcasts feed 24 FMAs, well inside two load ports per cycle.
// Dot-product tiles 6x4: 24 accumulators + 6 A + 1 B = 31 registers; per vector of depth, 4 loads
// of B from L2 per 24 FMAs. Measured, 8 x 4096 x 4096 sgemm x W^T, 1 thread: 3x8 tiles 51
// GFLOP/s, 6x4 60; 32 x 4096 x 4096: 68 and 87.
// Narrow tiles (small problems, B in L1): 8 accumulators, twice the 4 FMAs in flight (Zen 4: one
// 512-bit FMA per cycle, 4-cycle latency), so 32 x 4 (float) and 16 x 4 (double).
// The MV x NR shape itself is in gemm/micro_tiles.hpp, shared with attention.
#include "gemm/loops.hpp"
#include "gemm/micro_tiles.hpp"
#include "simd/avx512.hpp"

namespace ridge::gemm_detail {

KernelSet<float> avx512_kernels_f32() {
  return make_kernel_set<simd::Avx512<float>, kAvx512MicroTile.mv, kAvx512MicroTile.nr, 6, 4, 8>();
}
KernelSet<double> avx512_kernels_f64() {
  return make_kernel_set<simd::Avx512<double>, kAvx512MicroTile.mv, kAvx512MicroTile.nr, 6, 4, 8>();
}

}  // namespace ridge::gemm_detail

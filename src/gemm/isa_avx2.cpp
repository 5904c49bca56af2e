// The GEMM loops on AVX2 + FMA, with the tiles of kernels/tile_shapes.hpp (a per-ISA unit:
// simd/isa_unit.hpp).
#include "gemm/loops.hpp"
#include "simd/avx2.hpp"

namespace ridge::avx2 {

gemm_detail::GemmKernels<float> gemm_kernels(float) {
  return gemm_detail::make_gemm_kernels<simd::Avx2<float>, kernels::kAvx2Tiles>();
}
gemm_detail::GemmKernels<double> gemm_kernels(double) {
  return gemm_detail::make_gemm_kernels<simd::Avx2<double>, kernels::kAvx2Tiles>();
}

}  // namespace ridge::avx2

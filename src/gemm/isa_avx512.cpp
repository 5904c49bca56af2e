// The GEMM loops on AVX-512, with the tiles of kernels/tile_shapes.hpp (a per-ISA unit:
// simd/isa_unit.hpp).
#include "gemm/loops.hpp"
#include "simd/avx512.hpp"

namespace ridge::avx512 {

gemm_detail::GemmKernels<float> gemm_kernels(float) {
  return gemm_detail::make_gemm_kernels<simd::Avx512<float>, kernels::kAvx512Tiles>();
}
gemm_detail::GemmKernels<double> gemm_kernels(double) {
  return gemm_detail::make_gemm_kernels<simd::Avx512<double>, kernels::kAvx512Tiles>();
}

}  // namespace ridge::avx512

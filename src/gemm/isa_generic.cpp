// The GEMM loops on the portable traits (the baseline ISA), with the tiles of kernels/tile_shapes.hpp (a per-ISA unit:
// simd/isa_unit.hpp).
#include "gemm/loops.hpp"
#include "simd/generic.hpp"

namespace ridge::generic {

gemm_detail::GemmKernels<float> gemm_kernels(float) {
  return gemm_detail::make_gemm_kernels<simd::Generic<float>, kernels::kGenericTiles>();
}
gemm_detail::GemmKernels<double> gemm_kernels(double) {
  return gemm_detail::make_gemm_kernels<simd::Generic<double>, kernels::kGenericTiles>();
}

}  // namespace ridge::generic

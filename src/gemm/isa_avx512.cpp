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

// bf16 operands, widened to float as they are packed: for CPUs without AVX512_BF16 (with it,
// the avx512_bf16 unit's pairs).
gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(float, std::uint16_t,
                                                                           std::uint16_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx512<float>, kernels::kAvx512Tiles, std::uint16_t,
                                        std::uint16_t>();
}

}  // namespace ridge::avx512

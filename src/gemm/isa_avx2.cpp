// The GEMM loops on AVX2 + FMA, with the tiles of kernels/tile_shapes.hpp (a per-ISA unit:
// simd/isa_unit.hpp).
#include "gemm/loops.hpp"
#include "simd/avx2.hpp"
#include "simd/avx2_int16_pairs.hpp"

namespace ridge::avx2 {

gemm_detail::GemmKernels<float> gemm_kernels(float) {
  return gemm_detail::make_gemm_kernels<simd::Avx2<float>, kernels::kAvx2Tiles>();
}
gemm_detail::GemmKernels<double> gemm_kernels(double) {
  return gemm_detail::make_gemm_kernels<simd::Avx2<double>, kernels::kAvx2Tiles>();
}

// bf16 operands, widened to float as they are packed.
gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(float, std::uint16_t,
                                                                           std::uint16_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx2<float>, kernels::kAvx2Tiles, std::uint16_t,
                                        std::uint16_t>();
}

// int8 operands as int16 pairs, on the float tile shape: with VPMADDWD's product in a register
// of its own before VPADDD, 12 accumulators + 2 A + 1 broadcast + 1 = 16 registers.
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(std::int32_t,
                                                                               std::int8_t,
                                                                               std::uint8_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx2Int16Pairs, kernels::kAvx2Tiles, std::int8_t,
                                        std::uint8_t>();
}
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(std::int32_t,
                                                                              std::int8_t,
                                                                              std::int8_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx2Int16Pairs, kernels::kAvx2Tiles, std::int8_t,
                                        std::int8_t>();
}

}  // namespace ridge::avx2

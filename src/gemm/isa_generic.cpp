// The GEMM loops on the portable traits (the baseline ISA), with the tiles of kernels/tile_shapes.hpp (a per-ISA unit:
// simd/isa_unit.hpp).
#include "gemm/loops.hpp"
#include "simd/generic.hpp"
#include "simd/generic_int16_pairs.hpp"

namespace ridge::generic {

gemm_detail::GemmKernels<float> gemm_kernels(float) {
  return gemm_detail::make_gemm_kernels<simd::Generic<float>, kernels::kGenericTiles>();
}
gemm_detail::GemmKernels<double> gemm_kernels(double) {
  return gemm_detail::make_gemm_kernels<simd::Generic<double>, kernels::kGenericTiles>();
}

// bf16 operands, widened to float as they are packed.
gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(float, std::uint16_t,
                                                                           std::uint16_t) {
  return gemm_detail::make_gemm_kernels<simd::Generic<float>, kernels::kGenericTiles, std::uint16_t,
                                        std::uint16_t>();
}

// int8 operands as int16 pairs, on the float tile shape.
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(std::int32_t,
                                                                               std::int8_t,
                                                                               std::uint8_t) {
  return gemm_detail::make_gemm_kernels<simd::GenericInt16Pairs, kernels::kGenericTiles,
                                        std::int8_t, std::uint8_t>();
}
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(std::int32_t,
                                                                              std::int8_t,
                                                                              std::int8_t) {
  return gemm_detail::make_gemm_kernels<simd::GenericInt16Pairs, kernels::kGenericTiles,
                                        std::int8_t, std::int8_t>();
}

}  // namespace ridge::generic

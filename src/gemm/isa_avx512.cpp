// The GEMM loops on AVX-512, with the tiles of kernels/tile_shapes.hpp (a per-ISA unit:
// simd/isa_unit.hpp).
#include "gemm/loops.hpp"
#include "simd/avx512.hpp"
#include "simd/avx512_int16_pairs.hpp"

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

// int8 operands as int16 pairs (AVX-512 BW), on the float tile shape: 24 accumulators + 2 A +
// 1 broadcast + VPMADDWD's product = 28 of 32 registers. For CPUs without AVX512_VNNI (with
// it, the avx512_vnni unit's quads), and the one-column product on every AVX-512 CPU.
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(std::int32_t,
                                                                               std::int8_t,
                                                                               std::uint8_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx512Int16Pairs, kernels::kAvx512Tiles, std::int8_t,
                                        std::uint8_t>();
}
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(std::int32_t,
                                                                              std::int8_t,
                                                                              std::int8_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx512Int16Pairs, kernels::kAvx512Tiles, std::int8_t,
                                        std::int8_t>();
}

}  // namespace ridge::avx512

// The GEMM loops for bf16 and int8 operands on AMX: the AVX512_BF16 and AVX512_VNNI units' kernel
// sets (simd/avx512_bf16.hpp, simd/avx512_int8_quads.hpp) with their packed paths on AMX tiles
// (gemm/amx_loops.hpp). A per-ISA unit: simd/isa_unit.hpp.
#include "gemm/amx_loops.hpp"
#include "simd/avx512_bf16.hpp"
#include "simd/avx512_int8_quads.hpp"

namespace ridge::avx512_amx {

gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(float, std::uint16_t,
                                                                           std::uint16_t) {
  return gemm_detail::make_amx_kernels<simd::Avx512Bf16Pairs, std::uint16_t, std::uint16_t>(
      "avx512_amx_bf16");
}
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(std::int32_t,
                                                                               std::int8_t,
                                                                               std::uint8_t) {
  return gemm_detail::make_amx_kernels<simd::Avx512Int8Quads, std::int8_t, std::uint8_t>(
      "avx512_amx_int8");
}
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(std::int32_t,
                                                                              std::int8_t,
                                                                              std::int8_t) {
  return gemm_detail::make_amx_kernels<simd::Avx512Int8Quads, std::int8_t, std::int8_t>(
      "avx512_amx_int8");
}

}  // namespace ridge::avx512_amx

// The GEMM loops for int8 operands on AVX512_VNNI: the AVX-512 tile shape on int8 quads, each
// lane's four products summed by VPDPBUSD (simd/avx512_int8_quads.hpp), the zero points
// corrected after the product (kernels/pack_quads.hpp). A per-ISA unit: simd/isa_unit.hpp.
#include "gemm/loops.hpp"
#include "simd/avx512_int8_quads.hpp"

namespace ridge::avx512_vnni {

gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(std::int32_t,
                                                                               std::int8_t,
                                                                               std::uint8_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx512Int8Quads, kernels::kAvx512Tiles, std::int8_t,
                                        std::uint8_t>();
}
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(std::int32_t,
                                                                              std::int8_t,
                                                                              std::int8_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx512Int8Quads, kernels::kAvx512Tiles, std::int8_t,
                                        std::int8_t>();
}

}  // namespace ridge::avx512_vnni

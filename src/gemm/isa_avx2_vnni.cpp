// The GEMM loops for int8 operands on AVX-VNNI: AVX2's tile shape on int8 quads, each lane's
// four products summed by VPDPBUSD (simd/avx2_int8_quads.hpp), the zero points corrected after
// the product (kernels/pack_quads.hpp). A per-ISA unit: simd/isa_unit.hpp.
#include "gemm/loops.hpp"
#include "simd/avx2_int8_quads.hpp"

namespace ridge::avx2_vnni {

// 12 accumulators + 2 of A + 1 broadcast: VPDPBUSD adds into its accumulator, so no product
// register beside them as the int16 pairs need.
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::uint8_t> gemm_kernels(std::int32_t,
                                                                               std::int8_t,
                                                                               std::uint8_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx2Int8Quads, kernels::kAvx2Tiles, std::int8_t,
                                        std::uint8_t>();
}
gemm_detail::GemmKernels<std::int32_t, std::int8_t, std::int8_t> gemm_kernels(std::int32_t,
                                                                              std::int8_t,
                                                                              std::int8_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx2Int8Quads, kernels::kAvx2Tiles, std::int8_t,
                                        std::int8_t>();
}

}  // namespace ridge::avx2_vnni

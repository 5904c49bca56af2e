// The GEMM loops for bf16 operands on AVX512_BF16: the AVX-512 tile shape on bf16 pairs, each
// lane's two products summed by VDPBF16PS (simd/avx512_bf16.hpp; the micro-kernel attention's
// Q K^T tiles run on too), at twice the float FMA's products per instruction. A per-ISA unit:
// simd/isa_unit.hpp.
#include "gemm/loops.hpp"
#include "simd/avx512_bf16.hpp"

namespace ridge::avx512_bf16 {

gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(float, std::uint16_t,
                                                                           std::uint16_t) {
  return gemm_detail::make_gemm_kernels<simd::Avx512Bf16Pairs, kernels::kAvx512Tiles, std::uint16_t,
                                        std::uint16_t>();
}

}  // namespace ridge::avx512_bf16

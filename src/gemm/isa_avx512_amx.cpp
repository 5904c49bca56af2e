// The GEMM loops for bf16 operands on AMX-BF16: the AVX512_BF16 unit's kernel set (simd/
// avx512_bf16.hpp) with its packed paths on AMX tiles (gemm/amx_loops.hpp). A per-ISA unit:
// simd/isa_unit.hpp.
#include "gemm/amx_loops.hpp"

namespace ridge::avx512_amx {

gemm_detail::GemmKernels<float, std::uint16_t, std::uint16_t> gemm_kernels(float, std::uint16_t,
                                                                           std::uint16_t) {
  using L = gemm_detail::AmxBf16Loops;
  auto k = gemm_detail::make_gemm_kernels<simd::Avx512Bf16Pairs, kernels::kAvx512Tiles,
                                          std::uint16_t, std::uint16_t>();
  k.isa = "avx512_amx";
  k.nr = L::NR;
  k.step_multiple = L::kStep;
  k.packed = &L::packed;
  k.prepacked = &L::prepacked;
  k.pack_panels = &L::pack_panels;
  return k;
}

}  // namespace ridge::avx512_amx

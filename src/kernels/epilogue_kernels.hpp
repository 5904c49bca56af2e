// The epilogue applied to a region of C, per ISA (kernels/epilogue.hpp describes the epilogue,
// kernels/activation_math.hpp gives the activations and their accuracy).
#pragma once

#include <cstdint>

#include "kernels/epilogue.hpp"
#include "ridge/isa.hpp"
#include "simd/isa_unit.hpp"

namespace ridge::kernels {

// Applies e to C's rows x cols elements from c on (c within e's C, columns e.ldc apart).
using EpilogueKernel = void (*)(const Epilogue& e, float* c, std::int64_t rows,
                                std::int64_t cols);

// The kernel of `isa` (one this CPU supports).
EpilogueKernel epilogue_kernel(Isa isa);

}  // namespace ridge::kernels

// One entry point per ISA, each defined in that ISA's translation unit (isa_*.cpp).
namespace ridge::generic {
RIDGE_ISA_ENTRY void apply_epilogue(const kernels::Epilogue& e, float* c, std::int64_t rows,
                                    std::int64_t cols);
}  // namespace ridge::generic
namespace ridge::avx2 {
RIDGE_ISA_ENTRY void apply_epilogue(const kernels::Epilogue& e, float* c, std::int64_t rows,
                                    std::int64_t cols);
}  // namespace ridge::avx2
namespace ridge::avx512 {
RIDGE_ISA_ENTRY void apply_epilogue(const kernels::Epilogue& e, float* c, std::int64_t rows,
                                    std::int64_t cols);
}  // namespace ridge::avx512

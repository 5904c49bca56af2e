// The epilogues' activations over arrays of floats, per ISA (kernels/activation_math.hpp gives
// the formulas and their accuracy).
#pragma once

#include <cstdint>

#include "ridge/isa.hpp"
#include "simd/isa_unit.hpp"

namespace ridge::kernels {

enum class Activation { relu, gelu_tanh, gelu_erf, silu };

// y[i] = f(x[i]) for i < n; y may be x.
using ActivationKernel = void (*)(const float* x, float* y, std::int64_t n);

// The kernel of `isa` (one this CPU supports) for f.
ActivationKernel activation_kernel(Isa isa, Activation f);

}  // namespace ridge::kernels

// One entry point per ISA, each defined in that ISA's translation unit (isa_*.cpp).
namespace ridge::generic {
RIDGE_ISA_ENTRY kernels::ActivationKernel activation_kernel(kernels::Activation f);
}  // namespace ridge::generic
namespace ridge::avx2 {
RIDGE_ISA_ENTRY kernels::ActivationKernel activation_kernel(kernels::Activation f);
}  // namespace ridge::avx2
namespace ridge::avx512 {
RIDGE_ISA_ENTRY kernels::ActivationKernel activation_kernel(kernels::Activation f);
}  // namespace ridge::avx512

// The activation kernels of the ISA a call runs.
#include "kernels/activation_kernels.hpp"

namespace ridge::kernels {

ActivationKernel activation_kernel(Isa isa, Activation f) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512:
      return avx512::activation_kernel(f);
    case Isa::avx2:
      return avx2::activation_kernel(f);
#endif
    default:
      return generic::activation_kernel(f);
  }
}

}  // namespace ridge::kernels

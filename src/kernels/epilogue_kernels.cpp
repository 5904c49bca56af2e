// The epilogue kernel of the ISA a call runs.
#include "kernels/epilogue_kernels.hpp"

namespace ridge::kernels {

EpilogueKernel epilogue_kernel(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512:
      return &avx512::apply_epilogue;
    case Isa::avx2:
      return &avx2::apply_epilogue;
#endif
    default:
      return &generic::apply_epilogue;
  }
}

}  // namespace ridge::kernels

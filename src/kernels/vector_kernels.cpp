// The matrix-vector kernels of the ISA a call runs.
#include "kernels/vector_kernels.hpp"

#include "runtime/per_isa.hpp"

namespace ridge::kernels {
namespace {

template <class T>
VectorKernels<T> make(Isa isa) {
  constexpr bool f32 = sizeof(T) == 4;
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512:
      if constexpr (f32) return avx512::vector_kernels_f32(); else return avx512::vector_kernels_f64();
    case Isa::avx2:
      if constexpr (f32) return avx2::vector_kernels_f32(); else return avx2::vector_kernels_f64();
#endif
    default:
      if constexpr (f32) return generic::vector_kernels_f32(); else return generic::vector_kernels_f64();
  }
}

}  // namespace

template <class T>
const VectorKernels<T>& vector_kernels(Isa isa) {
  static runtime::PerIsa<VectorKernels<T>> tables(&make<T>);
  return tables(isa);
}

template const VectorKernels<float>& vector_kernels(Isa);
template const VectorKernels<double>& vector_kernels(Isa);

}  // namespace ridge::kernels

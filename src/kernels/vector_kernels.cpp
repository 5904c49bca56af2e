// The matrix-vector kernels of the ISA a call runs.
#include "kernels/vector_kernels.hpp"

#include "runtime/per_isa.hpp"

namespace ridge::kernels {
namespace {

template <class T>
VectorKernels<T> make(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512:
      return avx512::vector_kernels(T{});
    case Isa::avx2:
      return avx2::vector_kernels(T{});
#endif
    default:
      return generic::vector_kernels(T{});
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

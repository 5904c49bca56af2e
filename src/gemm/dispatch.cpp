// The GEMM dispatch table: each ISA's kernels, with block sizes derived from this machine's
// caches for their tile, logged under RIDGE_VERBOSE.
#include "gemm/dispatch.hpp"

#include <cstdio>

#include "ridge/machine.hpp"
#include "runtime/settings.hpp"

namespace ridge::gemm_detail {
namespace {

template <class T>
GemmKernels<T> isa_kernels(Isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512:
      return avx512::gemm_kernels(T{});
    case Isa::avx2:
      return avx2::gemm_kernels(T{});
#endif
    default:
      return generic::gemm_kernels(T{});
  }
}

}  // namespace

template <class T>
TypedKernels<T> make_gemm_kernels(Isa isa) {
  const GemmKernels<T> kernels = isa_kernels<T>(isa);
  const TypedKernels<T> t{kernels,
                          derive_block_sizes(Machine::current(), kernels.mr, kernels.nr, sizeof(T)),
                          kernels::CacheModel::current()};
  if (runtime::verbose())
    std::fprintf(stderr, "ridge: %s %s gemm: MR=%d NR=%d MC=%lld (A in L%d) KC=%lld NC=%lld\n",
                 isa_name(isa), sizeof(T) == 4 ? "f32" : "f64", t.kernels.mr, t.kernels.nr,
                 static_cast<long long>(t.blocks.mc), t.blocks.a_level,
                 static_cast<long long>(t.blocks.kc),
                 static_cast<long long>(t.blocks.nc));
  return t;
}

template TypedKernels<float> make_gemm_kernels(Isa);
template TypedKernels<double> make_gemm_kernels(Isa);

}  // namespace ridge::gemm_detail

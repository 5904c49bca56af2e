// The GEMM dispatch table: each ISA's kernels, with block sizes derived from this machine's
// caches for their tile, logged under RIDGE_VERBOSE.
#include "gemm/dispatch.hpp"

#include <cstdio>
#include <deque>
#include <mutex>

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

template <class T>
const BlockSizes& derive_tuned_blocks(Isa isa, const TypedKernels<T>& table,
                                      const GemmTuning& tuning) {
  static std::mutex mutex;
  static std::deque<TunedBlocks> kept;  // never freed: a call may still read an older entry
  const std::lock_guard lock(mutex);
  const TunedBlocks& t = kept.emplace_back(TunedBlocks{
      &tuning, derive_block_sizes(Machine::current(), table.kernels.mr, table.kernels.nr,
                                  sizeof(T), tuning.b_l1_ways)
                   .with_a_level(tuning.a_level)});
  g_tuned_blocks<T>[static_cast<int>(isa)].store(&t, std::memory_order_release);
  if (runtime::verbose())
    std::fprintf(stderr, "ridge: %s %s gemm, tuned: MC=%lld (A in L%d) KC=%lld NC=%lld\n",
                 isa_name(isa), sizeof(T) == 4 ? "f32" : "f64",
                 static_cast<long long>(t.blocks.mc), t.blocks.a_level,
                 static_cast<long long>(t.blocks.kc), static_cast<long long>(t.blocks.nc));
  return t.blocks;
}

template const BlockSizes& derive_tuned_blocks(Isa, const TypedKernels<float>&,
                                               const GemmTuning&);
template const BlockSizes& derive_tuned_blocks(Isa, const TypedKernels<double>&,
                                               const GemmTuning&);
template TypedKernels<float> make_gemm_kernels(Isa);
template TypedKernels<double> make_gemm_kernels(Isa);

}  // namespace ridge::gemm_detail

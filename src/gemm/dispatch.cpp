// The GEMM dispatch table: each ISA's kernels, with block sizes derived from this machine's
// caches for their tile, logged under RIDGE_VERBOSE.
#include "gemm/dispatch.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <type_traits>

#include "ridge/machine.hpp"
#include "runtime/amx.hpp"
#include "runtime/settings.hpp"

namespace ridge::gemm_detail {
namespace {

// A kernel set on int8 quads (VPDPBUSD, TDPBUSD) with its ISA's pairs for a few columns of C,
// which stream the weights once at a byte an element either way, unless it has its own.
template <class T, class SourceA, class SourceB>
GemmKernels<T, SourceA, SourceB> with_pairs_sweep(GemmKernels<T, SourceA, SourceB> quads,
                                                  const GemmKernels<T, SourceA, SourceB>& pairs) {
  if (quads.column_sweep != nullptr) return quads;
  quads.column_sweep = pairs.column_sweep;
  quads.column_sweep_rows = pairs.column_sweep_rows;
  quads.column_sweep_columns = pairs.column_sweep_columns;
  return quads;
}

template <class T, class SourceA, class SourceB>
GemmKernels<T, SourceA, SourceB> isa_kernels(Isa isa) {
  if constexpr (std::is_same_v<T, SourceA> && std::is_same_v<T, SourceB>) {
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
  } else {
    switch (isa) {
#if defined(__x86_64__)
      case Isa::avx512:
        if constexpr (std::is_same_v<SourceA, std::uint16_t>) {
          if (Machine::current().isa.amx_bf16 && runtime::amx_usable())
            return avx512_amx::gemm_kernels(T{}, SourceA{}, SourceB{});
          if (Machine::current().isa.avx512_bf16)
            return avx512_bf16::gemm_kernels(T{}, SourceA{}, SourceB{});
          return avx512::gemm_kernels(T{}, SourceA{}, SourceB{});
        } else {
          const GemmKernels<T, SourceA, SourceB> pairs =
              avx512::gemm_kernels(T{}, SourceA{}, SourceB{});
          if (!Machine::current().isa.avx512_vnni) return pairs;
          return with_pairs_sweep(Machine::current().isa.amx_int8 && runtime::amx_usable()
                                      ? avx512_amx::gemm_kernels(T{}, SourceA{}, SourceB{})
                                      : avx512_vnni::gemm_kernels(T{}, SourceA{}, SourceB{}),
                                  pairs);
        }
      case Isa::avx2:
        if constexpr (std::is_same_v<SourceA, std::int8_t>) {
          if (Machine::current().isa.avx_vnni && runtime::avx_vnni_allowed())
            return with_pairs_sweep(avx2_vnni::gemm_kernels(T{}, SourceA{}, SourceB{}),
                                    avx2::gemm_kernels(T{}, SourceA{}, SourceB{}));
        }
        return avx2::gemm_kernels(T{}, SourceA{}, SourceB{});
#endif
      default:
        return generic::gemm_kernels(T{}, SourceA{}, SourceB{});
    }
  }
}

// The element types' name in the log: f32, f64, bf16, or the int8 GEMM's (its A is the internal
// B).
template <class T, class SourceA, class SourceB>
const char* types_name() {
  if constexpr (std::is_same_v<SourceA, std::uint16_t>) return "bf16";
  if constexpr (std::is_same_v<SourceB, std::uint8_t>) return "u8s8";
  if constexpr (std::is_same_v<SourceA, std::int8_t>) return "s8s8";
  return sizeof(T) == 4 ? "f32" : "f64";
}

}  // namespace

// Rounded so that a noisy run (which only reads low) keeps two pipes down to 0.63x of their rate.
// Unmeasured: the most, whose narrow tiles cost least where wrong: on the 2-vCPU Xeon guest (two
// 512-bit pipes) the one-pipe tiles ran 32^3 to 96^3 9-18% slower, while on Zen 4 (one pipe) even
// the full 12-column tile stayed within 1-3% of the one-pipe tiles.
int fma_pipes(const Machine& machine, Isa isa) {
  const auto found = machine.measured_fma_per_cycle.find(isa_name(isa));
  if (found == machine.measured_fma_per_cycle.end()) return kernels::kMaxFmaPipes;
  return std::clamp(static_cast<int>(found->second + 0.75), 1, kernels::kMaxFmaPipes);
}

// A skinny product's tile (N <= 32, LLM decoding) reads A in place one column per depth step: a
// stream each, a page apart once the columns are. Past the number of such streams the memory
// system keeps fed the rate falls (on the Xeon guest a cliff; on the Zen 3 host a slope to half),
// so the slices of a stream-bound tile go no deeper than the probe measured
// (Machine::measured_page_streams), in whole 4-deep steps; a wider tile's go deeper in
// proportion (skinny_slice_depth, gemm/driver.cpp). Measured, sgemm
// M x 4096 x 4096 (columns 16 KiB apart), 1 thread, GFLOP/s:
//  - Zen 4 (AVX-512) at depth 32 / 64 / 128 / 256: M = 8 67 / 73 / 80 / 71, M = 32 70 / 81 /
//    87 / 81.
//  - The 2-vCPU Xeon guest, whose probe reads 26-28 GB/s up to 32 streams, 24.4 at 40, 21.5 at
//    48 and 10.0 at 64 (so 32): M = 8 at depth 16 / 24 / 32 / 40 / 48 / 64 / 96 58.8 / 62.4 /
//    53.2 / 56.8 / 48.2 / 29.9 / 29.0 (AVX-512); `ridge tune` at M = 4 and 8 (f32 and f64, 1
//    and 2 threads), geometric mean over depth 64: 16 1.47, 32 1.52, 128 1.01.
// Unmeasured: 64, the depth that costs least where it is wrong (0.85-0.93 of the best on both).
//
// Where the rate slopes instead, fewer than kDeepSkinnySlices streams at full rate but at least
// that many at seven tenths of it (Machine::measured_kept_page_streams), the slices go as deep as
// the latter: the Zen 5 host (8 streams at full rate, 64 kept in the saved probe; 32 to 40 in
// others), sgemm row-major on the direct path, x oneDNN, two alternated rounds, at depth 32 / 64
// / 128 (`skinny_depth` tuned): 16 x 4096 x 4096 on 1 thread 0.70-0.71 / 0.99-1.02 / 0.98-1.19,
// on 2 threads 0.96-0.98 / 0.87-0.94 / 0.87-1.05; 24 x 4096 x 4096 0.76-0.78 / 1.08-1.09 /
// 1.14-1.18 and 0.65-0.84 / 0.87-1.04 / 0.83-1.02; the packed path, which it took at 8 streams,
// 0.77-0.84x on 1 thread and 0.58-0.75x on 2. `ridge tune` there chose 512 (1.34x the model's
// 8 over its shapes, 64 1.28x, 32 1.21x). The Zen 3 host keeps 8 either way (0.67 of its best at
// 16 streams), the Xeon guest's cliff leaves it at 32.
int skinny_depth(const Machine& machine) {
  constexpr int kUnmeasured = 64;
  if (machine.measured_page_streams <= 0) return kUnmeasured;
  const bool slope = machine.measured_page_streams < kDeepSkinnySlices &&
                     machine.measured_kept_page_streams >= kDeepSkinnySlices;
  const int streams = slope ? machine.measured_kept_page_streams : machine.measured_page_streams;
  return std::max(4, streams / 4 * 4);
}

template <class T, class SourceA, class SourceB>
TypedKernels<T, SourceA, SourceB> make_gemm_kernels(Isa isa) {
  const Machine& machine = Machine::current();
  const GemmKernels<T, SourceA, SourceB> kernels = isa_kernels<T, SourceA, SourceB>(isa);
  const int pipes = fma_pipes(machine, isa);
  const TypedKernels<T, SourceA, SourceB> t{
      kernels,
      kernels.step_multiple > 1
          ? tile_register_block_sizes(machine, kernels.mr, kernels.nr, sizeof(T))
          : derive_block_sizes(machine, kernels.mr, kernels.nr, sizeof(T)),
      kernels::CacheModel::current(),
      kernels.narrow_columns[pipes - 1],
      kernels::kFmaLatencyCycles * pipes,
      skinny_depth(machine)};
  if (runtime::verbose())
    std::fprintf(
        stderr,
        "ridge: %s %s gemm: MR=%d NR=%d MC=%lld (A in L%d) KC=%lld NC=%lld, narrow "
        "tiles %d columns (%d FMA pipe%s%s), skinny depth %d (%s)\n",
        t.kernels.isa, types_name<T, SourceA, SourceB>(), t.kernels.mr, t.kernels.nr,
        static_cast<long long>(t.blocks.mc), t.blocks.a_level, static_cast<long long>(t.blocks.kc),
        static_cast<long long>(t.blocks.nc), t.narrow_columns, pipes, pipes == 1 ? "" : "s",
        machine.measured_fma_per_cycle.contains(isa_name(isa)) ? ", measured" : "", t.skinny_depth,
        machine.measured_page_streams > 0 ? "measured page streams" : "unmeasured");
  return t;
}

template <class T, class SourceA, class SourceB>
const BlockSizes& derive_tuned_blocks(Isa isa, const TypedKernels<T, SourceA, SourceB>& table,
                                      const GemmTuning& tuning) {
  static std::mutex mutex;
  static std::deque<TunedBlocks> kept;  // never freed: a call may still read an older entry
  const std::lock_guard lock(mutex);
  const TunedBlocks& t = kept.emplace_back(TunedBlocks{
      &tuning, derive_block_sizes(Machine::current(), table.kernels.mr, table.kernels.nr, sizeof(T),
                                  tiles_tuning(table.kernels, tuning))});
  g_tuned_blocks<T, SourceA, SourceB>[static_cast<int>(isa)].store(&t, std::memory_order_release);
  if (runtime::verbose())
    std::fprintf(stderr, "ridge: %s %s gemm, tuned: MC=%lld (A in L%d) KC=%lld NC=%lld\n",
                 isa_name(isa), types_name<T, SourceA, SourceB>(),
                 static_cast<long long>(t.blocks.mc), t.blocks.a_level,
                 static_cast<long long>(t.blocks.kc), static_cast<long long>(t.blocks.nc));
  return t.blocks;
}

template TypedKernels<float> make_gemm_kernels(Isa);
template TypedKernels<double> make_gemm_kernels(Isa);
template TypedKernels<float, std::uint16_t, std::uint16_t> make_gemm_kernels(Isa);
template TypedKernels<std::int32_t, std::int8_t, std::uint8_t> make_gemm_kernels(Isa);
template TypedKernels<std::int32_t, std::int8_t, std::int8_t> make_gemm_kernels(Isa);
template const BlockSizes& derive_tuned_blocks(Isa, const TypedKernels<float>&, const GemmTuning&);
template const BlockSizes& derive_tuned_blocks(Isa, const TypedKernels<double>&, const GemmTuning&);
template const BlockSizes& derive_tuned_blocks(
    Isa, const TypedKernels<float, std::uint16_t, std::uint16_t>&, const GemmTuning&);
template const BlockSizes& derive_tuned_blocks(
    Isa, const TypedKernels<std::int32_t, std::int8_t, std::uint8_t>&, const GemmTuning&);
template const BlockSizes& derive_tuned_blocks(
    Isa, const TypedKernels<std::int32_t, std::int8_t, std::int8_t>&, const GemmTuning&);

}  // namespace ridge::gemm_detail

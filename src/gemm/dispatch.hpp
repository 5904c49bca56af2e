// The GEMM kernels and block sizes of each ISA path and element type, built on first use.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

#include "gemm/blocking.hpp"
#include "gemm/kernel_set.hpp"
#include "kernels/cache_model.hpp"
#include "ridge/isa.hpp"
#include "ridge/machine.hpp"
#include "ridge/tuning.hpp"
#include "runtime/per_isa.hpp"

namespace ridge::gemm_detail {

// With the cache model the driver reads too, so that a call makes one lookup. SourceA, SourceB:
// as GemmKernels.
template <class T, class SourceA = T, class SourceB = T>
struct TypedKernels {
  GemmKernels<T, SourceA, SourceB> kernels;
  BlockSizes blocks;
  kernels::CacheModel caches;
  int narrow_columns = 0;  // the narrow tiles for this machine's FMA pipes (DirectOptions)
  int fma_chains = 0;      // FMA latency x this machine's pipes (DirectOptions)
  int skinny_depth = 0;    // the deepest slice of a skinny product reading A a page per column
};

// The FMA pipes of `isa`'s vector width a core of `machine` has, 1 .. kernels::kMaxFmaPipes:
// the probe's FMAs a cycle (Machine::measured_fma_per_cycle), rounded.
int fma_pipes(const Machine& machine, Isa isa);

// The deepest depth slice of a skinny product that reads A in place a page per column (unless
// tuned, GemmTuning::skinny_depth): the page-strided streams the probe measured one core keeps
// fed (Machine::measured_page_streams, or where the rate slopes measured_kept_page_streams), a
// multiple of 4. From kDeepSkinnySlices on, the direct path keeps B up to 24 columns wide
// (gemm/driver.cpp, kDirectTallWidth).
inline constexpr int kDeepSkinnySlices = 32;
int skinny_depth(const Machine& machine);

// Builds the table of a supported ISA (dispatch.cpp).
template <class T, class SourceA = T, class SourceB = T>
TypedKernels<T, SourceA, SourceB> make_gemm_kernels(Isa isa);

// Each ISA's table, built on first use; constant-initialized, so the lookup inlines to a load.
template <class T, class SourceA = T, class SourceB = T>
inline runtime::PerIsa<TypedKernels<T, SourceA, SourceB>> g_gemm_kernels{
    &make_gemm_kernels<T, SourceA, SourceB>};

// The table of a supported ISA (the caller checks: building a table runs the ISA's code).
template <class T, class SourceA = T, class SourceB = T>
const TypedKernels<T, SourceA, SourceB>& gemm_kernels(Isa isa) {
  return g_gemm_kernels<T, SourceA, SourceB>(isa);
}

// The blocks of a tuning that changes them (GemmTuning::a_level, b_l1_ways, slab_depth), derived
// once for the tuning object in force (runtime/tuning.hpp never frees one, so its address names
// it).
struct TunedBlocks {
  const GemmTuning* tuning = nullptr;
  BlockSizes blocks;
};
template <class T, class SourceA = T, class SourceB = T>
inline std::atomic<const TunedBlocks*> g_tuned_blocks[3];

// Derives and publishes the blocks of `tuning` (dispatch.cpp).
template <class T, class SourceA, class SourceB>
const BlockSizes& derive_tuned_blocks(Isa isa, const TypedKernels<T, SourceA, SourceB>& table,
                                      const GemmTuning& tuning);

// The fields of `tuning` that size the blocks of `kernels`' tiles: the float tiles' a_level and
// b_l1_ways, or for dot products on pairs or quads (depth_group > 1) their element type's.
template <class T, class SourceA, class SourceB>
GemmTuning tiles_tuning(const GemmKernels<T, SourceA, SourceB>& kernels, const GemmTuning& tuning) {
  if (kernels.depth_group == 1) return tuning;
  constexpr bool kBf16 = std::is_same_v<SourceA, std::uint16_t>;
  GemmTuning t = tuning;
  t.a_level = kBf16 ? tuning.bf16_a_level : tuning.int8_a_level;
  t.b_l1_ways = kBf16 ? tuning.bf16_b_l1_ways : tuning.int8_b_l1_ways;
  return t;
}

// The blocks a call on `isa` uses under `tuning`: the table's unless the tuning changes them
// (tiles_tuning). The tile registers' (AMX) blocks are their own (tile_register_block_sizes).
template <class T, class SourceA, class SourceB>
const BlockSizes& tuned_blocks(Isa isa, const TypedKernels<T, SourceA, SourceB>& table,
                               const GemmTuning& tuning) {
  const GemmTuning tiles = tiles_tuning(table.kernels, tuning);
  if (table.kernels.step_multiple > 1 ||
      (tiles.a_level == 0 && tiles.b_l1_ways == 0 && tiles.slab_depth == 0))
    return table.blocks;
  const TunedBlocks* t =
      g_tuned_blocks<T, SourceA, SourceB>[static_cast<int>(isa)].load(std::memory_order_acquire);
  if (t != nullptr && t->tuning == &tuning) return t->blocks;
  return derive_tuned_blocks(isa, table, tuning);
}

}  // namespace ridge::gemm_detail

// The GEMM choices the cache model cannot settle from the machine's figures alone. `ridge tune`
// times the candidates on this machine and saves the winners per ISA path in the per-machine
// file (measured_machine_path); Machine::detect() reads them back and every call uses them.
// A zero field means "the model's choice" (src/gemm/blocking.cpp, src/gemm/driver.cpp).
#pragma once

#include <cstdint>

#include "ridge/export.hpp"
#include "ridge/isa.hpp"

namespace ridge {

struct GemmTuning {
  // Where the packed path keeps its block of A: 2 (half of L2) or 3 (half of this core's L3
  // share). The model picks L3 when the probe measured that L3 feeds the tile's stream of A.
  int a_level = 0;
  // The deepest depth slice of the direct path (A slabs reread from L1 by each column strip).
  std::int64_t slab_depth = 0;
  // The deepest depth slice of a skinny product (N <= 32) that reads A in place a page per
  // column (the direct path: N <= 24 where A does not fit L2).
  std::int64_t skinny_depth = 0;
  // A product whose A does not fit L2 (M > 32) against a B over 24 columns wide: 1 runs
  // the direct path (A read in place or a slab at a time), 2 the packed path (A packed a block
  // at a time, read in long runs).
  int tall_a_path = 0;
  // Ways of L1 the packed path's KC x NR micro-panel of B fills, which sets KC (the model: all
  // but one with the A block in L3, a third with it in L2, blocking.cpp); at most the L1's ways
  // less one.
  int b_l1_ways = 0;
  // Whether the kernels that stream an operand from memory once (GEMV, and the dot products of
  // skinny x W^T) fetch their next columns or rows ahead in software: 1 they do, 2 they leave it
  // to the hardware prefetchers (the model: they do where the probe measured at least 16
  // page-strided streams kept fed, or measured none).
  int stream_prefetch = 0;
  // a_level and b_l1_ways for the tiles of dot products, tuned apart for each element type: bf16
  // on pairs (VDPBF16PS), int8 on quads or pairs (VPDPBUSD, VPMADDWD). Their A streams ask the
  // same bytes a cycle as the float tiles', but measured on Zen 5 bf16 gained from A in L2 where
  // float did not, and int8 gained at large squares but lost at 32 rows and at 512 x 4096 x
  // 11008 (docs/notes/blocks-per-host-2026-12-06.md).
  int bf16_a_level = 0;
  int bf16_b_l1_ways = 0;
  int int8_a_level = 0;
  int int8_b_l1_ways = 0;

  // Every field zero or in its range (depths 4 .. 65536, multiples of 4: packing transposes
  // 4 x 4 blocks).
  constexpr bool valid() const {
    const auto depth_ok = [](std::int64_t d) {
      return d == 0 || (d >= 4 && d <= 65536 && d % 4 == 0);
    };
    const auto level_ok = [](int level) { return level == 0 || level == 2 || level == 3; };
    const auto ways_ok = [](int ways) { return ways >= 0 && ways <= 64; };
    return level_ok(a_level) && depth_ok(slab_depth) && depth_ok(skinny_depth) &&
           tall_a_path >= 0 && tall_a_path <= 2 && ways_ok(b_l1_ways) && stream_prefetch >= 0 &&
           stream_prefetch <= 2 && level_ok(bf16_a_level) && ways_ok(bf16_b_l1_ways) &&
           level_ok(int8_a_level) && ways_ok(int8_b_l1_ways);
  }
  friend bool operator==(const GemmTuning&, const GemmTuning&) = default;
};

// The tuning calls on `isa` use: set_gemm_tuning's, else the per-machine file's, else all zero.
RIDGE_API GemmTuning gemm_tuning(Isa isa);
// Replaces `isa`'s tuning for this process (a tuner's candidates, an experiment); values out of
// range throw std::invalid_argument. Calls running meanwhile see either tuning.
RIDGE_API void set_gemm_tuning(Isa isa, const GemmTuning& tuning);

}  // namespace ridge

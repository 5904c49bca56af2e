// The block tunings `ridge tune` may save at their extremes (the A block in L2 or L3, B's
// micro-panel in two ways of L1 or all but one), each set for every kind of tiles (float, and dot
// products on bf16 pairs and on int8 pairs or quads) while `check` runs (given its name), the
// tuning in force restored after.
#pragma once

#include <string>

#include "ridge/ridge.hpp"

namespace ridge::test {

template <class Check>
void for_each_block_tuning(Check check) {
  const Isa isa = active_isa();
  const GemmTuning before = gemm_tuning(isa);
  for (int level : {2, 3})
    for (int ways : {2, 16}) {
      set_gemm_tuning(isa, {.a_level = level,
                            .b_l1_ways = ways,
                            .bf16_a_level = level,
                            .bf16_b_l1_ways = ways,
                            .int8_a_level = level,
                            .int8_b_l1_ways = ways});
      check("a_level " + std::to_string(level) + ", b_l1_ways " + std::to_string(ways));
    }
  set_gemm_tuning(isa, before);
}

}  // namespace ridge::test

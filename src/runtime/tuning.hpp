// The GEMM tuning in force per ISA path, read where the driver chooses a path: one atomic load
// once the path's tuning has been resolved (from the per-machine file on first use, or by
// ridge::set_gemm_tuning).
#pragma once

#include <atomic>

#include "ridge/tuning.hpp"

namespace ridge::runtime {

// Each path's tuning; null until first resolved. Entries are never freed: a call may still be
// reading the one a set_gemm_tuning replaced.
extern std::atomic<const GemmTuning*> g_gemm_tuning[3];

// Resolves `isa`'s tuning from the per-machine file (out of line: the first call only).
const GemmTuning& resolve_gemm_tuning(Isa isa);

inline const GemmTuning& gemm_tuning(Isa isa) {
  const GemmTuning* t = g_gemm_tuning[static_cast<int>(isa)].load(std::memory_order_acquire);
  return t != nullptr ? *t : resolve_gemm_tuning(isa);
}

}  // namespace ridge::runtime

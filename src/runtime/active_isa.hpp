// The ISA path in force, read where every call dispatches: an inline load once the path has
// been resolved (ridge::active_isa() resolves it on first use, from RIDGE_ISA or the CPU, and
// set_isa() changes it).
#pragma once

#include <atomic>

#include "ridge/isa.hpp"

namespace ridge::runtime {

// The path in force as an Isa value; -1 until ridge::active_isa() has first resolved it.
extern std::atomic<int> g_active_isa;

inline Isa active_isa() {
  const int isa = g_active_isa.load(std::memory_order_relaxed);
  return isa >= 0 ? static_cast<Isa>(isa) : ridge::active_isa();
}

}  // namespace ridge::runtime

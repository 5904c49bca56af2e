// Measurements of what this machine really delivers (the ceilings results are held against).
#pragma once

#include "ridge/export.hpp"
#include "ridge/isa.hpp"

namespace ridge::probe {

enum class FmaType { f32, f64 };

// Sustained multiply-add rate of `isa`'s vector FMA on `threads` threads (one pinned per CPU of
// the affinity mask), in GFLOP/s (2 FLOP per lane per FMA): many independent accumulator chains,
// median of repeated timed runs. Throws std::invalid_argument for an ISA the CPU lacks.
RIDGE_API double fma_peak_gflops(FmaType type, int threads, Isa isa);

}  // namespace ridge::probe

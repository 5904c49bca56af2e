// Peak compute: every (ISA, type) loop this CPU can run, on one and on all CPUs.
#pragma once

#include <vector>

#include "probe/fma_loop.hpp"
#include "probe/sampling.hpp"
#include "ridge/probe.hpp"

namespace ridge::probe::detail {

struct PeakCase {
  const char* isa;
  const char* type;
  LoopPair loops;
};

// The loops this CPU can run: the run-time guard that keeps code compiled for an ISA from running
// where the CPU (or OS) lacks it. bf16 and int8 also need their own feature bits.
std::vector<PeakCase> peak_cases(const IsaFeatures& features, bool avx2_supported,
                                 bool avx512_supported);

std::vector<PeakResult> measure_peaks(const SamplingPolicy& policy, double sample_s);

// The core clock in GHz from a chain of dependent integer adds (one per cycle on every current
// core), on the first CPU of the affinity mask.
Figure measure_clock_ghz(const SamplingPolicy& policy, double sample_s);

}  // namespace ridge::probe::detail

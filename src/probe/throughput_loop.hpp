// The shape every peak-compute loop shares: `chains` independent accumulators stepped
// `iterations` times, and the same loop with more accumulators to check that `chains` was enough.
#pragma once

#include <cstdint>

namespace ridge::probe {

// Runs the loop; returns the operations done (FLOP, or integer ops for int8) and stores a value
// that depends on the work to `sink`, so the compiler cannot drop it.
using ThroughputLoop = std::int64_t (*)(std::int64_t iterations, volatile double* sink);

struct ChainedLoop {
  int chains = 0;
  ThroughputLoop run = nullptr;
};

// `base` covers latency x throughput; `more` has more chains. Equal rates show `base` hides the
// latency; a faster `more` would mean the peak was underestimated.
struct LoopPair {
  ChainedLoop base;
  ChainedLoop more;
};

}  // namespace ridge::probe

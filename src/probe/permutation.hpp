// The visiting order of the latency chase: a random permutation that is one cycle through every
// element, so the chase touches the whole buffer and no prefetcher can guess the next line.
#pragma once

#include <cstdint>
#include <vector>

namespace ridge::probe::detail {

// next[i]: the element visited after i. Sattolo's algorithm (1986), which draws uniformly from
// the (n-1)! cyclic permutations. n >= 1.
std::vector<std::uint32_t> random_cycle(std::uint32_t n, std::uint64_t seed);

}  // namespace ridge::probe::detail

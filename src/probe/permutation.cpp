// Sattolo's algorithm: like Fisher-Yates, but element i swaps only with j < i, which leaves a
// single cycle.
#include "probe/permutation.hpp"

#include <numeric>
#include <utility>

namespace ridge::probe::detail {
namespace {

// splitmix64 (Steele, Lea, Flood 2014): fast, and plenty random for shuffling.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<std::uint32_t> random_cycle(std::uint32_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> next(n);
  std::iota(next.begin(), next.end(), 0u);
  std::uint64_t state = seed;
  for (std::uint32_t i = n; i-- > 1;) {
    // j uniform in [0, i): the high half of a 32 x 32-bit product (Lemire 2019), bias < 2^-32 * n.
    const auto j = static_cast<std::uint32_t>(((next_random(state) >> 32) * i) >> 32);
    std::swap(next[i], next[j]);
  }
  return next;
}

}  // namespace ridge::probe::detail

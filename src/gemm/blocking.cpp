// The analytical blocking model (Low et al., ACM TOMS 2016, section 4), in cache ways:
//  - KC: the micro-kernel reuses one KC x NR micro-panel of B from L1 while MR x KC micro-panels
//    of A stream through it. Low et al. split the L1's W - 1 ways between A and B in the ratio
//    MR : NR; we give B all W - 1 and let A stream through the remaining way. B is touched at
//    every step, so LRU keeps it, and each A line is used once per pass anyway. Measured on
//    Zen 4 (2048^3 sgemm, 1 thread, same run): the paper's KC = 160 gave 102 GFLOP/s, this
//    KC = 596 gave 109; fewer depth blocks mean fewer passes of C through the caches.
//  - MC: the packed MC x KC block of A stays in L2 next to the current B micro-panel and a way
//    for C: ways_A = W - 1 - ceil(B micro-panel / way size).
//  - NC: the packed KC x NC panel of B stays in this core's share of L3 next to the A block.
#include "gemm/blocking.hpp"

#include <algorithm>

namespace ridge::gemm_detail {
namespace {

struct CacheGeometry {
  std::int64_t ways = 0, sets = 0, line = 0;
  std::int64_t way_bytes() const { return sets * line; }
};

CacheGeometry geometry(const CacheLevel& cache, int sharing_cpus) {
  CacheGeometry g;
  g.line = cache.line_bytes > 0 ? cache.line_bytes : 64;
  g.ways = cache.associativity > 0 ? cache.associativity : 8;
  // A shared cache is split between the CPUs that share it, each keeping its own panels there.
  const std::int64_t share = std::max<std::int64_t>(1, cache.size_bytes / std::max(1, sharing_cpus));
  g.sets = std::max<std::int64_t>(1, share / (g.ways * g.line));
  return g;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t round_down(std::int64_t value, std::int64_t multiple) {
  return std::max(multiple, value / multiple * multiple);
}

}  // namespace

BlockSizes derive_block_sizes(const Machine& machine, int mr, int nr, int element_bytes) {
  const CacheLevel l1 = machine.data_cache(1);
  const CacheLevel l2 = machine.data_cache(2);
  CacheLevel l3 = machine.data_cache(3);
  if (l3.size_bytes == 0) l3 = l2;  // no L3: the B panel then competes for L2

  const CacheGeometry g1 = geometry(l1, 1);
  const CacheGeometry g2 = geometry(l2, l2.shared_by_cpus);
  const CacheGeometry g3 = geometry(l3, l3.shared_by_cpus);
  const std::int64_t e = element_bytes;

  BlockSizes b;
  const std::int64_t ways_b_l1 = std::max<std::int64_t>(1, g1.ways - 1);
  // KC a multiple of 4 lets packing transpose 4 x 4 blocks without a remainder.
  b.kc = std::max<std::int64_t>(16, ways_b_l1 * g1.way_bytes() / (nr * e) / 4 * 4);

  const std::int64_t ways_b_l2 = ceil_div(b.kc * nr * e, g2.way_bytes());
  const std::int64_t ways_a_l2 = std::max<std::int64_t>(1, g2.ways - 1 - ways_b_l2);
  b.mc = round_down(ways_a_l2 * g2.way_bytes() / (b.kc * e), mr);

  const std::int64_t ways_a_l3 = ceil_div(b.mc * b.kc * e, g3.way_bytes());
  const std::int64_t ways_b_l3 = std::max<std::int64_t>(1, g3.ways - 1 - ways_a_l3);
  b.nc = round_down(ways_b_l3 * g3.way_bytes() / (b.kc * e), nr);
  return b;
}

}  // namespace ridge::gemm_detail

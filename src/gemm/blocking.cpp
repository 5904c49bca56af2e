// Block sizes from the analytical model of Low et al. (ACM TOMS 2016, section 4), counted in
// cache ways, with two changes measured on Zen 4 (sgemm, 1 thread, each pair in one run):
//  - KC: the micro-kernel reuses one KC x NR micro-panel of B from L1 while MR x KC micro-panels
//    of A stream through it. The paper splits the L1's W - 1 ways between A and B in the ratio
//    MR : NR; with the A block in L3 we give B all W - 1 and let A stream through the remaining
//    way: B is touched at every step, so LRU keeps it, and each A line is used once per pass
//    anyway. KC = 596 instead of 160 for the 32x12 tile: 2048^3 went from 102 to 109 GFLOP/s
//    (fewer passes of C through the caches). With the A block in L2, B takes a third of the
//    ways: there the block holds L2's half over KC rows, so a deep KC leaves few tiles to reuse
//    each B micro-panel fetched from L3 (AVX2 dgemm on the Xeon guest below: MC = 96 at KC =
//    936). Measured there (48 KiB 12-way L1), 1 thread, 1000^3 to 4096^3, geometric mean of the
//    ratios to the best of OpenBLAS and oneDNN with 4 ways against 11, each in one run: AVX2
//    dgemm 0.90 -> 0.97 (6 ways 0.94), sgemm 0.99 -> 1.01; AVX-512 dgemm 1.00 -> 1.03, sgemm
//    0.96 -> 0.96.
//  - MC: the paper keeps the packed MC x KC block of A in L2. The A stream needs MR elements
//    per NR FMAs (~11 B/cycle for the 32x12 tile); where L3 delivers that, a taller block
//    amortises each B micro-panel's trip into L1 over more tiles. So A takes half of this core's
//    share of L3 (less a way for C), and the packed KC x NC panel of B the other half: at 4096^3
//    MC = 320 (L2) gave 106 GFLOP/s on 1 thread and 205 on 2, MC = 3072 (L3) 110 and 219.
//    Where the probe measured that L3 cannot feed that stream (a_lives_in_l3), A takes half of
//    L2 instead: on a 2-vCPU Xeon guest whose L3 reads at 28 GB/s a CPU against the 40 GB/s the
//    AVX-512 f32 tile asks at 240 GFLOP/s, 4096^3 sgemm ran at 140 GFLOP/s with A in L3 and
//    197 with MC = 256 (half of L2's streamed capacity; a quarter gave 179, three quarters
//    163). The rule takes half of L2's ways: MC = 224 there.
//  Without an L3 the shares are taken from L2.
//
// Capacities are what `ridge probe --save` measured where it has (CacheLevel), else what the CPU
// reports. The packed blocks are read as streams, so the capacity for streaming reads
// (kernels::streamed_capacity) counts. On a 2-vCPU Zen 4 VM, CPUID's 32 MiB L3 gives MC = 3072,
// NC = 3516; the measured 8.8-9.8 MiB (two probe runs) gives MC = 832-928, NC = 960-1080. The
// choice is not fragile: sgemm at 1000^3, 2048^3, 4096^3,
// 4096 x 4096 x 128 and 512 x 4096 x 11008, 1 and 2 threads, ran within 3% (the run-to-run
// noise) for every MC:NC from 832:960 to 3072:3516; only 448:528 (from the latency capacity,
// 5 MiB) fell 2-4% behind at 2048^3 and 4096^3. Likewise the direct path's limit (measured L2,
// 688 KiB, against 1 MiB reported): 384^3 to 1024^3 direct and packed stayed within that noise.
#include "gemm/blocking.hpp"

#include <algorithm>

#include "kernels/cache_model.hpp"

namespace ridge::gemm_detail {
namespace {

struct CacheGeometry {
  std::int64_t ways = 0, sets = 0, line = 0;
  std::int64_t way_bytes() const { return sets * line; }
};

CacheGeometry geometry(const CacheLevel& cache, std::int64_t capacity, int sharing_cpus) {
  CacheGeometry g;
  g.line = cache.line_bytes > 0 ? cache.line_bytes : 64;
  g.ways = cache.associativity > 0 ? cache.associativity : 8;
  // A shared cache is split between the CPUs that share it, each keeping its own panels there.
  const std::int64_t share = std::max<std::int64_t>(1, capacity / std::max(1, sharing_cpus));
  g.sets = std::max<std::int64_t>(1, share / (g.ways * g.line));
  return g;
}

std::int64_t round_down(std::int64_t value, std::int64_t multiple) {
  return std::max(multiple, value / multiple * multiple);
}

bool a_lives_in_l3(const Machine& machine, const CacheLevel& l3, int nr) {
  // Unmeasured: L2, the choice that costs least where it is wrong. L3 won by 4-7% on Zen 4 and
  // Zen 3, whose L3s feed the stream twice over (4096^3 sgemm, 1 and 2 threads); L2 won by 40%
  // on the Xeon guest below.
  if (l3.measured_read_gbs <= 0 || machine.measured_f32_gflops <= 0) return false;
  // The tile reads MR elements of A per 2 x MR x NR flops; f64 has twice the bytes at half the
  // f32 rate, so the f32 figures give the demand of either. (The peak is the best ISA's: a
  // narrower forced ISA asks less, and is held to the same bar.)
  const double demand_gbs = machine.measured_f32_gflops * 4.0 / (2.0 * nr);
  // Headroom for the B panel and C, which stream through the same level, and for the noise of
  // a quick probe.
  constexpr double kHeadroom = 1.5;
  return l3.measured_read_gbs >= kHeadroom * demand_gbs;
}

}  // namespace

BlockSizes derive_block_sizes(const Machine& machine, int mr, int nr, int element_bytes,
                              const GemmTuning& tuning) {
  const CacheLevel l1 = machine.data_cache(1);
  const CacheLevel l2 = machine.data_cache(2);
  CacheLevel l3 = machine.data_cache(3);
  if (l3.size_bytes == 0) l3 = l2;

  // L1 as built (its sets decide which addresses collide); L3 as measured.
  const CacheGeometry g1 = geometry(l1, l1.size_bytes, 1);
  const CacheGeometry g3 = geometry(l3, kernels::streamed_capacity(l3), l3.shared_by_cpus);
  const std::int64_t e = element_bytes;

  BlockSizes b;
  b.a_level = tuning.a_level == 2 || tuning.a_level == 3 ? tuning.a_level
              : a_lives_in_l3(machine, l3, nr)           ? 3
                                                         : 2;
  const std::int64_t all_but_one = std::max<std::int64_t>(1, g1.ways - 1);
  const std::int64_t model_ways =
      b.a_level == 3 ? all_but_one : std::max<std::int64_t>(1, g1.ways / 3);
  const std::int64_t ways_b_l1 =
      tuning.b_l1_ways > 0 ? std::min<std::int64_t>(tuning.b_l1_ways, all_but_one) : model_ways;
  // KC a multiple of 4 lets packing transpose 4 x 4 blocks without a remainder.
  b.kc = std::max<std::int64_t>(16, ways_b_l1 * g1.way_bytes() / (nr * e) / 4 * 4);

  const std::int64_t ways_a_l3 = std::max<std::int64_t>(1, (g3.ways - 1) / 2);
  const CacheGeometry g2 = geometry(l2, kernels::streamed_capacity(l2), l2.shared_by_cpus);
  b.mc = b.a_level == 3 ? round_down(ways_a_l3 * g3.way_bytes() / (b.kc * e), mr)
                        : round_down(g2.ways / 2 * g2.way_bytes() / (b.kc * e), mr);
  const std::int64_t ways_b_l3 = std::max<std::int64_t>(1, g3.ways - 1 - ways_a_l3);
  b.nc = round_down(ways_b_l3 * g3.way_bytes() / (b.kc * e), nr);
  // The direct path's deepest slice: its MR x depth slab of A, which every column strip of a
  // row of tiles rereads, in all but one way of L1, as KC does for B's micro-panel with the A
  // block in L3; GemmTuning::slab_depth where tuned. Measured on the Xeon guest (48 KiB 12-way
  // L1), sgemm 128 x 4096 x 4096 on 1 thread, AVX2 path (16-row tiles): 74.5 GFLOP/s at a depth
  // of 1876, 83.8 at 704 (this rule), 87.3 at 512, 86.6 at 256; 512^3 117 down to depth 512,
  // 114 at 352 and 256. `ridge tune` over those and 512^3, f32 and f64, 1 and 2 threads, against
  // half of L1: AVX2 (384) 256 1.01, 512 1.10, 1024 1.08; AVX-512 (192) 256 1.01, 512 0.97, 1024
  // 0.97.
  b.slab_depth = tuning.slab_depth > 0
                     ? tuning.slab_depth
                     : std::max<std::int64_t>(16, all_but_one * g1.way_bytes() / (mr * e) / 4 * 4);
  // The direct path reads B in place once per MR-row tile of A: worth it while B stays in L2.
  // Measured on Zen 4 (sgemm, 1 thread): 512^3 (B = 1 MiB) 106-112 GFLOP/s direct against
  // 105-107 packed; 1024^3 (4 MiB) 91 against 106.
  b.l2_elements = std::max<std::int64_t>(1, kernels::streamed_capacity(l2) / e);
  return b;
}

// A tile of AMX registers reads A's packed panel at 2 KiB a tile step (16 pairs x 32 rows) for
// 64 cycles of products at most, 32 bytes a cycle: more than L3 gives one core, so the A block
// lives in L2, in half of it (the rest for B's strip, C and the next block's lines). Each tile
// loads and stores its 4 KiB of C once a slice, so the slices are deep: 512 steps (1024 bf16),
// at which B's strip (64 KiB) is read from L2 as well. Measured on the 2-vCPU Xeon guest (AMX,
// 2 MiB L2), bf16 on 2 threads, against oneDNN's AMX GEMM in the same run, MC x KC (steps):
// 4096^3 12800 x 352 (the FMA tiles' model: A in L3) 0.71-0.77x, 1024 x 256 0.88x, 2048 x 128
// 0.86x, 512 x 512 1.13-1.18x, 256 x 1024 1.16-1.30x, 384 x 768 1.16x, 1024 x 512 0.90x; at
// 512 x 4096 x 11008 512 x 512 1.00-1.02x, 1024 x 512 0.69x, 384 x 512 1.01x.
BlockSizes tile_register_block_sizes(const Machine& machine, int mr, int nr, int step_bytes) {
  constexpr std::int64_t kSteps = 512;
  const BlockSizes model = derive_block_sizes(machine, mr, nr, step_bytes);
  BlockSizes b = blocks_at_depth(model, kSteps, mr, nr);
  b.kc = kSteps;
  b.mc =
      round_down(kernels::streamed_capacity(machine.data_cache(2)) / 2 / (kSteps * step_bytes), mr);
  b.a_level = 2;
  // Storing a tile's accumulators costs 1100-1300 cycles whenever its operands stream from L2,
  // whatever it stores (the same for one register as for four; 3 cycles with the operands in
  // L1): a third of a 32-step tile's time. Deeper slices store fewer times, but leave fewer rows
  // in A's block, whose packing more column strips must then share: twice as deep from 64
  // strips of C on. Measured on the 2-vCPU Xeon guest, 1024 steps against 512, alternated both
  // ways, 2 threads, GFLOP/s (GOP/s) ratios: 128 strips bf16 4096^3 1.04-1.24x (1 thread
  // 1.08-1.15x), 4096 x 1024 x 4096 0.95-1.15x, u8s8 1.00-1.19x and 1.13-1.21x; 64 strips
  // (2048^3) bf16 0.90-1.08x, u8s8 1.00-1.08x; where it is not taken, 32 strips (1024 x 4096 x
  // 4096) bf16 0.98-1.03x, u8s8 1.05-1.09x, 16 (512 x 4096 x 11008) 0.95-1.00x, 8 (256 x 4096
  // x 4096) 0.92x, one (32 x 4096 x 4096) 0.88-0.90x
  // (docs/notes/activations-and-the-tile-unit-2026-12-05.md).
  b.wide_kc = 2 * kSteps;
  b.wide_columns = 64 * static_cast<std::int64_t>(nr);
  // With one or two strips of C each A block serves that few, and packing it is most of the
  // time: a quarter of the depth and four times the rows make the weights' runs four times as
  // long for the packing's reads from L3, more than the extra stores of C cost. Measured on the
  // 2-vCPU Xeon guest, bf16 on 2 threads, GFLOP/s at 128 / 64 / 32 steps against 512, two runs:
  // 32 x 4096 x 4096 573-599 / 513-543 / 343-365 against 520-523; 16 x 4096 x 4096 356-363 /
  // 350-371 / 263-268 against 286-291; 32 x 11008 x 4096 597-633 / 597-599 / 546-552 against
  // 488-517; 32 x 4096 x 11008 514-552 / 266-541 / 351-363 against 511-544; two strips, 128
  // steps against 512: 48 x 4096 x 4096 782-793 against 720-734, 64 x 4096 x 4096 862 against
  // 813-822; four, 128 x 4096 x 4096, 1120-1218 against 1198-1206.
  b.narrow_kc = kSteps / 4;
  b.narrow_columns = 2 * static_cast<std::int64_t>(nr);
  return b;
}

BlockSizes blocks_for_columns(const BlockSizes& blocks, std::int64_t n, int mr, int nr) {
  const std::int64_t kc = blocks.wide_kc > 0 && n >= blocks.wide_columns       ? blocks.wide_kc
                          : blocks.narrow_kc > 0 && n <= blocks.narrow_columns ? blocks.narrow_kc
                                                                               : 0;
  if (kc == 0) return blocks;
  BlockSizes b = blocks_at_depth(blocks, kc, mr, nr);
  b.kc = kc;
  b.mc = std::max<std::int64_t>(mr, b.mc);
  b.nc = std::max<std::int64_t>(nr, b.nc);
  return b;
}

BlockSizes blocks_at_depth(const BlockSizes& blocks, std::int64_t kc, int mr, int nr) {
  BlockSizes b = blocks;
  b.mc = round_down(blocks.mc * blocks.kc / kc, mr);
  b.nc = round_down(blocks.nc * blocks.kc / kc, nr);
  return b;
}

}  // namespace ridge::gemm_detail

// The analytical blocking model on known cache geometries.
#include "gemm/blocking.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "gemm/dispatch.hpp"
#include "gemm/kernel_set.hpp"
#include "kernels/cache_model.hpp"
#include "kernels/tile_shapes.hpp"
#include "ridge/ridge.hpp"
#include "runtime/tuning.hpp"

namespace ridge::test {
namespace {

Machine machine_with(std::int64_t l1, int w1, std::int64_t l2, int w2, std::int64_t l3, int w3,
                     int l3_sharing) {
  Machine m;
  m.caches = {{1, CacheKind::data, l1, 64, w1, 1},
              {2, CacheKind::unified, l2, 64, w2, 1},
              {3, CacheKind::unified, l3, 64, w3, l3_sharing}};
  return m;
}

TEST(Blocking, ZenFourFloatTile) {
  // Zen 4: L1d 32 KiB 8-way, L2 1 MiB 8-way, L3 32 MiB 16-way shared by 8 cores.
  const Machine zen4 = machine_with(32 << 10, 8, 1 << 20, 8, 32 << 20, 16, 8);
  const gemm_detail::BlockSizes b =
      gemm_detail::derive_block_sizes(zen4, 32, 12, 4, {.a_level = 3});
  // A in L3: B's micro-panel gets 7 of 8 L1 ways of 4 KiB: 7 * 4096 / (12 * 4) = 597 -> 596
  // (multiple of 4).
  EXPECT_EQ(b.kc, 596);
  // This core's L3 share: 4 MiB, 16 ways of 256 KiB. A gets (16 - 1) / 2 = 7 ways:
  // 7 * 262144 / (596 * 4) = 769 -> 768 (multiple of 32).
  EXPECT_EQ(b.mc, 768);
  // B gets the other 8 ways: 8 * 262144 / 2384 = 879 -> 876 (multiple of 12).
  EXPECT_EQ(b.nc, 876);
  // A in L2, the choice while L3's bandwidth is unmeasured: B gets a third of L1, 2 ways:
  // 2 * 4096 / 48 = 170 -> 168; A half of L2, 4 ways of 128 KiB: 4 * 131072 / (168 * 4) = 780
  // -> 768.
  const gemm_detail::BlockSizes l2 = gemm_detail::derive_block_sizes(zen4, 32, 12, 4);
  EXPECT_EQ(l2.a_level, 2);
  EXPECT_EQ(l2.kc, 168);
  EXPECT_EQ(l2.mc, 768);
}

// GemmTuning::b_l1_ways: B's micro-panel in that many ways of L1, at most all but one.
TEST(Blocking, TunedWaysSetTheDepth) {
  const Machine zen4 = machine_with(32 << 10, 8, 1 << 20, 8, 32 << 20, 16, 8);
  // 4 ways of 4 KiB: 4 * 4096 / (12 * 4) = 341 -> 340.
  EXPECT_EQ(gemm_detail::derive_block_sizes(zen4, 32, 12, 4, {.b_l1_ways = 4}).kc, 340);
  EXPECT_EQ(gemm_detail::derive_block_sizes(zen4, 32, 12, 4, {.b_l1_ways = 16}).kc,
            596);  // 7 of 8 at most
  EXPECT_EQ(gemm_detail::derive_block_sizes(zen4, 32, 12, 4, {.a_level = 3}).kc, 596);
  // A shallower KC fits more rows of A and columns of B in the same bytes.
  EXPECT_GT(gemm_detail::derive_block_sizes(zen4, 32, 12, 4, {.a_level = 3, .b_l1_ways = 4}).mc,
            768);
}

// The tuning's blocks reach the tiles of every element type on the ISA path: the float tiles'
// fields those of f32, f64 and bf16 widened to float, the dot products' fields of each type those
// of bf16 pairs and of int8 pairs or quads; not the tile registers, whose blocks are their own.
TEST(Blocking, TuningReachesEveryElementTypesTiles) {
  const Isa isa = active_isa();
  const GemmTuning before = gemm_tuning(isa);
  // Each kind of tiles on blocks of its own.
  const GemmTuning tunings[] = {{.a_level = 2,
                                 .b_l1_ways = 2,
                                 .bf16_a_level = 3,
                                 .bf16_b_l1_ways = 16,
                                 .int8_a_level = 2,
                                 .int8_b_l1_ways = 6},
                                {.a_level = 3,
                                 .b_l1_ways = 16,
                                 .bf16_a_level = 2,
                                 .bf16_b_l1_ways = 6,
                                 .int8_a_level = 3,
                                 .int8_b_l1_ways = 8}};
  for (const GemmTuning& tuning : tunings) {
    set_gemm_tuning(isa, tuning);
    const GemmTuning& in_force = runtime::gemm_tuning(isa);
    const auto expect_tuned = [&](const auto& table, int step_bytes, const char* type) {
      const gemm_detail::BlockSizes& b = gemm_detail::tuned_blocks(isa, table, in_force);
      if (table.kernels.step_multiple > 1) {
        EXPECT_EQ(&b, &table.blocks) << type;
        return;
      }
      GemmTuning tiles = tuning;
      if (table.kernels.depth_group > 1) {
        const bool bf16 = std::string(type) == "bf16";
        tiles.a_level = bf16 ? tuning.bf16_a_level : tuning.int8_a_level;
        tiles.b_l1_ways = bf16 ? tuning.bf16_b_l1_ways : tuning.int8_b_l1_ways;
      }
      const gemm_detail::BlockSizes want = gemm_detail::derive_block_sizes(
          Machine::current(), table.kernels.mr, table.kernels.nr, step_bytes, tiles);
      EXPECT_EQ(b.a_level, tiles.a_level) << type;
      EXPECT_EQ(b.kc, want.kc) << type;
      EXPECT_EQ(b.mc, want.mc) << type;
      EXPECT_EQ(b.nc, want.nc) << type;
    };
    expect_tuned(gemm_detail::gemm_kernels<float>(isa), 4, "f32");
    expect_tuned(gemm_detail::gemm_kernels<double>(isa), 8, "f64");
    expect_tuned(gemm_detail::gemm_kernels<float, std::uint16_t, std::uint16_t>(isa), 4, "bf16");
    expect_tuned(gemm_detail::gemm_kernels<std::int32_t, std::int8_t, std::uint8_t>(isa), 4,
                 "u8s8");
    expect_tuned(gemm_detail::gemm_kernels<std::int32_t, std::int8_t, std::int8_t>(isa), 4, "s8s8");
  }
  set_gemm_tuning(isa, before);
}

TEST(Blocking, DoubleHalvesTheDepthForTheSameBytes) {
  const Machine zen4 = machine_with(32 << 10, 8, 1 << 20, 8, 32 << 20, 16, 8);
  const gemm_detail::BlockSizes f = gemm_detail::derive_block_sizes(zen4, 16, 12, 4);
  const gemm_detail::BlockSizes d = gemm_detail::derive_block_sizes(zen4, 16, 12, 8);
  EXPECT_NEAR(d.kc * 2, f.kc, 2 * 4);  // equal up to rounding each to a multiple of 4
}

TEST(Blocking, LargerCachesGiveLargerBlocks) {
  const Machine small = machine_with(32 << 10, 8, 256 << 10, 8, 8 << 20, 16, 4);
  const Machine large = machine_with(48 << 10, 12, 2 << 20, 16, 32 << 20, 16, 4);
  const gemm_detail::BlockSizes s = gemm_detail::derive_block_sizes(small, 16, 6, 4);
  const gemm_detail::BlockSizes l = gemm_detail::derive_block_sizes(large, 16, 6, 4);
  EXPECT_GT(l.kc, s.kc);
  EXPECT_GT(l.mc * l.kc, s.mc * s.kc);
  EXPECT_GT(l.nc * l.kc, s.nc * s.kc);
  for (const auto& b : {s, l}) {
    EXPECT_EQ(b.mc % 16, 0);
    EXPECT_EQ(b.nc % 6, 0);
  }
}

TEST(Blocking, MeasuredCapacitiesReplaceReportedOnes) {
  Machine vm = machine_with(32 << 10, 8, 1 << 20, 8, 32 << 20, 16, 2);
  const gemm_detail::BlockSizes reported = gemm_detail::derive_block_sizes(vm, 32, 12, 4);
  vm.caches[2].measured_bytes = 5 << 20;  // what latency sees of the 32 MiB L3
  const gemm_detail::BlockSizes latency = gemm_detail::derive_block_sizes(vm, 32, 12, 4);
  vm.caches[2].streaming_bytes = 9 << 20;  // what streaming reads see
  vm.caches[1].measured_bytes = 720 << 10;
  const gemm_detail::BlockSizes streaming = gemm_detail::derive_block_sizes(vm, 32, 12, 4);
  EXPECT_EQ(reported.kc, streaming.kc);  // L1 is taken as built
  // The A block's rows as L3 would keep them.
  const auto in_l3 = [&] { return gemm_detail::derive_block_sizes(vm, 32, 12, 4, {.a_level = 3}); };
  const gemm_detail::BlockSizes l3_streaming = in_l3();
  vm.caches[2].streaming_bytes = 0;
  const gemm_detail::BlockSizes l3_latency = in_l3();
  vm.caches[2].measured_bytes = 0;
  const gemm_detail::BlockSizes l3_reported = in_l3();
  EXPECT_LT(l3_latency.mc, l3_reported.mc);
  EXPECT_LT(latency.nc, reported.nc);
  EXPECT_GT(l3_streaming.mc, l3_latency.mc);  // the streaming capacity comes first
  EXPECT_LT(l3_streaming.mc, l3_reported.mc);
  // Per-core share 4.5 MiB in 16 ways of 288 KiB; A gets 7: 7 * 294912 / 2384 = 865 -> 864.
  EXPECT_EQ(l3_streaming.mc, 864);
  // In L2 (the choice without a measured L3 bandwidth), KC from 2 ways (168, as for Zen 4):
  // half of the measured 720 KiB's 8 ways of 90 KiB: 4 * 92160 / (168 * 4) = 548 -> 544.
  EXPECT_EQ(streaming.mc, 544);
  EXPECT_EQ(streaming.a_level, 2);
  EXPECT_EQ(streaming.l2_elements, (720 << 10) / 4);  // the measured L2
  EXPECT_EQ(reported.l2_elements, (1 << 20) / 4);
}

// The A block's home: L3 when the probe measured that L3 feeds the tile's A stream,
// e * f32 peak / (2 NR) bytes/s with 1.5x headroom, else L2 (blocking.cpp).
TEST(Blocking, ASlowL3SendsTheABlockToL2) {
  Machine m = machine_with(32 << 10, 8, 1 << 20, 8, 32 << 20, 16, 8);
  const gemm_detail::BlockSizes unmeasured = gemm_detail::derive_block_sizes(m, 32, 12, 4);
  const gemm_detail::BlockSizes tuned_l3 =
      gemm_detail::derive_block_sizes(m, 32, 12, 4, {.a_level = 3});
  EXPECT_EQ(unmeasured.a_level, 2);
  EXPECT_EQ(tuned_l3.a_level, 3);
  EXPECT_EQ(gemm_detail::derive_block_sizes(m, 32, 12, 4, {.a_level = 2}).mc, unmeasured.mc);
  // 240 GFLOP/s against NR = 12 asks 40 GB/s of A: 59.9 is short of 1.5x, 60 is not.
  m.measured_f32_gflops = 240;
  m.caches[2].measured_read_gbs = 59.9;
  const gemm_detail::BlockSizes slow = gemm_detail::derive_block_sizes(m, 32, 12, 4);
  EXPECT_EQ(slow.a_level, 2);
  // Half of L2's 8 ways of 128 KiB: 4 * 131072 / (168 * 4) = 780 -> 768 (multiple of 32).
  EXPECT_EQ(slow.mc, 768);
  EXPECT_EQ(slow.kc, unmeasured.kc);
  EXPECT_EQ(slow.nc, unmeasured.nc);  // B's panel stays in L3
  m.caches[2].measured_read_gbs = 60;
  const gemm_detail::BlockSizes fast = gemm_detail::derive_block_sizes(m, 32, 12, 4);
  EXPECT_EQ(fast.a_level, 3);
  EXPECT_EQ(fast.mc, tuned_l3.mc);
  EXPECT_EQ(fast.kc, tuned_l3.kc);  // all but one way of L1: 596
  // f64 asks the same bytes: twice the size at half the rate.
  m.caches[2].measured_read_gbs = 59.9;
  EXPECT_EQ(gemm_detail::derive_block_sizes(m, 16, 12, 8).a_level, 2);
}

TEST(Blocking, ColumnsAWayApartShareOneL1Set) {
  // 32 KiB, 8 ways, 64 B lines: 64 sets, a way is 4 KiB.
  const Machine zen4 = machine_with(32 << 10, 8, 1 << 20, 8, 32 << 20, 16, 8);
  const kernels::CacheModel b = kernels::CacheModel::of(zen4);
  EXPECT_EQ(kernels::l1_lines_per_set(16384, 12, b), 12);  // every column in one set
  EXPECT_EQ(kernels::l1_lines_per_set(4096, 12, b), 12);
  EXPECT_EQ(kernels::l1_lines_per_set(2048, 12, b), 6);    // two sets
  EXPECT_EQ(kernels::l1_lines_per_set(1024, 12, b), 3);
  EXPECT_EQ(kernels::l1_lines_per_set(4096 + 64, 12, b), 1);  // one set per column
  EXPECT_EQ(kernels::l1_lines_per_set(4100, 12, b), 1);       // not whole lines: spread
  EXPECT_EQ(kernels::l1_lines_per_set(4096, 1, b), 1);
  // 24 KiB, 8 ways: 48 sets (not a power of two), a way is 3 KiB.
  const Machine odd = machine_with(24 << 10, 8, 1 << 20, 8, 32 << 20, 16, 8);
  const kernels::CacheModel o = kernels::CacheModel::of(odd);
  EXPECT_EQ(o.l1_sets, 48);
  EXPECT_EQ(kernels::l1_lines_per_set(3072, 12, o), 12);  // a way apart: one set
  EXPECT_EQ(kernels::l1_lines_per_set(4096, 12, o), 4);   // 64 lines apart: 3 sets
  EXPECT_EQ(kernels::l1_lines_per_set(1024, 12, o), 4);   // 16 lines apart: 3 sets
  EXPECT_EQ(kernels::l1_lines_per_set(64, 12, o), 1);
}

TEST(Blocking, FmaPipesPickTheNarrowTiles) {
  Machine m;
  EXPECT_EQ(gemm_detail::fma_pipes(m, Isa::avx512), 2);  // unmeasured: the most
  m.measured_fma_per_cycle = {{"avx512", 0.98}, {"avx2", 1.92}, {"generic", 1.3}};
  EXPECT_EQ(gemm_detail::fma_pipes(m, Isa::avx512), 1);  // Zen 4's one 512-bit pipe
  EXPECT_EQ(gemm_detail::fma_pipes(m, Isa::avx2), 2);
  EXPECT_EQ(gemm_detail::fma_pipes(m, Isa::generic), 2);  // two pipes read low by a noisy run
  m.measured_fma_per_cycle = {{"avx512", 7.0}, {"avx2", 0.2}};
  EXPECT_EQ(gemm_detail::fma_pipes(m, Isa::avx512), 2);
  EXPECT_EQ(gemm_detail::fma_pipes(m, Isa::avx2), 1);
  // Twice latency accumulators for one pipe: 2-vector tiles 4 columns; two pipes run the full
  // tile.
  EXPECT_EQ(kernels::kAvx512Tiles.narrow_columns(1), 4);
  EXPECT_EQ(kernels::kAvx512Tiles.narrow_columns(2), kernels::kAvx512Tiles.nr);
  EXPECT_EQ(kernels::kAvx2Tiles.narrow_columns(1), 4);
  EXPECT_EQ(kernels::kAvx2Tiles.narrow_columns(2), kernels::kAvx2Tiles.nr);
}

TEST(Blocking, SkinnyDepthFollowsTheMeasuredPageStreams) {
  Machine m;
  EXPECT_EQ(gemm_detail::skinny_depth(m), 64);  // unmeasured
  m.measured_page_streams = 32;
  EXPECT_EQ(gemm_detail::skinny_depth(m), 32);
  m.measured_page_streams = 50;
  EXPECT_EQ(gemm_detail::skinny_depth(m), 48);  // whole 4-deep steps
  m.measured_page_streams = 2;
  EXPECT_EQ(gemm_detail::skinny_depth(m), 4);
  // A slope: few streams at full rate, many at seven tenths of it.
  m.measured_page_streams = 8;
  m.measured_kept_page_streams = 64;
  EXPECT_EQ(gemm_detail::skinny_depth(m), 64);
  m.measured_kept_page_streams = 24;  // an early fall: the full-rate count
  EXPECT_EQ(gemm_detail::skinny_depth(m), 8);
  m.measured_page_streams = 32;  // a cliff past the full-rate count: that count
  m.measured_kept_page_streams = 48;
  EXPECT_EQ(gemm_detail::skinny_depth(m), 32);
}

// Copying ahead, the packed path's two A blocks have an eighth of the model's rows at their depth,
// and together take at most half of L2.
TEST(Blocking, CopiedAheadBlocksKeepToHalfOfL2) {
  // A in L3 (KC = 1192, MC = 384), copied 188 deep: an eighth is 304 rows, two blocks 447 KiB.
  for (const std::int64_t l2 : {std::int64_t{512} << 10, std::int64_t{2} << 20}) {
    const Machine m = machine_with(32 << 10, 8, l2, 8, 8 << 20, 16, 2);
    const gemm_detail::BlockSizes model =
        gemm_detail::derive_block_sizes(m, 16, 6, 4, {.a_level = 3});
    EXPECT_EQ(model.l2_elements, l2 / 4);
    const gemm_detail::PackedPlan plan = gemm_detail::packed_plan(4096, model, 16, 6, true);
    const gemm_detail::BlockSizes eighth = gemm_detail::blocks_at_depth(model, plan.depth, 16, 6);
    EXPECT_LE(plan.depth, gemm_detail::kCopyAheadDepth);
    EXPECT_EQ(plan.blocks.mc % 16, 0);
    EXPECT_LE(plan.blocks.mc, eighth.mc / gemm_detail::kCopyAheadRowShare);
    EXPECT_LE(2 * plan.blocks.mc * plan.depth, model.l2_elements / 2);
    // 512 KiB: half of it holds 174 rows (160 in whole tiles); 2 MiB: the eighth.
    EXPECT_EQ(plan.blocks.mc, l2 == 512 << 10 ? 160 : 304);
    // Without copying ahead, the model's blocks at that depth.
    EXPECT_EQ(gemm_detail::packed_plan(4096, model, 16, 6, false).blocks.mc,
              gemm_detail::blocks_at_depth(model, gemm_detail::packed_depth(4096, model), 16, 6)
                  .mc);
  }
}

// blocks_for_columns on tile-register blocks for a product of n columns of C, which takes slices
// kc deep: its blocks the same bytes as the model's (to a row of tiles), applied again nothing
// changes (the driver passes the blocks on as the model), and the packed path's slices are then
// up to kc deep.
void expect_tile_blocks(const gemm_detail::BlockSizes& tiles, std::int64_t n, std::int64_t kc) {
  const gemm_detail::BlockSizes b = gemm_detail::blocks_for_columns(tiles, n, 32, 32);
  EXPECT_EQ(b.kc, kc) << n << " columns";
  EXPECT_EQ(b.mc % 32, 0);
  EXPECT_GE(b.mc, 32);
  EXPECT_LE(b.mc * b.kc, tiles.mc * tiles.kc);
  EXPECT_GT(b.mc * b.kc, tiles.mc * tiles.kc - 32 * b.kc);
  EXPECT_EQ(b.nc % 32, 0);
  const gemm_detail::BlockSizes again = gemm_detail::blocks_for_columns(b, n, 32, 32);
  EXPECT_EQ(again.kc, b.kc);
  EXPECT_EQ(again.mc, b.mc);
  EXPECT_EQ(again.nc, b.nc);
  EXPECT_EQ(gemm_detail::packed_plan(2 * std::max(kc, tiles.kc), b, 32, 32, false, 16).depth, kc);
}

// Tile-register blocks take deeper slices for products of many columns of C and shallower ones
// (with as many more rows) for products of one or two strips, their blocks the same bytes; the
// widths between, and other blocks, keep the model's.
TEST(Blocking, TileRegisterSlicesFollowTheProductsWidth) {
  const Machine m = machine_with(48 << 10, 12, 2 << 20, 16, 64 << 20, 16, 2);
  const gemm_detail::BlockSizes tiles = gemm_detail::tile_register_block_sizes(m, 32, 32, 4);
  ASSERT_GT(tiles.wide_kc, tiles.kc);
  ASSERT_GT(tiles.wide_columns, 32);
  ASSERT_GT(tiles.narrow_kc, 0);
  ASSERT_LT(tiles.narrow_kc, tiles.kc);
  ASSERT_GE(tiles.narrow_columns, 32);
  for (const std::int64_t n : {tiles.wide_columns, 4 * tiles.wide_columns})
    expect_tile_blocks(tiles, n, tiles.wide_kc);
  for (const std::int64_t n : {std::int64_t{1}, tiles.narrow_columns})
    expect_tile_blocks(tiles, n, tiles.narrow_kc);
  EXPECT_GT(gemm_detail::blocks_for_columns(tiles, 1, 32, 32).mc, tiles.mc);
  for (const std::int64_t n : {tiles.narrow_columns + 1, tiles.wide_columns - 1})
    EXPECT_EQ(gemm_detail::blocks_for_columns(tiles, n, 32, 32).kc, tiles.kc);
  const gemm_detail::BlockSizes vector = gemm_detail::derive_block_sizes(m, 16, 6, 4);
  EXPECT_EQ(vector.wide_kc, 0);
  EXPECT_EQ(vector.narrow_kc, 0);
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1} << 20})
    EXPECT_EQ(gemm_detail::blocks_for_columns(vector, n, 16, 6).kc, vector.kc);
}

TEST(Blocking, MissingCachesStillGiveUsableBlocks) {
  Machine bare;  // no cache information at all
  const gemm_detail::BlockSizes b = gemm_detail::derive_block_sizes(bare, 8, 6, 4);
  EXPECT_GE(b.kc, 16);
  EXPECT_GE(b.mc, 8);
  EXPECT_GE(b.nc, 6);
}

}  // namespace
}  // namespace ridge::test

// The packed paths of the bf16 and int8 GEMMs on AMX tiles (kernels/amx_tile.hpp): the loop nest
// of Loops::packed (gemm/loops.hpp), its A blocks packed as for VDPBF16PS or VPDPBUSD
// (kernels/pack_pairs.hpp, pack_quads.hpp: the tile's second operand as it is) and its B strips
// as rows along the depth (kernels/pack_k_rows.hpp), each depth slice a whole number of tile
// steps, zero-padded; int8's zero points corrected after the product as on VPDPBUSD
// (kernels::QuadCorrection); and a few columns of C against A's rows where they lie
// (AmxRowLoops: x W^T, kernels/amx_row_tile.hpp). The other paths of the kernel set (one to four
// columns of C, one row) stay on the vector kernels: they are bound by reading the weights,
// which a faster product does not change.
//
// The blocks: gemm/blocking.cpp, tile_register_block_sizes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gemm/loops.hpp"
#include "kernels/amx_row_tile.hpp"
#include "kernels/amx_tile.hpp"
#include "kernels/cache_model.hpp"
#include "kernels/epilogue_kernel_set.hpp"
#include "kernels/pack_k_rows.hpp"
#include "simd/avx512.hpp"

namespace ridge::gemm_detail {

// V: the vector kernels' traits on the same packed A (simd::Avx512Bf16Pairs or Avx512Int8Quads),
// SourceA and SourceB as GemmKernels'.
template <class V, class SourceA, class SourceB>
struct AmxLoops {
  using Base = Loops<V, kernels::kAvx512Tiles, SourceA, SourceB>;
  using T = typename Base::T;
  using Problem = typename Base::Problem;
  using PrepackedProblem = typename Base::PrepackedProblem;
  using TileC = kernels::TileC<T>;
  static constexpr int MR = kernels::kAmxRows;
  static constexpr int NR = kernels::kAmxColumns;
  static constexpr int kStep = kernels::kAmxSlots;  // GemmKernels::step_multiple
  static constexpr int kGroup = Base::kDepthGroup;  // depths a slot
  static constexpr bool kQuads = Base::kQuads;
  // GemmKernels::packing_cost. The tiles do a multiply-add in about 2 ps (bf16 970 GFLOP/s on 1
  // thread at 4096^3), packing the weights from memory takes 250 ps an element (8 GB/s), and a
  // thread that packs all of A to save splitting C's cache lines with the other loses much more
  // than the shared lines cost. Measured on the 2-vCPU Xeon guest, 2 threads, C 16 bytes past a
  // line start (a heap allocation), A's rows split against C's columns, alternated: bf16 512 x
  // 4096 x 11008 1.08-1.10x; u8s8 1.07-1.15x, 256 x 4096 x 4096 1.26-1.30x. Int8's rate is twice
  // bf16's with an element half the bytes, so the same.
  static constexpr std::int64_t kPackingCost = 120;
  // GemmKernels::dot_width: the dot products along W's rows run on the vector kernels, which the
  // tiles on W's rows in place (AmxRowLoops below) overtake from a few rows of x. Measured on the
  // 2-vCPU Xeon guest, M x 4096 x 4096 x W^T on 2 threads, GFLOP/s (GOP/s) on the dot products
  // against the tiles, two alternated runs: bf16 M = 2 / 3 / 4 / 5 / 8 / 10 105-106 / 119-120 /
  // 175-181 / 171-173 / 180-198 / 196-201 against 91-92 / 123-136 / 176-182 / 215-230 / 357-363
  // / 413-453; u8s8 M = 2 / 3 / 4 / 6 / 8 / 12 / 16 197-199 / 253-256 / 445-448 / 476-481 /
  // 551-625 / 627-635 / 753-784 against 178-180 / 258-260 / 344-348 / 519-523 / 684-687 / 1035 /
  // 1353-1367; s8s8 M = 3 / 4 / 5 / 6 / 8 235-246 / 383-444 / 387-463 / 443-447 / 561-562
  // against 258-260 / 383 / 476-484 / 566-576 / 640-770.
  static constexpr std::int64_t kDotWidth = kQuads ? 4 : 2;
  // GemmKernels::rows_in_place_width: the packed path transposes W into the tiles' slots, then
  // reuses each block of it for every strip of x's rows. Measured on the 2-vCPU Xeon guest, M x
  // 4096 x 4096 x W^T on 2 threads, W's rows in place against the packed path, alternated, two
  // runs (a loud hour for bf16): bf16, GFLOP/s, M = 128 / 144 / 160 / 176 / 192 1384-1557 /
  // 1383-1411 / 1500-1518 / 1335-1353 / 1417-1445 against 1128-1254 / 1179-1346 / 1176-1430 /
  // 1240-1401 / 1227-1532, and 160 x 4096 x 11008 1217-1286 against 1166-1445; u8s8, GOP/s, M =
  // 128 / 160 / 192 / 256 2897-2946 / 2988-3050 / 3078-3125 / 3016-3044 against 2493-2652 /
  // 2823-2896 / 3176-3418 / 3423-3625.
  static constexpr std::int64_t kRowsInPlaceWidth = 160;
  // bf16's GemmKernels::column_sweep_columns: the column sweep (GEMV's, kernels/column_sweep.hpp)
  // reads W once for every row of x, the tiles pack it for them all; against a W within L2 the
  // tiles pass the sweep from 6 rows of x. Measured on the 2-vCPU Xeon guest, bf16 M x N x K on
  // 2 threads, two alternated runs, GFLOP/s, the sweep against the tiles: M x 512 x 512, M = 4 /
  // 5 / 6 / 7 / 8 124-126 / 118-124 / 126-130 / 136-144 / 132-139 against 100-104 / 121-123 /
  // 142-150 / 188-190 / 179-191; 8 x 256 x 256 87-88 against 154-159; 8 x 1024 x 512 159-170
  // against 192-200; 5 / 6 / 8 x 768 x 768 140-150 / 148-152 / 170-174 against 127-128 /
  // 156-158 / 192-196; past L2, 6 / 8 x 1024 x 1024 160-170 / 178-190 against 122-133 / 162-164.
  // On 1 thread the sweep keeps 6 rows (6 x 512 x 512 112-116 against 99-101) and the tiles take
  // 8 (116-122 against 128-138); the route cannot follow the thread count (the results would
  // differ in their last bits), and by default every CPU runs.
  static constexpr int kSweepColumnsInL2 = 5;
  static_assert(Base::MR == MR, "A's panels are the vector tiles' own");

  // The slot steps of a k-deep product, whole tile steps.
  static std::int64_t steps_of(std::int64_t k) { return round_up(Base::depth_steps(k), kStep); }

  // The loops over B's panels, the depth's slices and A's blocks, each block's tiles strip by
  // strip. block_of_a(ic, mc, pc, kc, first_panel, last_slice) gives A's block of rows
  // [ic, ic + mc) over steps [pc, pc + kc): row ir's panel at first + ir * row_slots (packing it
  // adds its rows' sums to the correction where quads need them: on B's first panel).
  struct BlockOfA {
    const T* first;
    std::int64_t row_slots;
  };
  template <class P, class AFor>
  static void run(const P& p, std::int64_t steps, const PackedPlan& plan,
                  const WorkspaceParts<T>& parts, std::byte* work,
                  [[maybe_unused]] typename Base::Correction& correction, AFor block_of_a) {
    const BlockSizes& bs = plan.blocks;
    const bool c_lines_far = fetches_c(p.m * p.n * std::int64_t{sizeof(T)});
    auto* const b_packed = reinterpret_cast<std::uint8_t*>(parts.b(work));
    const kernels::AmxTiles tiles;
    alignas(64) T ring[2 * MR * NR];  // CopyBehind's two slots, 8 KiB
    int slot = 0;
    CopyBehind copy;
    for (std::int64_t jc = 0; jc < p.n; jc += bs.nc) {
      const std::int64_t nc = std::min(bs.nc, p.n - jc);
      for (std::int64_t pc = 0; pc < steps; pc += plan.depth) {
        const std::int64_t kc = std::min(plan.depth, steps - pc);
        const T beta = pc == 0 ? p.beta : T(1);
        const bool last_slice = pc + kc == steps;
        const kernels::Epilogue* epilogue = last_slice ? p.epilogue : nullptr;
        const std::int64_t k0 = kGroup * pc;
        const std::int64_t depth = std::min(kGroup * kc, p.k - k0);
        // B's packed strip of columns [jr, jr + NR): kc / kStep tile steps.
        const std::int64_t strip_bytes = kc / kStep * kernels::kAmxStepB;
        const auto strip = [&](std::int64_t jr) { return b_packed + jr / NR * strip_bytes; };
        const bool stream_a = streams_a(strip_bytes);
        std::int32_t* column_sums = nullptr;
        if constexpr (kQuads) {
          if (pc == 0) correction.start_columns(nc);
          column_sums = correction.column_sums();
        }
        for (std::int64_t jr = 0; jr < nc; jr += NR) {
          const int n = static_cast<int>(std::min<std::int64_t>(NR, nc - jr));
          kernels::pack_k_rows(depth, n, p.b + k0 * p.b_rs + (jc + jr) * p.b_cs, p.b_rs, p.b_cs,
                               kc / kStep, strip(jr),
                               column_sums != nullptr ? column_sums + jr : nullptr);
          if constexpr (kQuads) {
            if (last_slice) correction.finish_columns(jr, n);
          }
        }
        // The tiles' finishing work in the last slice, each tile's during the next one's steps.
        FinishBehind behind(epilogue, kQuads && last_slice ? &correction : nullptr);
        const bool finishing = behind.has_work();
        for (std::int64_t ic = 0; ic < p.m; ic += bs.mc) {
          const std::int64_t mc = std::min(bs.mc, p.m - ic);
          const BlockOfA a = block_of_a(ic, mc, pc, kc, jc == 0, last_slice);
          for (std::int64_t jr = 0; jr < nc; jr += NR) {
            const int n = static_cast<int>(std::min<std::int64_t>(NR, nc - jr));
            const std::uint8_t* b = strip(jr);
            // The strip after this one (after the last, the first, for the next block), fetched
            // into L2 by this strip's tiles, an even share each.
            const std::int64_t strip_lines = strip_bytes / simd::kLineBytes;
            const std::int64_t tiles_in_strip = (mc + MR - 1) / MR;
            const std::int64_t tile_lines = (strip_lines + tiles_in_strip - 1) / tiles_in_strip;
            const std::uint8_t* following = strip((jr + NR) % round_up(nc, NR));
            for (std::int64_t ir = 0, t = 0; ir < mc; ir += MR, ++t) {
              const int m = static_cast<int>(std::min<std::int64_t>(MR, mc - ir));
              const TileC tile_c{p.c + ic + ir + (jc + jr) * p.ldc, p.ldc, m, n, p.alpha, beta};
              const std::int64_t first = std::min(t * tile_lines, strip_lines);
              // With one strip, the next tile's panel of A instead: A packed beforehand comes
              // from memory (PackedMatrix; measured with one strip, 8 to 32 rows of x, 2 threads:
              // bf16 1.10-1.16x, u8s8 1.03-1.11x).
              const bool last_tile = ir + MR >= mc;
              const FetchLines fetch =
                  nc <= NR ? FetchLines(a.first + (last_tile ? ir : ir + MR) * a.row_slots,
                                        last_tile ? 0 : kc * MR * sizeof(T) / simd::kLineBytes,
                                        kc / kStep)
                           : FetchLines(following + first * simd::kLineBytes,
                                        std::min(tile_lines, strip_lines - first), kc / kStep);
              const T* const a_panel = a.first + ir * a.row_slots;
              // A whole tile goes to the ring where it does not read C, or where it has an
              // epilogue. The tile behind is then copied to C a few columns a step (CopyBehind),
              // each column then finished in C (int8's zero-point terms: FinishBehind), or with
              // an epilogue finished in its slot a few columns a step and then copied.
              const bool into_ring = CopyBehind::takes(tile_c, epilogue != nullptr);
              FetchColumns fetch_c;
              if (into_ring) {
                copy.pace(kc / kStep);
                if (c_lines_far)
                  fetch_c = FetchColumns(tile_c.data, NR, kc / kStep, p.ldc * sizeof(T));
              } else {
                copy.finish();  // before the tile behind's columns are finished
              }
              if (finishing) behind.pace(kc / kStep, tile_c);
              const BesideSteps side{fetch, fetch_c, &copy, finishing ? &behind : nullptr};
              // The slot holding a ring tile with an epilogue, which is finished there.
              T* finished_in_ring = nullptr;
              if (into_ring) {
                T* const sums = ring + (slot ^= 1) * (MR * NR);
                kernels::amx_tile(kc / kStep, a_panel, b, tile_c, stream_a, side, sums);
                if (epilogue != nullptr) {
                  finished_in_ring = sums;
                } else {
                  copy.take(sums, tile_c);
                }
              } else if (finishing) {
                kernels::amx_tile(kc / kStep, a_panel, b, tile_c, stream_a, side);
              } else {
                // The fetching alone beside the steps: BesideSteps's checks a step ran bf16 32 x
                // 4096 x 4096 (8 steps a tile) at 0.90-0.95x of this on the 2-vCPU Xeon guest.
                kernels::amx_tile(kc / kStep, a_panel, b, tile_c, stream_a, fetch);
              }
              if (finishing) behind.take(tile_c, ic + ir, jr, finished_in_ring);
            }
          }
          copy.finish();
          behind.finish();
        }
      }
    }
  }

  // Whether a block's tiles fetch C's lines for the ring's copy (FetchColumns): where its C, of
  // `bytes`, is more than four times what L2 keeps. Below that the fetches only cost. Measured on
  // the 2-vCPU Xeon guest (2 MiB L2), 2 threads, M x M x 512 with the fetch against without,
  // alternated, two rounds (C's block a thread in brackets): M = 1448 (4 MiB) bf16 0.95-0.99x,
  // u8s8 0.93-0.99x; 2048 (8 MiB) u8s8 1.14-1.18x, bf16 level; 2512 (12 MiB) u8s8 1.24-1.30x;
  // 2896 (16 MiB) 1.06-1.42x / 1.31-1.34x; 3552 (24 MiB) 1.44-1.54x / 1.20-1.30x; 1024^3 (2 MiB)
  // u8s8 / s8s8 0.92-0.98x / 0.87-0.95x; on 1 thread 2048 x 2048 x 512 (16 MiB) bf16
  // 1.12-1.17x, u8s8 1.10x, 1448 x 1448 x 512 (8 MiB) level. (The rule for reads, C above half of
  // what L3 keeps, 52 MiB there, left out 2048 and 2896 x 2896 x 512: 0.71-0.92x this one, u8s8.)
  static bool fetches_c(std::int64_t bytes) {
    return bytes > 4 * kernels::CacheModel::current().l2_streamed;
  }

  // Whether the tiles load A's panels past L1 (kernels::amx_steps' stream_a): where B's strip
  // takes at most two thirds of L1, which then keeps it for all the strip's tiles; A's panels
  // and B's strip otherwise both stream from L2, 4 KiB a step. Measured on the 2-vCPU Xeon guest
  // (48 KiB L1), 2 threads, against A loaded into L1, alternated, two runs: bf16 with 32 KiB
  // strips (a depth of 512) 512^3 1.18-1.19x (1 thread 1.27x), 1024 x 1024 x 512 1.26x (1.28x),
  // 2048 x 2048 x 512 1.23-1.27x, 4096 x 4096 x 512 1.14x; u8s8 with 32 KiB strips (a depth of
  // 1024) 1024^3 1.14-1.17x, 1000^3 1.12-1.13x, with 16 KiB ones 0.99-1.13x; 64 KiB strips (the
  // usual 512 steps) level either way (bf16 1024^3 1.00x, 2048^3 0.95-1.00x, 4096^3 0.99-1.00x).
  // Slices of 256 steps, to make every strip fit, lost more to the stores of C (bf16 4096^3
  // 0.81x).
  static bool streams_a(std::int64_t strip_bytes) {
    return strip_bytes <= kernels::CacheModel::current().l1_bytes() * 2 / 3;
  }

  // What a tile does beside its steps: fetches `runs` runs of kRunLines lines, `stride` bytes
  // apart (back to back unless given), from `next` on into L2, evenly over its `steps` steps.
  template <int kRunLines>
  class FetchRuns {
   public:
    FetchRuns() = default;
    FetchRuns(const void* next, std::int64_t runs, std::int64_t steps,
              std::int64_t stride = kRunLines * simd::kLineBytes)
        : next_(static_cast<const std::uint8_t*>(next)),
          stride_(stride),
          left_(runs),
          per_step_(steps > 0 ? (runs + steps - 1) / steps : 0) {}
    [[gnu::always_inline]] void step() {
      for (std::int64_t i = 0; i < per_step_ && left_ > 0; ++i, --left_, next_ += stride_)
        for (int l = 0; l < kRunLines; ++l) __builtin_prefetch(next_ + l * simd::kLineBytes, 0, 2);
    }

   private:
    const std::uint8_t* next_ = nullptr;
    std::int64_t stride_ = 0, left_ = 0, per_step_ = 0;
  };
  // B's next strip into L2 (with one strip, A's next panel), 64 KiB at the usual 512 steps a
  // slice, which would otherwise come from L3 when its first tile needs it. Measured on the
  // 2-vCPU Xeon guest, 2 threads, against none, alternated, two runs: bf16 1024^3 1.04-1.10x,
  // 4096^3 1.02-1.07x, 512 x 4096 x 11008 1.03-1.06x; u8s8 4096^3 1.01-1.02x.
  using FetchLines = FetchRuns<1>;
  // A ring tile's own columns of C, fetched during its steps where C's lines lie past L2
  // (fetches_c), so that the copy behind it (CopyBehind, during the next tile) stores into lines
  // already near: perf, bf16 4096 x 4096 x 512 on 1 thread, put a third of the samples on the
  // copy's stores, which waited for C's lines from memory with the store buffer full. Measured
  // on the 2-vCPU Xeon guest, 2 threads, against none, alternated, three rounds, GFLOP/s (GOP/s):
  // bf16 4096 x 4096 x 512 1331-1711 -> 2109-2229, 4096^3 2008-2049 -> 2078-2152 (1 thread
  // 999-1039 -> 1062-1107); u8s8 4096 x 4096 x 512 1844-1977 -> 2360-2418, 4096^3 4065-4229 ->
  // 4292-4414 (1 thread 2129-2162 -> 2278-2351); with bias + GELU (tanh) + residual at 4096^3,
  // u8s8 1.08-1.12x.
  using FetchColumns = FetchRuns<MR * sizeof(T) / simd::kLineBytes>;

  // A whole tile's sums stored to a slot of a two-slot ring (8 KiB, in L1) and copied to C a
  // few columns a step while the next tile multiplies, where a tile store into C's own lines
  // waits for them to come from L2 or L3 before the next tile starts (C is written once and
  // seldom in L1). Measured on the 2-vCPU Xeon guest, bf16 512^3 on 1 thread (16 steps a tile),
  // the tiles' time a call in TSC ticks: stored into C 730-810 thousand, into one 4 KiB buffer
  // 445, into slots cycling through 1 MiB (L2) 515 and 8 MiB (L3) 735, not stored at all 350;
  // fetching C's lines during the tile (PREFETCHW, or T0 or T1) changed nothing; the ring with
  // the copy behind 571-609. Against the store into C, alternated, 2 threads: bf16 512^3
  // 1.22-1.28x (1 thread 1.24x), 1024^3 1.03x, 2048^3 1.03-1.12x, 4096^3 (two slices, the
  // second adding to C) 0.94-1.04x; u8s8 1024^3 1.13-1.19x; s8s8 (its zero-point terms finished
  // behind) 1.08-1.19x on the squares; narrow shapes level.
  class CopyBehind {
   public:
    // Whether c takes the ring: a whole tile that the tile registers take in place
    // (kernels::amx_tile: alpha 1 and beta 0 or 1; int32 sums always) and that does not read C
    // (beta 0), or with an epilogue also one that does (finished in its slot: FinishBehind).
    // Without one, a tile that adds to C has just loaded its lines, and stores into them at no
    // such cost.
    static bool takes(const TileC& c, bool epilogue) {
      return c.rows == MR && c.cols == NR && (std::is_same_v<T, std::int32_t> || c.alpha == 1) &&
             (c.beta == 0 || (epilogue && c.beta == 1));
    }
    // The next tile takes `steps` steps: the columns left of the tile behind spread over them.
    void pace(std::int64_t steps) {
      const int left = NR - next_;
      per_step_ = steps > 0 ? static_cast<int>((left + steps - 1) / steps) : left;
    }
    // c's sums, in `sums`, to copy next (the tile behind copied first).
    void take(const T* sums, const TileC& c) {
      finish();
      sums_ = sums;
      to_ = c.data;
      ld_ = c.ld;
      next_ = 0;
    }
    [[gnu::always_inline]] void step() {
      for (int i = 0; i < per_step_ && next_ < NR; ++i) column(next_++);
    }
    void finish() {
      while (next_ < NR) column(next_++);
    }

    // A column of a slot, `from`, to C at `to`.
    [[gnu::always_inline]] static void copy_column(const T* from, T* to) {
      static_assert(MR * sizeof(T) == 2 * sizeof(__m512i));
      const __m512i low = _mm512_load_si512(from), high = _mm512_load_si512(from + MR / 2);
      _mm512_storeu_si512(to, low);
      _mm512_storeu_si512(to + MR / 2, high);
    }

   private:
    [[gnu::always_inline]] void column(int j) { copy_column(sums_ + j * MR, to_ + j * ld_); }

    const T* sums_ = nullptr;
    T* to_ = nullptr;
    std::int64_t ld_ = 0;
    int next_ = NR, per_step_ = 0;
  };

  // The finishing of a tile of C once its products are stored: int8's zero-point terms
  // (kernels::QuadCorrection), then the epilogue, during the next tile's steps, on the core's
  // vector ports while the tile unit multiplies, where a strip's epilogue after its tiles held the
  // tile unit idle (bias + GELU + residual: 1.1 ns an element on 1 thread, 0.7 times the product's
  // own time at 1024^3). Against the epilogue after each strip, measured on the 2-vCPU Xeon guest,
  // 2 threads, bias + GELU (tanh) + residual, alternated: bf16 1024^3 1.16-1.21x, 4096^3
  // 1.07-1.08x, other shapes level; u8s8 4096^3 1.08x (a column a step then, which hid a quarter to
  // half of it: docs/notes/epilogue-behind-tiles-and-blocked-transposition-2026-12-05.md). An
  // epilogue of the common form (kernels::ColumnEpilogue: a bias, an activation, a residual) goes
  // a column at a time, the columns due spread evenly over the steps, each vector through its
  // operations in registers, inlined into the steps (kernels::apply_epilogue_to_column): beside a
  // loop of tile steps shaped as this block's, bias + GELU + residual on two vectors a step took
  // next to nothing more (cycles a step: the loop alone 196-210, with them 220-233), where a call
  // of the epilogue kernel on four columns every four steps took 250-288
  // (docs/notes/amx-epilogue-overlap-2026-12-07.md). Against those calls, alternated, three
  // rounds, 2 threads, bias + GELU (tanh) + residual, x the plain product: bf16 1024^3 0.74-0.77
  // -> 0.77-0.85, 4096^3 0.88-0.90 -> 0.89-0.92; u8s8 1024^3 0.46-0.48 -> 0.54-0.56, 4096^3
  // 0.78-0.79 -> 0.84-0.85; s8s8 (two rounds) 0.53-0.55 -> 0.61-0.65, 0.78-0.79 -> 0.85-0.89;
  // narrow shapes level. Other epilogues go four columns at a time (one batch of the activations'
  // eight vectors, kernels::activate_vectors) every few steps: one column a call took the
  // epilogue kernel 1.00 ns an element over 32 x 128 floats in L1 on that host, four 0.69, all at
  // once 0.66. The zero-point terms alone keep a column a step: four a call ran s8s8's plain
  // product at 0.87-0.99x. A ring tile (CopyBehind) with an epilogue is finished in its slot in L1,
  // then copied, so that C's lines are written once: finished after the copy, each line was loaded
  // back while its store still waited for the line from L3 (perf, u8s8 1024^3 with a bias on 1
  // thread: the epilogue 18% of the samples, a quarter of them on the load of the sums). Against
  // that, alternated, three rounds, 2 threads, bias + GELU + residual: u8s8 1024^3 1.07-1.09x,
  // 4096^3 1.04-1.11x; s8s8 1.07-1.16x, 1.02-1.14x; bf16 level. A tile of the last slice that adds
  // to C takes a slot too where it has an epilogue (C's tile loaded, the result stored to the
  // slot): x the plain product, three rounds, bf16 4096^3 (two slices) 0.86-0.87 -> 0.89, s8s8 512
  // x 4096 x 11008 0.84-0.88 -> 0.88-0.89, 32 x 4096 x 4096 0.94-0.95 -> 0.97; u8s8 +0.01-0.02 at
  // both. The zero-point terms alone stay after the copy (in the slot, s8s8's plain product
  // ran 1.06-1.13x at 1024^3 but 0.91-0.97x at 2048^3 on 1 thread). The residual's lines of each
  // tile are fetched into L2 during its own steps, for the next tile's (without, 4096^3 ran 0.80x:
  // its columns 16 KiB apart, each tile's from memory).
  class FinishBehind {
   public:
    FinishBehind(const kernels::Epilogue* epilogue, const typename Base::Correction* correction)
        : epilogue_(epilogue), correction_(correction) {
      if (epilogue != nullptr) form_ = kernels::ColumnEpilogue(*epilogue);
    }
    bool has_work() const {
      if constexpr (kQuads) {
        if (correction_ != nullptr && (correction_->row_terms() || correction_->column_terms()))
          return true;
      }
      return epilogue_ != nullptr;
    }
    // The next tile, `next`, takes `steps` steps: the columns left of the tile behind, and the
    // fetching of the next tile's residual lines (kernels::EpilogueOperandLines), spread over
    // them. With an epilogue of another form than ColumnEpilogue's, in whole batches of
    // kBatchColumns where a step's share is fewer.
    void pace(std::int64_t steps, const TileC& next) {
      const std::int64_t left = tile_.cols - next_;
      per_step_ = steps > 0 ? (left + steps - 1) / steps : left;
      batched_ = epilogue_ != nullptr && !form_.fits() && steps > 0 && per_step_ < kBatchColumns;
      steps_ = steps;
      step_ = 0;
      if (epilogue_ != nullptr)
        operands_ = kernels::EpilogueOperandLines(
            *epilogue_, reinterpret_cast<const float*>(next.data), next.rows);
      fetch_cols_ = operands_.empty() ? 0 : next.cols;
      fetch_next_ = 0;
      fetch_per_step_ = steps > 0 ? (fetch_cols_ + steps - 1) / steps : 0;
    }
    // c, C's rows [i0, i0 + c.rows) and columns [j0, j0 + c.cols) of the block, to finish next
    // (the tile behind finished first): in C, or where `ring` is not null, in that slot of the
    // ring (a whole tile), then copied to C.
    void take(const TileC& c, std::int64_t i0, std::int64_t j0, T* ring) {
      finish();
      tile_ = c;
      ring_ = ring;
      if (epilogue_ != nullptr)
        at_ = epilogue_->position_of(reinterpret_cast<const float*>(c.data));
      i0_ = i0;
      j0_ = j0;
      next_ = 0;
    }
    [[gnu::always_inline]] void step() {
      for (std::int64_t i = 0; i < fetch_per_step_ && fetch_next_ < fetch_cols_; ++i)
        operands_.fetch_column(fetch_next_++);
      if (next_ >= tile_.cols) return;
      if (form_.fits()) {
        // The columns due after this step, spread evenly over the steps (the tile behind was
        // taken just before them: none of its columns finished yet), each in registers.
        const std::int64_t due = tile_.cols * ++step_ / steps_;
        while (next_ < due) {
          if (epilogue_->subnormals_at_full_speed) {
            column_beside<true>();
          } else {
            column_beside<false>();
          }
        }
        return;
      }
      if (!batched_) {
        columns(static_cast<int>(std::min<std::int64_t>(per_step_, tile_.cols - next_)));
        return;
      }
      // The whole batches due after this step, spread evenly over the steps.
      const std::int64_t due = tile_.cols * ++step_ / steps_ / kBatchColumns * kBatchColumns;
      if (due > next_) columns(static_cast<int>(due - next_));
    }
    void finish() {
      if (next_ < tile_.cols) columns(tile_.cols - next_);
    }

   private:
    // The next n columns, in one call (the activations then take whole vectors across them).
    void columns(int n) {
      const TileC held = held_columns(n);
      correct(held);
      if (epilogue_ != nullptr) Base::finish(*epilogue_, held, {at_.row, at_.col + next_});
      copy_to_c(held);
      next_ += n;
    }
    // The next column with the epilogue, each vector through its operations in registers,
    // inlined into the steps (Base::finish_column); the same results as columns.
    template <bool kSubnormalsAtFullSpeed>
    [[gnu::always_inline]] void column_beside() {
      const TileC held = held_columns(1);
      correct(held);
      Base::template finish_column<kSubnormalsAtFullSpeed>(form_, held.data,
                                                           {at_.row, at_.col + next_}, tile_.rows);
      copy_to_c(held);
      ++next_;
    }
    // Columns [next_, next_ + n) of the tile where they are held: its slot of the ring, or C.
    TileC held_columns(int n) const {
      if (ring_ != nullptr) return TileC{ring_ + next_ * MR, MR, tile_.rows, n};
      return TileC{tile_.data + next_ * tile_.ld, tile_.ld, tile_.rows, n};
    }
    // int8's zero-point terms on those columns.
    void correct([[maybe_unused]] const TileC& held) const {
      if constexpr (kQuads) {
        if (correction_ != nullptr)
          correction_->apply(held.data, held.ld, i0_, tile_.rows, j0_ + next_, held.cols);
      }
    }
    // Those columns copied from the ring's slot to C, where they are held there.
    void copy_to_c(const TileC& held) const {
      if (ring_ == nullptr) return;
      for (int j = 0; j < held.cols; ++j)
        CopyBehind::copy_column(held.data + j * MR, tile_.data + (next_ + j) * tile_.ld);
    }

    // The columns whose vectors make one batch of the activations (kernels::kActivationVectors,
    // eight vectors of 16 floats: four columns of a 32-row tile).
    static constexpr int kBatchFloats =
        simd::Avx512<float>::width * kernels::kActivationVectors<simd::Avx512<float>>;
    static constexpr int kBatchColumns = kBatchFloats > MR ? kBatchFloats / MR : 1;

    const kernels::Epilogue* epilogue_;
    const typename Base::Correction* correction_;
    kernels::ColumnEpilogue form_;
    TileC tile_{};
    T* ring_ = nullptr;
    kernels::Epilogue::Position at_{};  // tile_'s first element in the epilogue's C
    std::int64_t i0_ = 0, j0_ = 0, per_step_ = 0;
    int next_ = 0;
    bool batched_ = false;
    std::int64_t steps_ = 0, step_ = 0;  // the next tile's steps, and those taken
    kernels::EpilogueOperandLines operands_;
    std::int64_t fetch_cols_ = 0, fetch_next_ = 0, fetch_per_step_ = 0;
  };
  // A tile's work beside its steps: the fetching ahead, the copy of the tile behind to C, then
  // its finishing.
  struct BesideSteps {
    FetchLines fetch;
    FetchColumns fetch_c;
    CopyBehind* copy;
    FinishBehind* behind;
    [[gnu::always_inline]] void step() {
      fetch.step();
      fetch_c.step();
      copy->step();
      if (behind != nullptr) behind->step();
    }
  };

  // GemmKernels::packed.
  static void packed(const Problem& p, const BlockSizes& model, const PackedOptions&,
                     std::byte* work) {
    const std::int64_t steps = steps_of(p.k);
    const PackedPlan plan = packed_plan(steps, model, MR, NR, false, kStep);
    const WorkspaceParts<T> parts =
        packed_workspace<T>(p.m, p.n, steps, model, MR, NR, false, kQuads, kStep);
    T* const a_packed = parts.a(work);
    typename Base::Correction correction = Base::correction_of(p, parts, work);
    if constexpr (kQuads) correction.start_rows(p.m);
    run(p, steps, plan, parts, work, correction,
        [&](std::int64_t ic, std::int64_t mc, std::int64_t pc, std::int64_t kc,
            [[maybe_unused]] bool first_panel, [[maybe_unused]] bool last_slice) {
          const std::int64_t k0 = kGroup * pc;
          const std::int64_t depth = std::min(kGroup * kc, p.k - k0);
          const SourceA* a = p.a + ic * p.a_rs + k0 * p.a_cs;
          if constexpr (kQuads) {
            kernels::pack_quads_a<V, MR>(mc, depth, a, p.a_rs, p.a_cs, a_packed, kc);
            if (first_panel) {
              correction.add_rows(a_packed, ic, mc, kc);
              if (last_slice) correction.finish_rows(ic, mc);
            }
          } else {
            kernels::pack_pairs_a<V, MR>(mc, depth, a, p.a_rs, p.a_cs, p.a_zero, a_packed, kc);
          }
          return BlockOfA{a_packed, kc};
        });
  }

  // GemmKernels::prepacked: A's panels (Base::pack_panels<kStep>) read in place, `depth` steps a
  // slice.
  static void prepacked(const PrepackedProblem& p, std::int64_t depth, const BlockSizes& model,
                        int fma_chains, bool, std::byte* work) {
    const std::int64_t steps = steps_of(p.k);
    const PackedPlan plan{depth, blocks_at_depth(model, depth, MR, NR)};
    const WorkspaceParts<T> parts =
        prepacked_workspace<T>(p.m, p.n, steps, depth, model, MR, NR, false, kQuads);
    if constexpr (kQuads) {
      // A product of a few columns (rows of x) streams the weights, which the vector tiles read
      // faster than the tile registers, whose 16 columns would be mostly zero: where the
      // VPDPBUSD loops' workspace fits in this one (they read the same panels). Measured on the
      // 2-vCPU Xeon guest, u8s8 1 x 4096 x 4096 on 2 threads: 108.6 GOP/s on VPDPBUSD, 94-100 on
      // AMX tiles, 90-95 unpacked; 8 x 4096 x 4096 758-816 against 712-766.
      constexpr std::int64_t kVectorColumns = 8;
      if (p.n <= kVectorColumns && prepacked_workspace<T>(p.m, p.n, Base::depth_steps(p.k), depth,
                                                          model, MR, Base::NR, false, true)
                                           .bytes() <= parts.bytes()) {
        Base::prepacked(p, depth, model, fma_chains, false, work);
        return;
      }
    }
    typename Base::Correction correction = Base::correction_of(p, parts, work);
    if constexpr (kQuads) correction.load_rows(p.a + steps * MR, p.a_rs, p.m);
    run(p, steps, plan, parts, work, correction,
        [&](std::int64_t ic, std::int64_t, std::int64_t pc, std::int64_t, bool, bool) {
          return BlockOfA{p.a + ic * p.a_rs + pc * MR, p.a_rs};
        });
  }
};

// The product on A's rows in place (GemmKernels::rows_in_place): B's columns (x's rows) packed
// in pairs or quads as A's panels are, for the tiles' second operand, then the block's rows 32
// at a time against each panel of 32 of them, each tile finished as it is stored: int8's
// zero-point terms (kernels::QuadCorrection: x's row sums before, and where x's zero point needs
// them the sums of A's rows, taken by the first panel's tiles: on the tile unit against ones
// where that panel has at most 16 columns, else on the vector ports), then the epilogue. With
// x's zero point 128, u8s8 M x 4096 x 4096 on 2 threads (the C API, medians of 30 calls, two
// rounds), GOP/s with the sums on the tile unit against the vector ports: M = 5 / 12 / 16
// 374-385 / 866-902 / 1133-1176 against 323-331 / 771-779 / 1007-1039 (zero point 0: 407-419 /
// 957-973 / 1267-1300).
template <class V, class SourceA, class SourceB>
struct AmxRowLoops {
  using T = typename V::scalar;
  using Problem = GemmProblem<T, SourceA, SourceB>;
  using Base = Loops<V, kernels::kAvx512Tiles, SourceA, SourceB>;
  using Types = kernels::AmxRowTypes<T, SourceA, SourceB>;
  static constexpr int MR = kernels::kAmxRows;
  static constexpr bool kQuads = Base::kQuads;

  static std::int64_t steps_of(std::int64_t k) {
    return AmxLoops<V, SourceA, SourceB>::steps_of(k);
  }
  // x's panels, the stage of a step's rows of A and, for int8, the sums of A's and x's rows.
  static std::size_t panel_bytes(std::int64_t n, std::int64_t k) {
    return runtime::pages_for<T>(round_up(n, MR) * steps_of(k));
  }
  static std::size_t stage_bytes() {
    return runtime::pages_for<std::uint8_t>(kernels::kAmxRows * kernels::kAmxRowBytes);
  }
  static std::size_t bytes(std::int64_t m, std::int64_t n, std::int64_t k) {
    return panel_bytes(n, k) + stage_bytes() +
           (kQuads ? runtime::pages_for<T>(round_up(m, MR) + n) : 0);
  }

  // int8: the zero points' terms on x's values as they are (TDPBSUD and TDPBSSD take them
  // without a shift to unsigned bytes).
  static typename Base::Correction correction_of(const Problem& p, T* sums) {
    if constexpr (kQuads) {
      return kernels::QuadCorrection<V, MR>(p.a_zero, p.b_zero, p.k, sums,
                                            sums + round_up(p.m, MR));
    } else {
      return {};
    }
  }

  // int8: the sums of x's rows (the column terms' sums) from its packed panels [steps][MR], each
  // slot's four bytes as the tiles read them, into sums[0, n).
  static void sum_x_rows(const T* x, std::int64_t n, std::int64_t steps, T* sums) {
    constexpr int W = V::width;
    for (std::int64_t j0 = 0; j0 < n; j0 += MR) {
      typename V::reg sum[MR / W];
      for (auto& s : sum) s = V::zero();
      for (std::int64_t s = 0; s < steps; ++s)
        for (int v = 0; v < MR / W; ++v) {
          const typename V::reg quads = V::load(x + j0 * steps + s * MR + v * W);
          sum[v] = std::is_signed_v<SourceB> ? V::add_signed_quads(sum[v], quads)
                                             : V::add_unsigned_quads(sum[v], quads);
        }
      for (int v = 0; v < MR / W && j0 + v * W < n; ++v)
        V::Out::store_partial(sums + j0 + v * W, sum[v],
                              static_cast<int>(std::min<std::int64_t>(W, n - j0 - v * W)));
    }
  }

  static void run(const Problem& p, std::int64_t depth, std::byte* work) {
    const std::int64_t steps = steps_of(p.k);
    T* const x = reinterpret_cast<T*>(work);
    auto* const stage = reinterpret_cast<std::uint8_t*>(work + panel_bytes(p.n, p.k));
    [[maybe_unused]] T* const sums =
        reinterpret_cast<T*>(work + panel_bytes(p.n, p.k) + stage_bytes());
    [[maybe_unused]] typename Base::Correction correction = correction_of(p, sums);
    if constexpr (kQuads) {
      kernels::pack_quads_a<V, MR>(p.n, p.k, reinterpret_cast<const std::int8_t*>(p.b), p.b_cs,
                                   p.b_rs, x, steps);
      correction.start_rows(p.m);
      if (std::int32_t* columns = correction.column_sums()) {
        sum_x_rows(x, p.n, steps, columns);
        correction.finish_columns(0, p.n);
      }
    } else {
      kernels::pack_pairs_a<V, MR>(p.n, p.k, p.b, p.b_cs, p.b_rs, 0, x, steps);
    }
    const std::int64_t slice = Base::kDepthGroup * depth;
    const kernels::AmxTiles tiles;
    for (std::int64_t i = 0; i < p.m; i += MR) {
      for (std::int64_t j = 0; j < p.n; j += MR) {
        const kernels::TileC<T> c{p.c + i + j * p.ldc,
                                  p.ldc,
                                  static_cast<int>(std::min<std::int64_t>(MR, p.m - i)),
                                  static_cast<int>(std::min<std::int64_t>(MR, p.n - j)),
                                  p.alpha,
                                  p.beta};
        const auto multiply = [&](auto& side) {
          kernels::amx_row_tile<Types>(p.k, slice, p.a + i * p.a_rs, p.a_rs, x + j * steps, c,
                                       stage, side);
        };
        kernels::NoRowWork none;
        if constexpr (kQuads) {
          if (j == 0 && correction.row_terms()) {  // A's row sums, by the first panel's tiles
            const auto summing = [&](auto row_sums) {
              multiply(row_sums);
              row_sums.add_to(sums + i, c.rows);
            };
            if (c.cols <= 16) {
              summing(kernels::AmxTileRowSums{});
            } else {
              summing(kernels::AmxRowSums{});
            }
            correction.finish_rows(i, c.rows);
          } else {
            multiply(none);
          }
          correction.apply(c.data, c.ld, i, c.rows, j, c.cols);
        } else {
          multiply(none);
        }
        Base::finish(p.epilogue, c);
      }
    }
  }
};

// A kernel set of the vector kernels on V with its packed paths on AMX tiles.
template <class V, class SourceA, class SourceB>
GemmKernels<typename V::scalar, SourceA, SourceB> make_amx_kernels(const char* name) {
  using L = AmxLoops<V, SourceA, SourceB>;
  auto k = make_gemm_kernels<V, kernels::kAvx512Tiles, SourceA, SourceB>();
  k.isa = name;
  k.nr = L::NR;
  k.step_multiple = L::kStep;
  k.packing_cost = L::kPackingCost;
  k.dot_width = L::kDotWidth;
  k.packed = &L::packed;
  k.prepacked = &L::prepacked;
  k.pack_panels = &L::Base::template pack_panels<L::kStep>;
  k.rows_in_place = &AmxRowLoops<V, SourceA, SourceB>::run;
  k.rows_in_place_bytes = &AmxRowLoops<V, SourceA, SourceB>::bytes;
  k.rows_in_place_width = L::kRowsInPlaceWidth;
  if constexpr (std::is_same_v<SourceA, std::uint16_t>)
    k.column_sweep_columns[0] = L::kSweepColumnsInL2;  // past L2 the vector kernels' width
  return k;
}

}  // namespace ridge::gemm_detail

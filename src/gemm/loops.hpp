// The GotoBLAS/BLIS loop nest around the micro-kernel, single-threaded (the driver hands each
// thread its own block of C), and the direct path of small and skinny products. Instantiated per
// ISA by make_gemm_kernels<V, Shape>() in the per-ISA translation units (gemm/isa_*.cpp): on the
// float and double traits; for bf16 operands on the float traits, widened as packed
// (kernels/pack_bf16.hpp), or on AVX512_BF16 on traits of bf16 pairs (simd/avx512_bf16.hpp); and
// for int8 operands on traits of integer pairs (simd/*_int16_pairs.hpp) or, on AVX512_VNNI, of
// quads (simd/avx512_int8_quads.hpp). Operands of pairs are packed two depth steps to a lane
// (kernels/pack_pairs.hpp), of quads four (kernels/pack_quads.hpp). bf16 and int8 run the packed
// path alone.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <variant>

#include "gemm/kernel_set.hpp"
#include "kernels/dot.hpp"
#include "kernels/epilogue_kernel_set.hpp"
#include "kernels/microkernel.hpp"
#include "kernels/pack.hpp"
#include "kernels/pack_bf16.hpp"
#include "kernels/pack_pairs.hpp"
#include "kernels/pack_quads.hpp"
#include "kernels/pair_column_sweep.hpp"
#include "kernels/row_dot.hpp"
#include "kernels/sweep_parts.hpp"
#include "kernels/tile_shapes.hpp"
#include "kernels/with_count.hpp"

namespace ridge::gemm_detail {

// The inner-dimension steps a lane of V's operands holds: 1, or 2 for traits of pairs.
template <class V>
constexpr int depth_group() {
  if constexpr (requires { V::depth_group; }) {
    return V::depth_group;
  } else {
    return 1;
  }
}

// V's 256-bit half where it has one (AVX-512's float, double and bf16 pairs' traits:
// simd::Avx512Half, simd::Avx512Bf16PairsHalf), else V itself. Traits derived from those
// inherit a Half that names its own Full: it halves them only where that is V.
template <class V>
struct HalfOf {
  using type = V;
};
template <class V>
  requires std::is_same_v<typename V::Half::Full, V>
struct HalfOf<V> {
  using type = typename V::Half;
};

// The traits a block's epilogue runs on: C's own float traits (kernels::OutTraits), or for int32
// sums (the int8 GEMM, dequantised first) the float traits of V's ISA.
template <class V>
struct EpilogueTraitsOf {
  using type = typename kernels::OutTraits<V>::type;
};
template <class V>
requires std::is_same_v<typename V::scalar, std::int32_t>
struct EpilogueTraitsOf<V> {
  using type = typename V::Float;
};

// SourceA, SourceB: the stored operands' types: V::scalar, bf16 bit patterns (std::uint16_t; V
// of floats or of bf16 pairs) or 8-bit integers (V of int16 pairs or int8 quads).
template <class V, kernels::TileShape Shape, class SourceA = typename V::scalar,
          class SourceB = SourceA>
struct Loops {
  using T = typename V::scalar;
  using Problem = GemmProblem<T, SourceA, SourceB>;
  // Whether A and B are stored as the micro-kernel reads them (else each is widened as packed).
  static constexpr bool kNative = std::is_same_v<SourceA, T> && std::is_same_v<SourceB, T>;
  static constexpr int kDepthGroup = depth_group<V>();
  // Whether the packed operands are int8 quads, whose product the zero points correct after.
  static constexpr bool kQuads = kDepthGroup == 4;
  // Whether the packed path can copy A ahead (PackAInSteps: one depth step a lane, so that its
  // steps are depths, and A as T or bf16).
  static constexpr bool kCopiesAhead =
      kDepthGroup == 1 && (kNative || std::is_same_v<SourceA, std::uint16_t>);
  using PackANext =
      kernels::PackAInSteps<V, Shape.mv * V::width, std::conditional_t<kCopiesAhead, SourceA, T>>;
  using PanelA = kernels::PanelA<T>;
  using TileC = kernels::TileC<T>;
  // Whether C's blocks take an epilogue (float C, or int32 sums dequantised), and its traits.
  static constexpr bool kTakesEpilogue =
      std::is_same_v<T, float> || std::is_same_v<T, std::int32_t>;
  using EpilogueTraits = typename EpilogueTraitsOf<V>::type;
  using PackedB = kernels::PackedB<V, Shape.nr>;
  using StridedB = kernels::StridedB<V>;
  static constexpr int MV = Shape.mv;
  static constexpr int NR = Shape.nr;
  static constexpr int MR = MV * V::width;
  // Tiles of A the direct path fetches ahead (see direct()).
  static constexpr int kPrefetchTiles = 8;
  // GemmKernels::packing_cost: the tiles' products in the time packing one element (a float, a
  // double, a pair or quad in one 32-bit lane) takes, at kMaxFmaPipes vectors of products a cycle
  // and packing at about 8 bytes a cycle. Measured on Zen 5, sgemm 48 x 2048 x 2048 row-major on
  // 2 threads: `pack_a` read 30 GB/s a thread (6.7 bytes a cycle at 4.5 GHz) while the tiles did
  // 32 products a cycle, 19 products a float. Without it the grid had both threads pack all of a
  // narrow product's A (W) to spare the cache line of C that blocks of rows share. Alternated, 2
  // threads, against the grid without it, x oneDNN (f64: x OpenBLAS), two rounds: f32 48 / 96 x
  // 2048 x 2048 0.65-0.66 / 0.79-0.81 -> 0.81-0.83 / 0.92-0.93, f64 2.13-2.15 / 1.74-1.75 ->
  // 2.25-2.29 / 1.77-1.78; bf16 24 / 48 / 96 x 4096 x 4096 0.78-0.80 / 0.72-0.82 / 0.82-0.87 ->
  // 1.03-1.05 / 0.98-1.04 / 0.99-1.04, 48 x 2048 x 2048 0.93-0.96 -> 1.14-1.17; s8s8 48 x 2048 x
  // 2048 0.82-0.89 -> 0.97-1.02; u8s8 24 / 48 / 96 x 4096 x 4096 0.99-1.03 / 1.00-1.09 /
  // 0.98-1.02 -> 1.42 / 1.40-1.52 / 1.20-1.24. Squares keep their grid (1000^3 to 4096^3 split C's
  // columns either way); 512 x 4096 x 11008 and the standard f32 sweep ran level. The driver
  // weighs it wherever the packed path packs A during the call (driver.cpp, packing_cost).
  static constexpr std::int64_t kPackingCost =
      kernels::kMaxFmaPipes * V::width * std::int64_t{sizeof(T)} / 8;

  // The traits of one-vector tiles of at most Half::width rows (see uses_one_vector).
  using Half = typename HalfOf<V>::type;
  static constexpr bool kHasHalf = !std::is_same_v<Half, V>;
  // B's access for the half-width traits: the same elements.
  static kernels::PackedB<Half, NR> on_half(const PackedB& b) { return {b.b}; }
  static kernels::StridedB<Half> on_half(const StridedB& b) { return {b.b, b.rs, b.cs}; }

  // One tile of exactly N <= NR columns and Vectors vector registers of rows, for either kind
  // of B access.
  template <int Vectors, int N, class BAccess>
  static void strip(std::int64_t kc, const PanelA& a, const BAccess& b, const TileC& c) {
    TileC tile = c;
    tile.cols = N;
    if constexpr (Vectors == 1 && kHasHalf) {
      if (c.rows <= Half::width) return kernels::micro_tile<Half, 1, N>(kc, a, on_half(b), tile);
    }
    kernels::micro_tile<V, Vectors, N>(kc, a, b, tile);
  }
  template <class BAccess>
  using StripFn = void (*)(std::int64_t, const PanelA&, const BAccess&, const TileC&);
  template <int Vectors, class BAccess, int... I>
  static constexpr std::array<StripFn<BAccess>, sizeof...(I)> strips(
      std::integer_sequence<int, I...>) {
    return {&strip<Vectors, I + 1, BAccess>...};
  }
  // kStrips<Vectors, Width, B>[n - 1]: the kernel for a tile of n <= Width columns.
  template <int Vectors, int Width, class BAccess>
  static constexpr std::array<StripFn<BAccess>, Width> kStrips =
      strips<Vectors, BAccess>(std::make_integer_sequence<int, Width>{});

  // Whether a tile of m rows runs the one-vector kernel: a tile of at most one vector of rows
  // (small M, or the last tile: M = 1000 leaves 8) would spend half or more of the full
  // kernel's FMAs on absent rows. It stays NR columns wide: as one 16-column tile, 16^3 sgemm
  // (AVX-512, Zen 4) ended each call with 16 zmm stores of C in a row, which cost the next call
  // ~10 ns when C was not 32-byte aligned (110 ns a call; 95 ns as 12 + 4 columns, whatever the
  // alignment).
  // Of those, a tile of at most half a vector of rows runs on V's half-width vectors where it has
  // them (AVX-512's 256-bit ones: the same FMAs, at twice the rate where the FMA units are 256
  // bits wide). Measured on Zen 4, 1 thread, against 512-bit tiles, alternated, two or three
  // runs: row-major sgemm M x 8 x K (8 rows of C^T) 64 / 256 / 1000: 81-84 / 94 / 73-89 GFLOP/s
  // against 49-53 / 49-51 / 50; dgemm 256 x 4 x 256 35-45 against 26; 1000^3 sgemm, whose strips
  // end in 8 rows, 109.0-109.6 against 107.7-108.1.
  static constexpr bool uses_one_vector(int m) { return MV > 1 && m <= V::width; }

  // Columns of the narrow MV-vector tiles for 1 .. kMaxFmaPipes FMA pipes (TileShape::
  // narrow_columns; NR: none). One-vector tiles stay NR wide: they have only NR accumulators,
  // and as 8 + 8 columns 16^3 sgemm (AVX-512, Zen 4) took 101 ns a call against 92 as 12 + 4.
  template <int Pipes>
  static constexpr int kNarrowColumns = Shape.narrow_columns(Pipes);

  // A row of narrow MV-vector tiles, `columns` (a multiple of Width) columns in all, B read in
  // place; for problems whose B fits in L1 (see direct()). Only the first tile fetches A ahead.
  template <int Width>
  [[gnu::noinline]] static void narrow_row(std::int64_t kc, PanelA a, StridedB b, TileC c,
                                           std::int64_t columns) {
    c.cols = Width;
    for (std::int64_t j = 0; j < columns; j += Width) {
      kernels::micro_tile<V, MV, Width>(kc, a, b, c);
      a.prefetch = 0;
      b.b += Width * b.cs;
      c.data += Width * c.ld;
    }
  }
  using NarrowRowFn = void (*)(std::int64_t, PanelA, StridedB, TileC, std::int64_t);
  // The narrow row of `width` columns, if one is compiled (else null).
  template <int Pipes = 1>
  static NarrowRowFn narrow_row_of(int width) {
    if constexpr (Pipes > kernels::kMaxFmaPipes) {
      return nullptr;
    } else {
      if constexpr (kNarrowColumns<Pipes> < NR) {
        if (width == kNarrowColumns<Pipes>) return &narrow_row<kNarrowColumns<Pipes>>;
      }
      return narrow_row_of<Pipes + 1>(width);
    }
  }

  // The epilogue (kernels/epilogue.hpp) on a block of C just finished (a strip or a row of
  // tiles, one tile, or a column of one: gemm/amx_loops.hpp), still in L1 or L2: here, not in
  // the micro-kernel, whose strips would otherwise save and restore registers around a call
  // they rarely make (16^3 to 64^3 sgemm without an epilogue ran 2-4% slower so). On int32 sums
  // (the int8 GEMM) it dequantises them first, on the float traits of V's ISA.
  static void finish(const kernels::Epilogue* epilogue, const TileC& c) {
    if (epilogue == nullptr) return;
    finish(*epilogue, c, epilogue->position_of(reinterpret_cast<const float*>(c.data)));
  }
  // The same on a tile of C held apart from it (c.data a buffer, c.ld its column stride), its
  // first element C's element `at`.
  static void finish(const kernels::Epilogue& epilogue, const TileC& c,
                     kernels::Epilogue::Position at) {
    if constexpr (kTakesEpilogue)
      kernels::apply_epilogue_at<EpilogueTraits>(epilogue, c.data, c.ld, at, c.rows, c.cols);
  }

  // One column of a tile held apart (its `rows` elements from c on, C's element `at` the first)
  // through an epilogue of kernels::ColumnEpilogue's form, inlined into the caller's loop
  // (kernels::apply_epilogue_to_column), on the same traits as finish.
  template <bool kSubnormalsAtFullSpeed>
  [[gnu::always_inline]] static void finish_column(const kernels::ColumnEpilogue& form, T* c,
                                                   kernels::Epilogue::Position at, int rows) {
    if constexpr (kTakesEpilogue)
      kernels::apply_epilogue_to_column<EpilogueTraits, kSubnormalsAtFullSpeed>(form, c, at, rows);
  }

  // The matrix operands (a residual) of `epilogue` beside C from c on; none without. In the
  // last slice each tile fetches its part of them (EpilogueOperandLines::fetch_tile), which its
  // block's epilogue then finds in L2 or L3 (AMD's L3 takes what L2 evicts) rather than in
  // memory. Measured on Zen 5 (perf, bf16 4096^3 with bias, GELU and a residual, 2 threads, the
  // packed path): the residual's pass 1.4 -> 0.7% of the samples.
  static kernels::EpilogueOperandLines operand_lines(const kernels::Epilogue* epilogue,
                                                     const T* c) {
    if constexpr (kTakesEpilogue) {
      if (epilogue != nullptr)
        return kernels::EpilogueOperandLines(*epilogue, reinterpret_cast<const float*>(c), 0);
    }
    return {};
  }

  // One tile of the packed path, out of line: its k loop then gets the registers to itself.
  // Inlined into packed(), GCC 12 may keep an A vector on the stack and reload it for half the
  // FMAs, depending on unrelated code around the call (seen: 10% slower at 2048^3).
  //
  // It first asks for its tile of C, which is usually in memory: the lines then arrive during
  // the k loop instead of stalling the final loads and stores. Measured (Zen 4, alternated,
  // medians of 5): 1 thread 1000^3 +0.9%, 4096 x 4096 x 128 +1.8%; 2 threads +3.0% and +2.5%.
  //
  // `copy`, if not null, is the next A block's copy, which the k loop advances a step per step.
  template <int Vectors, class Side = PackANext>
  [[gnu::noinline]] static void packed_tile(std::int64_t kc, const T* a, PackedB b, const TileC& c,
                                            Side* copy, std::int64_t prefetch) {
    constexpr int kLineElements = simd::kLineElements<T>;
    for (int j = 0; j < c.cols; ++j) {
      const T* column = c.data + j * c.ld;
      for (int i = 0; i < c.rows; i += kLineElements) __builtin_prefetch(column + i, 0, 2);
      __builtin_prefetch(column + c.rows - 1, 0, 2);  // the line of the last row, if unaligned
    }
    const PanelA panel{a, MR, true, prefetch};
    if constexpr (Vectors == 1 && kHasHalf) {
      if (c.rows <= Half::width) return tile_on<Half, 1>(kc, panel, on_half(b), c, copy);
    }
    tile_on<V, Vectors>(kc, panel, b, c, copy);
  }
  template <class Traits, int Vectors, class Side>
  [[gnu::always_inline]] static void tile_on(std::int64_t kc, const PanelA& panel,
                                             kernels::PackedB<Traits, NR> b, const TileC& c,
                                             Side* copy) {
    if (copy == nullptr) {
      kernels::micro_tile<Traits, Vectors, NR>(kc, panel, b, c);
    } else {
      Side cursor = *copy;  // a local, kept in registers through the k loop
      kernels::micro_tile<Traits, Vectors, NR>(kc, panel, b, c, cursor);
      *copy = cursor;
    }
  }

  // A full-width tile of the packed path that also copies up to `per_tile` vectors of the next
  // A block (`copy`; null where there is none): a vector a k step, or several where that is more
  // than its kc steps (kernels::CopyInRuns).
  static void copying_tile(std::int64_t kc, const T* a, PackedB b, const TileC& c,
                           std::int64_t per_tile, PackANext* copy) {
    const bool one_vector = uses_one_vector(c.rows);
    if (copy != nullptr) copy->grant(per_tile);
    if constexpr (kCopiesAhead) {
      if (per_tile > kc) {
        using Runs = kernels::CopyInRuns<PackANext>;
        Runs runs{*copy, static_cast<int>((per_tile + kc - 1) / kc)};
        (one_vector ? packed_tile<1, Runs> : packed_tile<MV, Runs>)(kc, a, b, c, &runs, 0);
        *copy = runs.copy;
        copy->take_back();
        return;
      }
    }
    (one_vector ? packed_tile<1> : packed_tile<MV>)(kc, a, b, c, copy, 0);
    if (copy != nullptr) copy->take_back();
  }

  // The block of A after (jc, pc, ic) in the loops' order, if any: its first row and depth.
  struct NextBlock {
    bool exists = false;
    std::int64_t ic = 0, pc = 0;
  };
  static NextBlock next_block(const Problem& p, const BlockSizes& bs, std::int64_t depth,
                              std::int64_t jc, std::int64_t pc, std::int64_t ic) {
    if (ic + bs.mc < p.m) return {true, ic + bs.mc, pc};
    if (pc + depth < p.k) return {true, 0, pc + depth};
    if (jc + bs.nc < p.n) return {true, 0, 0};
    return {};
  }

  // The steps of a k-deep product: one per depth, or per kDepthGroup depths.
  static constexpr std::int64_t depth_steps(std::int64_t k) {
    return (k + kDepthGroup - 1) / kDepthGroup;
  }

  // The zero points' correction of the int8 quads' product (nothing elsewhere), on the sums in
  // the workspace. An int8 B is packed plus 128, and its zero point with it.
  using Correction = std::conditional_t<kQuads, kernels::QuadCorrection<V, MR>, std::monostate>;
  template <class P>
  static Correction correction_of(const P& p, const WorkspaceParts<T>& parts, std::byte* work) {
    if constexpr (kQuads) {
      T* sums = parts.sums(work);
      const std::int32_t b_zero = p.b_zero + (std::is_signed_v<SourceB> ? 128 : 0);
      return Correction(p.a_zero, b_zero, p.k, sums, sums + round_up(p.m, MR));
    } else {
      return {};
    }
  }

  // Packs A's rows [i0, i0 + m) over depth steps [s0, s0 + steps) as pack_a does.
  static void pack_a_block(const Problem& p, std::int64_t i0, std::int64_t m, std::int64_t s0,
                           std::int64_t steps, T* dst) {
    if constexpr (kDepthGroup == 1) {  // A as T or bf16
      kernels::pack_a<V, MR>(m, steps, p.a + i0 * p.a_rs + s0 * p.a_cs, p.a_rs, p.a_cs, dst);
    } else if constexpr (kQuads) {
      const std::int64_t p0 = s0 * kDepthGroup;
      kernels::pack_quads_a<V, MR>(m, std::min(steps * kDepthGroup, p.k - p0),
                                   p.a + i0 * p.a_rs + p0 * p.a_cs, p.a_rs, p.a_cs, dst);
    } else {
      const std::int64_t p0 = s0 * kDepthGroup;
      kernels::pack_pairs_a<V, MR>(m, std::min(steps * kDepthGroup, p.k - p0),
                                   p.a + i0 * p.a_rs + p0 * p.a_cs, p.a_rs, p.a_cs, p.a_zero, dst);
    }
  }
  // Packs B's columns [j0, j0 + n) over depth steps [s0, s0 + steps) as pack_b does (quads:
  // adding their sums to column_sums, if not null).
  template <class P>
  static void pack_b_block(const P& p, std::int64_t s0, std::int64_t steps, std::int64_t j0,
                           std::int64_t n, T* dst, std::int32_t* column_sums = nullptr) {
    if constexpr (kNative) {
      kernels::pack_b<V, NR>(steps, n, p.b + s0 * p.b_rs + j0 * p.b_cs, p.b_rs, p.b_cs, dst);
    } else if constexpr (kDepthGroup == 1) {  // bf16, widened
      kernels::pack_bf16_b<NR>(steps, n, p.b + s0 * p.b_rs + j0 * p.b_cs, p.b_rs, p.b_cs, dst);
    } else if constexpr (kQuads) {
      const std::int64_t p0 = s0 * kDepthGroup;
      kernels::pack_quads_b<V, NR>(std::min(steps * kDepthGroup, p.k - p0), n,
                                   p.b + p0 * p.b_rs + j0 * p.b_cs, p.b_rs, p.b_cs, dst,
                                   column_sums);
    } else {
      const std::int64_t p0 = s0 * kDepthGroup;
      kernels::pack_pairs_b<V, NR>(std::min(steps * kDepthGroup, p.k - p0), n,
                                   p.b + p0 * p.b_rs + j0 * p.b_cs, p.b_rs, p.b_cs, p.b_zero,
                                   dst);
    }
  }

  // What a tile does beside its FMAs: fetches `left` lines into L2, one a step, from `next` on:
  // one run of lines, or runs of `run_lines` lines `stride` bytes apart.
  struct PrefetchLines {
    const char* next = nullptr;
    std::int64_t left = 0;
    std::int64_t run_lines = 0, stride = 0;
    std::int64_t line = 0;  // in the run
    void step() {
      if (left == 0) return;
      __builtin_prefetch(next + line * simd::kLineBytes, 0, 2);
      --left;
      if (++line == run_lines) {
        line = 0;
        next += stride;
      }
    }
  };

  // The lines of B's columns [j0, j0 + n) over depth steps [s0, s0 + steps), for the tiles
  // before them to fetch (PrefetchLines): one run per column where B's columns are contiguous,
  // else none (a row per depth, more lines than the tiles have steps).
  template <class P>
  static PrefetchLines source_lines(const P& p, std::int64_t s0, std::int64_t steps,
                                    std::int64_t j0, std::int64_t n) {
    if (p.b_rs != 1 || n <= 0) return {};
    const std::int64_t p0 = s0 * kDepthGroup;
    const std::int64_t bytes =
        std::min(steps * kDepthGroup, p.k - p0) * std::int64_t{sizeof(SourceB)};
    const std::int64_t run_lines = bytes / simd::kLineBytes + 2;  // the ends may be off lines
    return {reinterpret_cast<const char*>(p.b + p0 + j0 * p.b_cs), n * run_lines, run_lines,
            p.b_cs * std::int64_t{sizeof(SourceB)}};
  }

  // options.copy_ahead (only for a column-contiguous A, which PackAInSteps reads a column at a
  // time): each block's tiles copy the next block into the second of two buffers as they run, so
  // that reading A overlaps the products (packed_plan makes the blocks smaller to make room).
  //
  // The column strips of a block are NR wide but for its last two, evened as in the direct path
  // (strip_columns), each packed as a micro-panel of its own: B's packed panels stay
  // ceil(nc / NR). Every strip rereads the whole A block, and a last strip of one or two columns
  // on the AVX2 tiles (6 wide) has too few accumulators to keep the FMA units busy while it does.
  // Measured on the Zen 3 host (AVX2, two pipes: strips of 6 + 2 become 4 + 4), M x 4096 x 4096
  // row-major on 1 thread against NR-wide strips, alternated, three runs: sgemm M = 20 1.02-1.03x,
  // 32 1.00-1.03x (dgemm 1.03x, 1.02x); 2 threads and the shapes without such a strip (128 x 4096
  // x 4096, 512^3, 1000^3) within 1-2% either way.
  //
  // Depths count in steps (depth_steps): KC steps a slice, every slice but the last starting
  // on a whole step.
  //
  // On int8 quads, A's row sums are taken from its packed blocks on the first column panel and
  // B's column sums as each panel is packed; a strip of C gets its zero points' correction
  // (kernels::QuadCorrection) after its last slice, before the epilogue.
  static void packed(const Problem& p, const BlockSizes& model, const PackedOptions& options,
                     std::byte* work) {
    const bool copy_ahead = kCopiesAhead && options.copy_ahead;
    const int least_columns = strip_least_columns(options.fma_chains, false);
    const std::int64_t steps = depth_steps(p.k);
    const PackedPlan plan = packed_plan(steps, model, MR, NR, copy_ahead);
    const std::int64_t depth = plan.depth;
    const BlockSizes& bs = plan.blocks;
    // A of one block (M <= MC): B packed a strip at a time, just before the strip's tiles, which
    // fetch the next strip's columns meanwhile (PrefetchLines): each strip serves one block, and
    // the reads of the next then overlap these products instead of coming all before them.
    // Measured on Zen 4, row-major, 2 threads, against the whole panel packed first, alternated,
    // two runs: u8s8 4096 x 8 / 16 / 64 x 4096 (B streams from memory) 0.90-0.92 / 0.88-0.90 /
    // 0.78-0.79x oneDNN -> 0.94-0.95 / 0.93-0.98 / 0.82-0.84x, 1000 x 32 x 1000 407-600 ->
    // 664-743 GOP/s; sgemm 4096 x 32 x 4096 123-146 -> 190 GFLOP/s, 1000^3 0.95-0.96 ->
    // 0.97-0.98x oneDNN; 300^3, 500^3, 2000^3 and 512 x 4096 x 11008 level.
    const bool strip_by_strip = p.m <= bs.mc && !copy_ahead;
    const WorkspaceParts<T> parts =
        packed_workspace<T>(p.m, p.n, steps, model, MR, NR, copy_ahead, kQuads);
    T* const a_buffers[2] = {parts.a(work), parts.a(work) + parts.a_elements / 2};
    T* b_packed = parts.b(work);
    [[maybe_unused]] Correction correction = correction_of(p, parts, work);
    if constexpr (kQuads) correction.start_rows(p.m);
    int current = 0;            // the buffer of the block being multiplied
    bool copied_ahead = false;  // whether the tiles of the block before packed it
    const kernels::EpilogueOperandLines operands = operand_lines(p.epilogue, p.c);

    // Loop 5: NC columns of B and C at a time; the packed B panel [nc/NR][kc][NR] lives in L3.
    for (std::int64_t jc = 0; jc < p.n; jc += bs.nc) {
      const std::int64_t nc = std::min(bs.nc, p.n - jc);
      // Loop 4: KC of the depth at a time; beta applies to the first slice only.
      for (std::int64_t pc = 0; pc < steps; pc += depth) {
        const std::int64_t kc = std::min(depth, steps - pc);
        const T beta = pc == 0 ? p.beta : T(1);
        const bool last_slice = pc + kc == steps;
        const kernels::Epilogue* epilogue = last_slice ? p.epilogue : nullptr;
        if constexpr (kQuads) {
          if (pc == 0) correction.start_columns(nc);
        }
        // Packs the strip of n columns from jr as micro-panel `panel` (one panel, reused, strip by
        // strip).
        const auto pack_strip = [&](std::int64_t jr, int n, std::int64_t panel) {
          std::int32_t* column_sums = nullptr;
          if constexpr (kQuads) column_sums = correction.column_sums();
          pack_b_block(p, pc, kc, jc + jr, n, b_packed + (strip_by_strip ? 0 : panel * kc * NR),
                       column_sums != nullptr ? column_sums + jr : nullptr);
          if constexpr (kQuads) {
            if (last_slice) correction.finish_columns(jr, n);
          }
        };
        std::int64_t full_strips = 0;  // for the copy ahead, which strip by strip does not take
        int n = 0;
        for (std::int64_t jr = 0, panel = 0; !strip_by_strip && jr < nc; jr += n, ++panel) {
          n = strip_columns(nc - jr, least_columns);
          full_strips += n == NR;
          pack_strip(jr, n, panel);
        }
        // Loop 3: MC rows at a time; the packed A block [mc/MR][kc][MR] lives in L2 or L3.
        for (std::int64_t ic = 0; ic < p.m; ic += bs.mc) {
          const std::int64_t mc = std::min(bs.mc, p.m - ic);
          T* a_packed = a_buffers[current];
          if (!copied_ahead) pack_a_block(p, ic, mc, pc, kc, a_packed);
          if constexpr (kQuads) {
            if (jc == 0) {
              correction.add_rows(a_packed, ic, mc, kc);
              if (last_slice) correction.finish_rows(ic, mc);
            }
          }
          // The next block's copy, spread evenly over this block's full-width tiles.
          const NextBlock next = copy_ahead ? next_block(p, bs, depth, jc, pc, ic) : NextBlock{};
          PackANext copy;
          std::int64_t per_tile = 0;
          if constexpr (kCopiesAhead) {
            if (next.exists) {
              copy = PackANext(std::min(bs.mc, p.m - next.ic), std::min(depth, p.k - next.pc),
                               p.a + next.ic + next.pc * p.a_cs, p.a_cs, a_buffers[current ^ 1]);
              const std::int64_t tiles = full_strips * ((mc + MR - 1) / MR);
              per_tile = tiles > 0 ? (copy.left + tiles - 1) / tiles : 0;
            }
          }
          // Loop 2: one NR-column micro-panel of B, reused from L1 by every tile below.
          for (std::int64_t jr = 0, panel = 0; jr < nc; jr += n, ++panel) {
            n = strip_columns(nc - jr, least_columns);
            PrefetchLines fetch;
            if (strip_by_strip) {
              pack_strip(jr, n, panel);
              if (jr + n < nc)
                fetch = source_lines(p, pc, kc, jc + jr + n,
                                     strip_columns(nc - jr - n, least_columns));
            }
            const PackedB b{b_packed + (strip_by_strip ? 0 : panel * kc * NR)};
            // Loop 1: MR-row micro-panels of A streaming from L2/L3.
            for (std::int64_t ir = 0; ir < mc; ir += MR) {
              const int m = static_cast<int>(std::min<std::int64_t>(MR, mc - ir));
              if (epilogue != nullptr) operands.fetch_tile(ic + ir, m, jc + jr, n);
              const TileC c{p.c + (ic + ir) + (jc + jr) * p.ldc, p.ldc, m, n, p.alpha, beta};
              if (n < NR) {
                (uses_one_vector(m) ? kStrips<1, NR, PackedB> : kStrips<MV, NR, PackedB>)[n - 1](
                    kc, PanelA{a_packed + ir * kc, MR, true, 0}, b, c);
              } else if (strip_by_strip) {
                (uses_one_vector(m) ? packed_tile<1, PrefetchLines>
                                    : packed_tile<MV, PrefetchLines>)(
                    kc, a_packed + ir * kc, b, c, fetch.left > 0 ? &fetch : nullptr, 0);
              } else {
                copying_tile(kc, a_packed + ir * kc, b, c, per_tile, next.exists ? &copy : nullptr);
              }
            }
            // The epilogue on the strip of MC x NR the column of tiles just wrote, still in L1 or
            // L2: per tile, its fixed cost per call (the activations' constants, the loops'
            // set-up) was 1.6x the instructions of the same work in one pass over C (counted by
            // callgrind, 512^3 with bias, GELU and a residual), and slower than that pass.
            if constexpr (kQuads) {
              if (last_slice) correction.apply(p.c + ic + (jc + jr) * p.ldc, p.ldc, ic, mc, jr, n);
            }
            finish(epilogue, TileC{p.c + ic + (jc + jr) * p.ldc, p.ldc, static_cast<int>(mc), n});
          }
          copied_ahead = next.exists;
          if constexpr (kCopiesAhead) {
            if (copied_ahead) {
              copy.finish();
              current ^= 1;
            }
          }
        }
      }
    }
  }

  // Tiles ahead that a tile reading A from memory fetches (2 and 3, 24 and 36 KiB ahead, ran
  // the same at 32 x 4096 x 4096 on 1 thread on the Zen 3 host).
  static constexpr std::int64_t kAheadPanels = 2;
  // How far ahead in its panel the first strip of a tile fetches A where each panel runs through
  // every slice in turn (32 KiB). A panel is one sequential stream, which the hardware
  // prefetchers alone keep too few lines ahead of. Measured on the Zen 3 host, M x 4096 x 4096
  // row-major sgemm, 1 thread, over the unpacked call, M = 2 / 4 / 8 / 12: without 0.79-0.84 /
  // 0.88-0.90 / 1.42 / 1.33-1.35x; 2 KiB ahead 1.00-1.04 / 1.07-1.08 / 1.66-1.74 / 1.39-1.41x;
  // 8 KiB 1.02-1.05 / 1.09-1.14 / 1.63-1.68 / 1.37-1.39x; 32 KiB 1.02-1.03 / 1.12-1.15 /
  // 1.69-1.73 / 1.40-1.44x.
  static constexpr std::int64_t kStreamAhead = 32 * 1024 / std::int64_t{sizeof(T)};

  // The packed path with A packed beforehand (PackedMatrix): A's rows in panels of MR over the
  // whole depth, [m / MR][steps][MR] as pack_panels leaves them (for int8 quads each panel
  // followed by its MR row sums, prepacked_panel_steps), p.a the first, each row's panel at
  // p.a + row * p.a_rs (rows a multiple of MR) and depth step q at + q * MR (p.a_cs = MR).
  // The tiles of packed(), in slices `depth` steps deep (the depth of the path the unpacked call
  // takes, which fixes the rounding), on B packed as packed() packs it, in one of three orders:
  //  - B whole in L2 (prepacked_whole_b): all of B packed first, then each panel of A, read from
  //    memory once in address order, through every slice and strip, its tiles of C in L1;
  //  - a block of B (a slice of NC columns) in L2, but for int8 quads: slice by slice, each tile
  //    of A through every strip while it is in L1, fetching a tile further on meanwhile
  //    (PrefetchLines);
  //  - else packed()'s blocks, each A block reread from the cache by every strip, the first
  //    strip's tiles fetching the tile kAheadPanels further on as they read theirs.
  // Measured on the Zen 3 host, M x 4096 x 4096 row-major sgemm, 1 thread, against the unpacked
  // call: with packed()'s order throughout, M = 32 / 128 0.89 / 0.90x (the first strip of each
  // block waits for A from memory, which the unpacked call copies ahead while the block before
  // runs); slice by slice, tile by tile, M = 8 / 16 / 32 / 128 0.71 / 1.27 / 1.11 / 1.08x (at
  // M = 8 the unpacked call's slices are 32 deep, and each reads 2 KiB a panel, 256 KiB apart).
  // On int8 quads the zero points' correction comes from the stored row sums and B's column
  // sums, taken as B is packed, and goes to each block of C after its last slice.
  using PrepackedProblem = GemmProblem<T, T, SourceB>;
  static void prepacked(const PrepackedProblem& p, std::int64_t depth, const BlockSizes& model,
                        int fma_chains, bool b_in_place, std::byte* work) {
    const int least_columns = strip_least_columns(fma_chains, false);
    const std::int64_t steps = depth_steps(p.k);
    const WorkspaceParts<T> parts =
        prepacked_workspace<T>(p.m, p.n, steps, depth, model, MR, NR, b_in_place, kQuads);
    T* const b_packed = parts.b(work);
    [[maybe_unused]] Correction correction = correction_of(p, parts, work);
    // (The sums follow the panel's last step, past any padding: prepacked_panel_steps.)
    if constexpr (kQuads) correction.load_rows(p.a + (p.a_rs - 1) * MR, p.a_rs, p.m);
    const kernels::EpilogueOperandLines operands = operand_lines(p.epilogue, p.c);
    // One tile: rows ir, B's strip of n columns from jr at b_packed + b (or in place), depth
    // steps pc to pc + kc.
    const auto tile = [&](std::int64_t ir, std::int64_t jr, int n, std::int64_t pc, std::int64_t kc,
                          std::int64_t b, PrefetchLines* ahead, std::int64_t prefetch = 0) {
      const int m = static_cast<int>(std::min<std::int64_t>(MR, p.m - ir));
      if (pc + kc == steps && !operands.empty()) operands.fetch_tile(ir, m, jr, n);
      const TileC c{p.c + ir + jr * p.ldc, p.ldc, m, n, p.alpha, pc == 0 ? p.beta : T(1)};
      const PanelA a{p.a + ir * p.a_rs + pc * MR, MR, true, prefetch};
      if constexpr (kNative) {
        if (b_in_place) {
          (uses_one_vector(m) ? kStrips<1, NR, StridedB> : kStrips<MV, NR, StridedB>)[n - 1](
              kc, a, StridedB{p.b + pc * p.b_rs + jr * p.b_cs, p.b_rs, p.b_cs}, c);
          return;
        }
      }
      if (n < NR) {
        (uses_one_vector(m) ? kStrips<1, NR, PackedB> : kStrips<MV, NR, PackedB>)[n - 1](
            kc, a, PackedB{b_packed + b}, c);
      } else {
        (uses_one_vector(m) ? packed_tile<1, PrefetchLines> : packed_tile<MV, PrefetchLines>)(
            kc, a.data, PackedB{b_packed + b}, c, ahead, prefetch);
      }
    };
    // Rows [ir, ir + rows) x columns [jc, jc + cols) once the slice ending at step `end` was the
    // last: the correction (B's column sums from column `sums_from` on) and the epilogue, a
    // block of tiles at a time as packed() applies them.
    const auto finish_block = [&](std::int64_t ir, std::int64_t rows, std::int64_t jc,
                                  std::int64_t cols, std::int64_t end,
                                  [[maybe_unused]] std::int64_t sums_from) {
      if (end != steps) return;
      if constexpr (kQuads)
        correction.apply(p.c + ir + jc * p.ldc, p.ldc, ir, rows, jc - sums_from, cols);
      finish(p.epilogue,
             TileC{p.c + ir + jc * p.ldc, p.ldc, static_cast<int>(rows), static_cast<int>(cols)});
    };
    // B's columns [j0, j0 + nc) over steps [pc, pc + kc), packed into `b` as packed() does, their
    // sums (quads) added from `sums` on.
    const auto pack_b_slice = [&](std::int64_t j0, std::int64_t nc, std::int64_t pc,
                                  std::int64_t kc, T* b, [[maybe_unused]] std::int32_t* sums) {
      for (std::int64_t jr = 0, n = 0; jr < nc; jr += n, b += kc * NR) {
        n = strip_columns(nc - jr, least_columns);
        pack_b_block(p, pc, kc, j0 + jr, n, b, sums != nullptr ? sums + jr : nullptr);
      }
    };
    std::int32_t* column_sums = nullptr;
    if constexpr (kQuads) column_sums = correction.column_sums();
    const std::int64_t b_width = round_up(p.n, NR);  // B's packed elements a depth step
    if (b_in_place || prepacked_whole_b(p.n, steps, model, NR)) {
      if constexpr (kQuads) correction.start_columns(p.n);
      for (std::int64_t pc = 0; !b_in_place && pc < steps; pc += depth)
        pack_b_slice(0, p.n, pc, std::min(depth, steps - pc), b_packed + pc * b_width, column_sums);
      if constexpr (kQuads) correction.finish_columns(0, p.n);
      for (std::int64_t ir = 0; ir < p.m; ir += MR) {
        for (std::int64_t pc = 0; pc < steps; pc += depth) {
          const std::int64_t kc = std::min(depth, steps - pc);
          std::int64_t b = pc * b_width;
          for (std::int64_t jr = 0, n = 0; jr < p.n; jr += n, b += kc * NR) {
            n = strip_columns(p.n - jr, least_columns);
            tile(ir, jr, n, pc, kc, b, nullptr, jr == 0 ? kStreamAhead : 0);
          }
          finish_block(ir, std::min<std::int64_t>(MR, p.m - ir), 0, p.n, pc + kc, 0);
        }
      }
      return;
    }
    const BlockSizes bs = blocks_at_depth(model, depth, MR, NR);
    for (std::int64_t jc = 0; jc < p.n; jc += bs.nc) {
      const std::int64_t nc = std::min(bs.nc, p.n - jc);
      if constexpr (kQuads) correction.start_columns(nc);
      for (std::int64_t pc = 0; pc < steps; pc += depth) {
        const std::int64_t kc = std::min(depth, steps - pc);
        pack_b_slice(jc, nc, pc, kc, b_packed, column_sums);
        if constexpr (kQuads) {
          if (pc + kc == steps) correction.finish_columns(0, nc);
        }
        // Not on int8 quads: at twice the pairs' rate, rereading both the tile of A and each
        // strip of B from L2 held them back where packed()'s order rereads only A. Measured
        // (Zen 4, u8s8 M x 4096 x 4096 row-major, 1 thread, against the unpacked call): M = 128
        // 0.85 / 0.91x slice by slice, 1.13 / 1.16x by blocks; M = 96, 160 1.14-1.23x by
        // blocks. (AVX2's int16 pairs slice by slice: M = 96 / 128 1.05 / 1.06x.)
        if (!kQuads && nc * kc <= model.l2_elements / 2) {
          // Each tile's lines (kc of them) a share in each strip's first steps, for the tile
          // kAheadPanels further on.
          const std::int64_t strips = (nc + NR - 1) / NR;
          const std::int64_t lines = kc * MR * std::int64_t{sizeof(T)} / simd::kLineBytes;
          const std::int64_t share = (lines + strips - 1) / strips;
          for (std::int64_t ir = 0; ir < p.m; ir += MR) {
            const std::int64_t ahead_row = ir + kAheadPanels * MR;
            const char* next =
                ahead_row < p.m
                    ? reinterpret_cast<const char*>(p.a + ahead_row * p.a_rs + pc * MR)
                    : nullptr;
            std::int64_t b = 0;
            for (std::int64_t jr = 0, n = 0, strip = 0; jr < nc; jr += n, ++strip, b += kc * NR) {
              n = strip_columns(nc - jr, least_columns);
              const std::int64_t left =
                  next != nullptr ? std::clamp(lines - strip * share, std::int64_t{0}, share) : 0;
              PrefetchLines ahead{left > 0 ? next + strip * share * simd::kLineBytes : nullptr,
                                  left};
              tile(ir, jc + jr, n, pc, kc, b, left > 0 ? &ahead : nullptr);
            }
            finish_block(ir, std::min<std::int64_t>(MR, p.m - ir), jc, nc, pc + kc, jc);
          }
          continue;
        }
        for (std::int64_t ic = 0; ic < p.m; ic += bs.mc) {
          const std::int64_t mc = std::min(bs.mc, p.m - ic);
          std::int64_t b = 0;
          for (std::int64_t jr = 0, n = 0; jr < nc; jr += n, b += kc * NR) {
            n = strip_columns(nc - jr, least_columns);
            // The first strip reads the block from memory: its tiles fetch the tile
            // kAheadPanels further on, a line a step. Measured on the Zen 3 host, 4096^3 sgemm
            // over the unpacked call, two runs each: 1 thread 0.97 / 0.97x without, 0.98 /
            // 1.00x with; 2 threads 0.98 / 0.99x and 1.00 / 1.01x.
            for (std::int64_t ir = ic; ir < ic + mc; ir += MR) {
              const bool fetch = jr == 0 && ir + kAheadPanels * MR < p.m;
              tile(ir, jc + jr, n, pc, kc, b, nullptr, fetch ? kAheadPanels * MR * p.a_rs : 0);
            }
            finish_block(ic, mc, jc + jr, n, pc + kc, jc);
          }
        }
      }
    }
  }

  // A few columns of C from A's panels as prepacked() reads them: C = alpha A B + beta C, each
  // element one FMA chain down each part of the depth in order and the parts' chains added in
  // order, as GEMV's column sweep computes the unpacked call (kernels/column_sweep.hpp, to the
  // bit; `parts` = sweep_depth_parts of the whole product), B's columns given as the sweep takes
  // x's (`x`: B widened, its columns interleaved). Panels panels at a time, each one contiguous
  // stream, each loaded vector of A used for all N columns; with several columns, while a group
  // streams in, the next group's lines are asked for (into L2), twice the streams in flight.
  // Measured on the Xeon guest (bf16 on AMX panels, 2 threads, against the unpacked call), 4 / 8
  // rows of x against 4096 x 4096 weights 1.01 / 0.71x without the fetch, 1.12 / 0.84x with it;
  // against 11008 x 4096 (past what L3 streams) 0.59 / 0.48x and 1.00 / 0.75x. bf16 on pairs:
  // each slot's two depths in turn, the even one first, as the sweep adds them (VDPBF16PS adds
  // a pair's odd product first, and flushes subnormals: on Zen 5 it equalled two FMAs, odd then
  // even, in 200000 random cases).
  using F = typename kernels::OutTraits<V>::type;  // float or double traits
  template <int Panels, int N>
  static void panel_columns(const PrepackedProblem& p, int parts, const T* x, std::int64_t i0) {
    using reg = typename F::reg;
    constexpr int W = V::width;
    reg sum[N][Panels][MV];  // the parts' chains added so far
    RIDGE_UNROLL for (int c = 0; c < N; ++c) {
      RIDGE_UNROLL for (int g = 0; g < Panels; ++g) {
        RIDGE_UNROLL for (int i = 0; i < MV; ++i) sum[c][g][i] = F::zero();
      }
    }
    const T* a = p.a + i0 * p.a_rs;
    const std::int64_t panel_stride = MR * p.a_rs;
    const auto x_at = [&](int c, std::int64_t q) { return F::broadcast(x + q * N + c); };
    // The next group's lines beside a slot of this one's; one column's four panels are streams
    // enough (1 x 4096 x 4096 and 1 x 11008 x 4096, f32 and bf16: level or 1-3% slower with).
    const auto fetch_next = [&](std::int64_t slot) {
      if constexpr (N == 1) return;
      RIDGE_UNROLL for (int g = 0; g < Panels; ++g) {
        RIDGE_UNROLL for (int i = 0; i < MV; ++i)
            __builtin_prefetch(a + (Panels + g) * panel_stride + slot * MR + i * W, 0, 2);
      }
    };
    for (int part = 0; part < parts; ++part) {
      const std::int64_t k0 = kernels::sweep_part_begin(p.k, parts, part);
      const std::int64_t k1 = kernels::sweep_part_begin(p.k, parts, part + 1);
      reg acc[N][Panels][MV];
      RIDGE_UNROLL for (int c = 0; c < N; ++c) {
        RIDGE_UNROLL for (int g = 0; g < Panels; ++g) {
          RIDGE_UNROLL for (int i = 0; i < MV; ++i) acc[c][g][i] = F::zero();
        }
      }
      if constexpr (kDepthGroup == 1) {
        for (std::int64_t q = k0; q < k1; ++q) {
          fetch_next(q);
          reg xq[N];
          RIDGE_UNROLL for (int c = 0; c < N; ++c) xq[c] = x_at(c, q);
          RIDGE_UNROLL for (int g = 0; g < Panels; ++g) {
            RIDGE_UNROLL for (int i = 0; i < MV; ++i) {
              const reg column = F::load(a + g * panel_stride + q * MR + i * W);
              RIDGE_UNROLL for (int c = 0; c < N; ++c) acc[c][g][i] =
                  F::fma(column, xq[c], acc[c][g][i]);
            }
          }
        }
      } else {  // parts begin at even depths (whole column groups)
        for (std::int64_t s = k0 / 2; 2 * s < k1; ++s) {
          const bool odd = 2 * s + 1 < k1;
          fetch_next(s);
          reg even[Panels][MV], odd_values[Panels][MV];
          RIDGE_UNROLL for (int g = 0; g < Panels; ++g) {
            RIDGE_UNROLL for (int i = 0; i < MV; ++i) V::widen_pairs(
                V::load(a + g * panel_stride + s * MR + i * W), even[g][i], odd_values[g][i]);
          }
          RIDGE_UNROLL for (int c = 0; c < N; ++c) {
            const reg x_even = x_at(c, 2 * s);
            RIDGE_UNROLL for (int g = 0; g < Panels; ++g) {
              RIDGE_UNROLL for (int i = 0; i < MV; ++i) acc[c][g][i] =
                  F::fma(even[g][i], x_even, acc[c][g][i]);
            }
            if (odd) {
              const reg x_odd = x_at(c, 2 * s + 1);
              RIDGE_UNROLL for (int g = 0; g < Panels; ++g) {
                RIDGE_UNROLL for (int i = 0; i < MV; ++i) acc[c][g][i] =
                    F::fma(odd_values[g][i], x_odd, acc[c][g][i]);
              }
            }
          }
        }
      }
      RIDGE_UNROLL for (int c = 0; c < N; ++c) {
        RIDGE_UNROLL for (int g = 0; g < Panels; ++g) {
          RIDGE_UNROLL for (int i = 0; i < MV; ++i) sum[c][g][i] =
              part == 0 ? acc[c][g][i] : F::add(sum[c][g][i], acc[c][g][i]);
        }
      }
    }
    const reg alpha = F::set1(p.alpha), beta = F::set1(p.beta);
    RIDGE_UNROLL for (int c = 0; c < N; ++c) {
      RIDGE_UNROLL for (int g = 0; g < Panels; ++g) {
        RIDGE_UNROLL for (int i = 0; i < MV; ++i) {
          const std::int64_t row = i0 + g * MR + i * W;
          if (row >= p.m) break;
          const int lanes = static_cast<int>(std::min<std::int64_t>(W, p.m - row));
          T* out = p.c + c * p.ldc + row;
          const reg old = p.beta != T(0) ? F::mul(beta, F::load_partial(out, lanes)) : F::zero();
          F::store_partial(out, F::fma(alpha, sum[c][g][i], old), lanes);
        }
      }
    }
  }
  // C's p.n columns so, at most kernels::kMaxSweepColumns, as the unpacked call sweeps them; x as
  // panel_columns takes it. Four panels at a time for one column, two for up to four, one for
  // more (the sums then fill 16 registers).
  static void prepacked_columns(const PrepackedProblem& p, int parts, const T* x) {
    const auto run = [&]<int N>() {
      constexpr int kPanels = N == 1 ? 4 : N <= 4 ? 2 : 1;
      std::int64_t i0 = 0;
      for (; i0 + kPanels * MR <= p.m; i0 += kPanels * MR)
        panel_columns<kPanels, N>(p, parts, x, i0);
      for (; i0 < p.m; i0 += MR) panel_columns<1, N>(p, parts, x, i0);
    };
    kernels::with_count<kernels::kMaxSweepColumns>(p.n, run);
  }

  // A's rows [0, m) over depths [0, k) as prepacked() reads them (pack_panels), each panel's
  // steps a multiple of Multiple (GemmKernels::step_multiple; pairs and quads).
  template <int Multiple = 1>
  static void pack_panels(std::int64_t m, std::int64_t k, const SourceA* a, std::int64_t rs,
                          std::int64_t cs, std::int32_t zero, T* panels) {
    const std::int64_t steps = round_up(depth_steps(k), Multiple);
    if constexpr (kDepthGroup == 1) {
      static_assert(Multiple == 1);
      kernels::pack_a<V, MR>(m, k, a, rs, cs, panels);
    } else if constexpr (kQuads) {
      // Panel by panel, each followed by its row sums (of A as stored, modulo 2^32).
      for (std::int64_t i0 = 0; i0 < m; i0 += MR, panels += (steps + 1) * MR) {
        const std::int64_t rows = std::min<std::int64_t>(MR, m - i0);
        kernels::pack_quads_a<V, MR>(rows, k, a + i0 * rs, rs, cs, panels, steps);
        std::int32_t* sums = panels + steps * MR;
        for (std::int64_t i = 0; i < MR; ++i) {
          std::uint32_t sum = 0;
          for (std::int64_t q = 0; i < rows && q < k; ++q)
            sum += static_cast<std::uint32_t>(a[(i0 + i) * rs + q * cs]);
          sums[i] = static_cast<std::int32_t>(sum);
        }
      }
    } else {
      kernels::pack_pairs_a<V, MR>(m, k, a, rs, cs, zero, panels, steps);
    }
  }
  // The fewest columns whose MV-vector strip keeps the FMA units busy: one accumulator per column
  // and vector of rows, `fma_chains` of them in flight (DirectOptions::fma_chains). A strip that
  // rereads A's slab from L2 (the direct path with A in place) then also does the most FMAs per
  // line reread. One-vector tiles (a few rows, all in L1) keep NR columns and a narrow last
  // strip: 16^3 sgemm (AVX-512, Xeon guest, two pipes) took 82 ns a call as 12 + 4 columns, 85
  // as 8 + 8.
  static constexpr int strip_least_columns(int fma_chains, bool one_vector) {
    return one_vector ? 0 : (fma_chains + MV - 1) / MV;
  }

  // The next strip's columns with `left` columns of the row to go: NR, and the last two strips
  // even where the last alone would be narrower than `least`. Measured on the Xeon guest (AVX2,
  // 16 x 6 tiles, two pipes), sgemm 8 x 1024 x 1024 row-major, 1 thread, A in place: 45 GFLOP/s
  // as 6 + 2 columns, 60 as 4 + 4.
  static constexpr int strip_columns(std::int64_t left, int least) {
    if (left <= NR) return static_cast<int>(left);
    if (left < NR + std::min(least, NR)) return static_cast<int>((left + 1) / 2);
    return NR;
  }

  // The rows of a column-contiguous A from `a` to its next line boundary (0 if it is on one, or
  // if its columns do not all share that boundary). A tile of MR rows that starts off a line
  // reads one more line from each of its kc columns and splits a load across two; where A
  // streams from memory, or lies a page per column (every column's lines in one L1 set), those
  // extra lines cost more than the short first tile does (the driver's line_aligned_tiles has
  // the measurements in cache). Measured on the Zen 3 host, 8 x 4096 x 4096 row-major sgemm on
  // 1 thread, its B (this A) 16 bytes past a page as malloc leaves it: 14.7 GFLOP/s with every
  // tile 16 bytes off a line, 20.8 with the first tile 12 rows (dgemm 7.3 and 10.4), alternated
  // in one run.
  static std::int64_t rows_to_line(const T* a, std::int64_t cs) {
    constexpr std::uintptr_t kLine = simd::kLineBytes;
    const auto address = reinterpret_cast<std::uintptr_t>(a);
    if (address % sizeof(T) != 0 || cs * sizeof(T) % kLine != 0) return 0;
    // A tile narrower than a line (the generic path's) needs only reach the next tile boundary.
    return static_cast<std::int64_t>((kLine - address % kLine) % kLine / sizeof(T)) % MR;
  }

  // The unpacked path: A read in place when column-contiguous, else (or when options.pack_a
  // asks) one MR x kc slab at a time packed; B read in place, or packed when options.pack_b
  // says so. The driver packs a skinny B (N <= 32 against a large M): that costs little, and
  // the broadcasts then come from one contiguous panel instead of up to 32 rows lda apart,
  // which alias in L1 when lda is a power of two. A large B is never packed here: that would cost
  // as much memory traffic as the product.
  //
  // Loop order: KC of the depth at a time, then every MR-row tile, then every NR-column strip.
  // Consecutive tiles read consecutive bytes of the same kc columns of A, so A streams from
  // memory once, in order; the tile's kc x MR slab of A is then reused from L1 by every strip.
  //
  // options.narrow_columns: B fits in L1 and is read in place. The MV-vector tiles are then
  // that narrow (one of kNarrowColumns), in one call per row of tiles. A wide tile saves rereads
  // of A and B from L2, which a problem in L1 does not make; a narrow one ends in 8 stores
  // instead of 24 and is short enough for its successor to start while it finishes (the likely
  // reason; the VM it was measured on has no performance counters). Measured on Zen 4 (AVX-512,
  // one pipe: 4 columns), 1 thread, cblas calls alternated with 12-column tiles (medians of 31,
  // ns): sgemm 32^3 642 -> 637, 48^3
  // 2022 -> 1960, 64^3 4798 -> 4676; dgemm 16^3 185 -> 178, 32^3 1243 -> 1222, 48^3
  // 4066 -> 3983, 64^3 10089 -> 9946.
  static void direct(const GemmProblem<T>& p, const DirectOptions& options, std::byte* work) {
    const bool a_in_place = !options.packs_a(p);
    const std::int64_t depth = options.depth;
    const WorkspaceParts<T> parts = direct_workspace(p, options, MR, NR);
    T* a_packed = parts.a(work);
    T* b_packed = parts.b(work);
    const NarrowRowFn narrow = options.pack_b ? nullptr : narrow_row_of(options.narrow_columns);
    const kernels::EpilogueOperandLines operands = operand_lines(p.epilogue, p.c);
    // The same for every depth slice: its columns share their line offset.
    const std::int64_t lead =
        a_in_place && options.line_aligned_tiles ? rows_to_line(p.a, p.a_cs) : 0;
    // Against a few columns of B, tiles of twice MR rows where the ISA has them
    // (TileShape::tall_columns): a column's accumulators are too few to keep the FMA pipes busy
    // in MR rows, and each broadcast of B then feeds twice the FMAs. Not where narrow tiles run.
    const bool tall = Shape.tall_columns > 0 && a_in_place && !options.pack_b &&
                      p.n <= Shape.tall_columns &&
                      (narrow == nullptr || p.n < options.narrow_columns);
    for (std::int64_t pc = 0; pc < p.k; pc += depth) {
      const std::int64_t kc = std::min(depth, p.k - pc);
      const T beta = pc == 0 ? p.beta : T(1);
      const kernels::Epilogue* epilogue = pc + kc == p.k ? p.epilogue : nullptr;
      if (options.pack_b)
        kernels::pack_b<V, NR>(kc, p.n, p.b + pc * p.b_rs, p.b_rs, p.b_cs, b_packed);
      for (std::int64_t ic = 0, rows = 0; ic < p.m; ic += rows) {
        rows = std::min<std::int64_t>(ic == 0 && lead > 0 ? lead : tall ? 2 * MR : MR, p.m - ic);
        const int m = static_cast<int>(rows);
        PanelA a{p.a + ic * p.a_rs + pc * p.a_cs, p.a_cs, true, 0};
        if (!a_in_place) {
          kernels::pack_a<V, MR>(m, kc, a.data, p.a_rs, p.a_cs, a_packed);
          a.data = a_packed;
          a.k_stride = MR;
        }
        // In place, the first strip fetches A ahead by kPrefetchTiles tiles: ~1 KiB ahead in
        // each of the kc columns, which covers DRAM latency even for the one-column strip
        // (M = 1), whose tile takes only a few hundred cycles. Later strips hit in cache.
        // The last tiles of a depth slice fetch the first ones of the next slice instead, which
        // would otherwise start cold (an eighth of the tiles of 32 x 4096 x 4096 sgemm on two
        // threads, whose 2048 rows make 64 tiles per slice).
        std::int64_t prefetch = 0;
        if (a_in_place && options.fetch_a) {
          const std::int64_t ahead = ic + kPrefetchTiles * MR;
          if (ahead < p.m) {
            prefetch = kPrefetchTiles * MR;
          } else if (pc + 2 * kc <= p.k) {  // a next slice as deep as this one
            prefetch = (ahead - p.m) - ic + kc * p.a_cs;
          }
        }
        const bool one_vector = uses_one_vector(m);
        // Whether the kernel may load all its rows: a packed slab is zero-padded, and in place
        // a tile of exactly the kernel's rows (16 x 16 x 16 sgemm on AVX-512: one full vector)
        // needs no masked loads.
        const int kernel_rows = one_vector ? V::width : m > MR ? 2 * MR : MR;
        a.full_rows = !a_in_place || m == kernel_rows;
        std::int64_t jc = 0;
        if (narrow != nullptr && !one_vector && p.n >= options.narrow_columns) {
          jc = p.n / options.narrow_columns * options.narrow_columns;
          if (epilogue != nullptr) operands.fetch_tile(ic, m, 0, jc);
          a.prefetch = prefetch;
          narrow(kc, a, StridedB{p.b + pc * p.b_rs, p.b_rs, p.b_cs},
                 TileC{p.c + ic, p.ldc, m, options.narrow_columns, p.alpha, beta}, jc);
        }
        // (A packed B's strips start on its micro-panels.)
        const int least_columns =
            options.pack_b ? 0 : strip_least_columns(options.fma_chains, one_vector);
        for (int n = 0; jc < p.n; jc += n) {
          // A tile of fewer columns runs a kernel with exactly that many: no FMA is spent on
          // absent columns, and an in-place B is not read past its last column.
          n = strip_columns(p.n - jc, least_columns);
          const TileC c{p.c + ic + jc * p.ldc, p.ldc, m, n, p.alpha, beta};
          if (epilogue != nullptr) operands.fetch_tile(ic, m, jc, n);
          a.prefetch = jc == 0 ? prefetch : 0;
          if (options.pack_b) {
            const PackedB b{b_packed + jc * kc};
            (one_vector ? kStrips<1, NR, PackedB> : kStrips<MV, NR, PackedB>)[n - 1](kc, a, b, c);
          } else {
            const StridedB b{p.b + pc * p.b_rs + jc * p.b_cs, p.b_rs, p.b_cs};
            if constexpr (Shape.tall_columns > 0) {
              if (m > MR) {
                kStrips<2 * MV, Shape.tall_columns, StridedB>[n - 1](kc, a, b, c);
                continue;
              }
            }
            (one_vector ? kStrips<1, NR, StridedB> : kStrips<MV, NR, StridedB>)[n - 1](kc, a, b,
                                                                                        c);
          }
        }
        // The epilogue on the row of tiles just written, in one call (see packed()).
        finish(epilogue, TileC{p.c + ic, p.ldc, m, static_cast<int>(p.n)});
      }
    }
  }
};

template <class V, kernels::TileShape Shape, class SourceA = typename V::scalar,
          class SourceB = SourceA>
GemmKernels<typename V::scalar, SourceA, SourceB> make_gemm_kernels() {
  using L = Loops<V, Shape, SourceA, SourceB>;
  static_assert(kernels::kMaxFmaPipes == 2);
  GemmKernels<typename V::scalar, SourceA, SourceB> k{
      .isa = V::name,
      .mr = L::MR,
      .nr = Shape.nr,
      .width = V::width,
      .depth_group = L::kDepthGroup,
      .narrow_columns = {L::template kNarrowColumns<1>, L::template kNarrowColumns<2>},
      .packed = &L::packed};
  k.prepacked = &L::prepacked;
  k.pack_panels = &L::template pack_panels<>;
  k.packing_cost = L::kPackingCost;
  if constexpr (L::kNative) k.direct = &L::direct;
  if constexpr (!std::is_same_v<typename V::scalar, std::int32_t>)
    k.prepacked_columns = &L::prepacked_columns;
  if constexpr (std::is_same_v<typename V::scalar, std::int32_t>) {
    k.epilogue = &kernels::apply_epilogue<typename V::Float, std::int32_t>;
    // The column sweep (a few rows of x W) reads A once for all columns, but at a rate set by
    // its instructions a pair of A's bytes and column, which the tiles pass once A comes from
    // L2 or from enough columns. Measured on the 2-vCPU Xeon guest, u8s8 on 2 threads,
    // alternated, the sweep over the tiles at M = 2 / 3 / 4 / 5 / 6 / 8 rows of x, 4096 x 4096:
    // VPMADDWD and VPADDD (AVX-512 F) 1.86-2.00 / 1.43-1.48 / 1.25-1.27 / 1.11-1.14 / 0.80-0.93
    // / 0.63-0.68, AVX2 2.31-2.52 / 1.70-1.72 / 1.32-1.40 / 1.14-1.22 / 0.93-1.01 / 0.73-0.79,
    // with A in L2 (1024 x 1024) M = 4 0.64-0.92; VPDPWSSD against the AMX tiles at M = 5 / 6
    // / 8 1.36-1.48 / 1.24-1.30 / 1.09-1.39, at 2048 x 2048 M = 6 / 8 1.03-1.24 / 0.82-0.91, at
    // 1024 x 1024 M = 2 / 3 / 4 1.02-1.19 / 1.20-1.29 / 1.11-1.18.
    if constexpr (L::kDepthGroup == 2) {
      k.column_sweep = &kernels::PairColumnSweep<V, SourceA, SourceB>::run;
      k.column_sweep_rows = kernels::PairColumnSweep<V, SourceA, SourceB>::kRows;
      k.column_sweep_columns = {2, 4};
    } else if constexpr (requires { typename V::Pairs; }) {  // quads with their ISA's pairs
      k.column_sweep = &kernels::PairColumnSweep<typename V::Pairs, SourceA, SourceB>::run;
      k.column_sweep_rows = kernels::PairColumnSweep<typename V::Pairs, SourceA, SourceB>::kRows;
      k.column_sweep_columns = {4, kernels::kMaxInt8SweepColumns};
    }
    k.row_dot = &kernels::RowDot<V, SourceB>::run;
    k.row_dot_bytes = &kernels::RowDot<V, SourceB>::workspace_bytes;
  }
  // bf16: GEMV's column sweep (kernels/column_sweep.hpp) up to its most columns, W within L2 or
  // past it. Measured on the 2-vCPU Xeon guest, bf16 on 2 threads, M x 512 x 512 at M = 4 / 5 / 6
  // / 8, the sweep against the tiles: VDPBF16PS (`RIDGE_AMX=0`) 117-122 / 115-122 / 123-125 /
  // 131-135 against 83 / 92-96 / 109-111 / 123, AVX2 85-91 / 86-92 / 87-89 / 83-84 against 63-67
  // / 76-81 / 88 / 88-92; 8 x 768 x 768 167 / 100-102 against 120-122 / 91. (The tiles pass it
  // with W in L1 and L2 at once, 8 x 256 x 256 80-85 / 59-60 against 100-101 / 85-86; on AMX's
  // tiles from 6 rows within L2: AmxLoops::kSweepColumnsInL2.)
  if constexpr (std::is_same_v<SourceA, std::uint16_t>)
    k.column_sweep_columns = {kernels::kMaxSweepColumns, kernels::kMaxSweepColumns};
  if constexpr (std::is_same_v<typename V::scalar, float> && L::kDepthGroup == 2) {  // bf16 pairs
    k.pair_dot = &kernels::Dot<typename V::Out, Shape.dot_rows, Shape.dot_columns, std::uint16_t,
                               V>::template run<std::uint16_t>;
  }
  return k;
}

}  // namespace ridge::gemm_detail

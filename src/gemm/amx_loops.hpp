// The packed paths of the bf16 GEMM on AMX tiles (kernels/amx_tile.hpp): the loop nest of
// Loops::packed (gemm/loops.hpp), its A blocks packed as for VDPBF16PS (kernels/pack_pairs.hpp,
// the tile's second operand as it is) and its B strips as rows along the depth
// (kernels/pack_k_rows.hpp), each depth slice a whole number of tile steps, zero-padded. The
// other paths of the bf16 kernel set (a few rows or one column of C) stay on VDPBF16PS: they are
// bound by reading the weights, which a faster product does not change.
//
// The blocks are the model's for a 32 x 32 tile (gemm/blocking.cpp): B's strip, 32 columns of
// the slice, in L1, where every tile of the A block rereads it; the A block in L2.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "gemm/loops.hpp"
#include "kernels/amx_tile.hpp"
#include "kernels/pack_k_rows.hpp"
#include "simd/avx512_bf16.hpp"

namespace ridge::gemm_detail {

struct AmxBf16Loops {
  using Pairs = simd::Avx512Bf16Pairs;
  using Base = Loops<Pairs, kernels::kAvx512Tiles, std::uint16_t, std::uint16_t>;
  using Problem = GemmProblem<float, std::uint16_t, std::uint16_t>;
  using PrepackedProblem = GemmProblem<float, float, std::uint16_t>;
  using TileC = kernels::TileC<float>;
  static constexpr int MR = kernels::kAmxRows;
  static constexpr int NR = kernels::kAmxColumns;
  static constexpr int kStep = kernels::kAmxPairs;  // GemmKernels::step_multiple
  static_assert(Base::MR == MR, "A's panels are the VDPBF16PS tiles' own");

  // The pair steps of a k-deep product, whole tile steps.
  static std::int64_t steps_of(std::int64_t k) { return round_up((k + 1) / 2, kStep); }

  // The loops over B's panels, the depth's slices and A's blocks, each block's tiles strip by
  // strip. block_of_a(ic, mc, pc, kc) gives the slots of A's block of rows [ic, ic + mc) over
  // steps [pc, pc + kc) and the slots between rows a panel apart, row ir's panel at
  // first + ir * row_slots.
  struct BlockOfA {
    const float* first;
    std::int64_t row_slots;
  };
  template <class P, class AFor>
  static void run(const P& p, std::int64_t steps, const PackedPlan& plan, std::uint16_t* b_packed,
                  AFor block_of_a) {
    const BlockSizes& bs = plan.blocks;
    const kernels::AmxTiles tiles;
    for (std::int64_t jc = 0; jc < p.n; jc += bs.nc) {
      const std::int64_t nc = std::min(bs.nc, p.n - jc);
      for (std::int64_t pc = 0; pc < steps; pc += plan.depth) {
        const std::int64_t kc = std::min(plan.depth, steps - pc);
        const float beta = pc == 0 ? p.beta : 1.0f;
        const kernels::Epilogue* epilogue = pc + kc == steps ? p.epilogue : nullptr;
        const std::int64_t k0 = 2 * pc;
        const std::int64_t depth = std::min(2 * kc, p.k - k0);
        for (std::int64_t jr = 0; jr < nc; jr += NR)
          kernels::pack_k_rows(depth, static_cast<int>(std::min<std::int64_t>(NR, nc - jr)),
                               p.b + k0 * p.b_rs + (jc + jr) * p.b_cs, p.b_rs, p.b_cs, kc / kStep,
                               b_packed + jr * 2 * kc);
        for (std::int64_t ic = 0; ic < p.m; ic += bs.mc) {
          const std::int64_t mc = std::min(bs.mc, p.m - ic);
          const BlockOfA a = block_of_a(ic, mc, pc, kc);
          for (std::int64_t jr = 0; jr < nc; jr += NR) {
            const int n = static_cast<int>(std::min<std::int64_t>(NR, nc - jr));
            const std::uint16_t* b = b_packed + jr * 2 * kc;
            for (std::int64_t ir = 0; ir < mc; ir += MR) {
              const int m = static_cast<int>(std::min<std::int64_t>(MR, mc - ir));
              kernels::amx_tile(kc / kStep, a.first + ir * a.row_slots, b,
                                TileC{p.c + ic + ir + (jc + jr) * p.ldc, p.ldc, m, n, p.alpha, beta});
            }
            Base::finish(epilogue,
                         TileC{p.c + ic + (jc + jr) * p.ldc, p.ldc, static_cast<int>(mc), n});
          }
        }
      }
    }
  }

  // GemmKernels::packed.
  static void packed(const Problem& p, const BlockSizes& model, const PackedOptions&,
                     std::byte* work) {
    const std::int64_t steps = steps_of(p.k);
    const PackedPlan plan = packed_plan(steps, model, MR, NR, false, kStep);
    const WorkspaceParts<float> parts =
        packed_workspace<float>(p.m, p.n, steps, model, MR, NR, false, false, kStep);
    float* const a_packed = parts.a(work);
    run(p, steps, plan, reinterpret_cast<std::uint16_t*>(parts.b(work)),
        [&](std::int64_t ic, std::int64_t mc, std::int64_t pc, std::int64_t kc) {
          const std::int64_t k0 = 2 * pc;
          kernels::pack_pairs_a<Pairs, MR>(mc, std::min(2 * kc, p.k - k0),
                                           p.a + ic * p.a_rs + k0 * p.a_cs, p.a_rs, p.a_cs, 0,
                                           a_packed, kc);
          return BlockOfA{a_packed, kc};
        });
  }

  // GemmKernels::prepacked: A's panels (pack_panels) read in place, `depth` steps a slice.
  static void prepacked(const PrepackedProblem& p, std::int64_t depth, const BlockSizes& model,
                        int, bool, std::byte* work) {
    const std::int64_t steps = steps_of(p.k);
    const PackedPlan plan{depth, blocks_at_depth(model, depth, MR, NR)};
    const WorkspaceParts<float> parts =
        prepacked_workspace<float>(p.m, p.n, steps, depth, model, MR, NR, false);
    run(p, steps, plan, reinterpret_cast<std::uint16_t*>(parts.b(work)),
        [&](std::int64_t ic, std::int64_t, std::int64_t pc, std::int64_t) {
          return BlockOfA{p.a + ic * p.a_rs + pc * MR, p.a_rs};
        });
  }

  // GemmKernels::pack_panels: [m / MR][steps_of(k)][MR].
  static void pack_panels(std::int64_t m, std::int64_t k, const std::uint16_t* a, std::int64_t rs,
                          std::int64_t cs, std::int32_t, float* panels) {
    kernels::pack_pairs_a<Pairs, MR>(m, k, a, rs, cs, 0, panels, steps_of(k));
  }
};

}  // namespace ridge::gemm_detail

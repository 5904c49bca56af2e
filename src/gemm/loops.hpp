// The GotoBLAS/BLIS loop nest around the micro-kernel, single-threaded (the driver hands each
// thread its own block of C). Instantiated per ISA by make_kernel_set<V, MV, NR>().
#pragma once

#include <algorithm>
#include <array>
#include <utility>

#include "gemm/kernel_set.hpp"
#include "gemm/microkernel.hpp"
#include "gemm/pack.hpp"
#include "runtime/aligned_buffer.hpp"

namespace ridge::gemm_detail {

template <class V, int MV, int NR>
struct Loops {
  using T = typename V::scalar;
  static constexpr int MR = MV * V::width;

  static std::int64_t round_up(std::int64_t x, std::int64_t multiple) {
    return (x + multiple - 1) / multiple * multiple;
  }

  template <int N>
  static void strip(std::int64_t kc, const T* a, std::int64_t a_k_stride, StridedB<V> b, T* c,
                    std::int64_t ldc, T alpha, T beta, int m, bool full_rows) {
    micro_tile<V, MV, N>(kc, a, a_k_stride, b, c, ldc, alpha, beta, m, N, full_rows);
  }
  using StripFn = decltype(&strip<1>);
  template <int... I>
  static constexpr std::array<StripFn, NR> strips(std::integer_sequence<int, I...>) {
    return {&strip<I + 1>...};
  }
  static constexpr std::array<StripFn, NR> kStrips = strips(std::make_integer_sequence<int, NR>{});

  static void packed(const Problem<T>& p, const BlockSizes& bs) {
    const std::int64_t kc_max = std::min(bs.kc, p.k);
    const std::int64_t mc_max = std::min(bs.mc, round_up(p.m, MR));
    const std::int64_t nc_max = std::min(bs.nc, round_up(p.n, NR));
    T* a_packed = static_cast<T*>(detail::thread_scratch(detail::ScratchSlot::packed_a)
                                      .get(sizeof(T) * mc_max * kc_max));
    T* b_packed = static_cast<T*>(detail::thread_scratch(detail::ScratchSlot::packed_b)
                                      .get(sizeof(T) * nc_max * kc_max));

    // Loop 5: NC columns of B and C at a time; the packed B panel [nc/NR][kc][NR] lives in L3.
    for (std::int64_t jc = 0; jc < p.n; jc += bs.nc) {
      const std::int64_t nc = std::min(bs.nc, p.n - jc);
      // Loop 4: KC of the depth at a time; beta applies to the first slice only.
      for (std::int64_t pc = 0; pc < p.k; pc += bs.kc) {
        const std::int64_t kc = std::min(bs.kc, p.k - pc);
        const T beta = pc == 0 ? p.beta : T(1);
        pack_b<V, NR>(kc, nc, p.b + pc * p.b_rs + jc * p.b_cs, p.b_rs, p.b_cs, b_packed);
        // Loop 3: MC rows at a time; the packed A block [mc/MR][kc][MR] lives in L2.
        for (std::int64_t ic = 0; ic < p.m; ic += bs.mc) {
          const std::int64_t mc = std::min(bs.mc, p.m - ic);
          pack_a<V, MR>(mc, kc, p.a + ic * p.a_rs + pc * p.a_cs, p.a_rs, p.a_cs, a_packed);
          // Loop 2: one NR-column micro-panel of B, reused from L1 by every tile below.
          for (std::int64_t jr = 0; jr < nc; jr += NR) {
            const int n = static_cast<int>(std::min<std::int64_t>(NR, nc - jr));
            // Loop 1: MR-row micro-panels of A streaming from L2.
            for (std::int64_t ir = 0; ir < mc; ir += MR) {
              const int m = static_cast<int>(std::min<std::int64_t>(MR, mc - ir));
              micro_tile<V, MV, NR>(kc, a_packed + ir * kc, MR,
                                    PackedB<V, NR>{b_packed + jr * kc},
                                    p.c + (ic + ir) + (jc + jr) * p.ldc, p.ldc, p.alpha, beta, m, n,
                                    true);
            }
          }
        }
      }
    }
  }

  // No packing of B; A read in place when column-contiguous. Loop order: an MR x kc_direct slab
  // of A (L2) against all NR-column strips of B, so A is read from memory once.
  static void direct(const Problem<T>& p, const BlockSizes& bs) {
    const bool a_in_place = p.a_rs == 1;
    const std::int64_t kc_max = std::min(bs.kc_direct, p.k);
    T* a_packed = a_in_place ? nullptr
                             : static_cast<T*>(detail::thread_scratch(detail::ScratchSlot::packed_a)
                                                   .get(sizeof(T) * MR * kc_max));
    for (std::int64_t ic = 0; ic < p.m; ic += MR) {
      const int m = static_cast<int>(std::min<std::int64_t>(MR, p.m - ic));
      for (std::int64_t pc = 0; pc < p.k; pc += bs.kc_direct) {
        const std::int64_t kc = std::min(bs.kc_direct, p.k - pc);
        const T beta = pc == 0 ? p.beta : T(1);
        const T* a = p.a + ic * p.a_rs + pc * p.a_cs;
        std::int64_t a_k_stride = p.a_cs;
        if (!a_in_place) {
          pack_a<V, MR>(m, kc, a, p.a_rs, p.a_cs, a_packed);
          a = a_packed;
          a_k_stride = MR;
        }
        const bool full_rows = !a_in_place || m == MR;
        for (std::int64_t jc = 0; jc < p.n; jc += NR) {
          const int n = static_cast<int>(std::min<std::int64_t>(NR, p.n - jc));
          // A tile of n < NR columns runs a kernel with exactly n columns: B is read in place,
          // so there is no padding to read, and no FMA is spent on absent columns.
          kStrips[n - 1](kc, a, a_k_stride,
                         StridedB<V>{p.b + pc * p.b_rs + jc * p.b_cs, p.b_rs, p.b_cs},
                         p.c + ic + jc * p.ldc, p.ldc, p.alpha, beta, m, full_rows);
        }
      }
    }
  }
};

template <class V, int MV, int NR>
KernelSet<typename V::scalar> make_kernel_set() {
  using L = Loops<V, MV, NR>;
  return {V::name, L::MR, NR, &L::packed, &L::direct};
}

}  // namespace ridge::gemm_detail

// The one GEMM micro-kernel, written once over a vector-traits type V (src/simd/*.hpp) and
// instantiated per ISA: an MR x NR tile of C (MR = MV vector registers, NR columns) held in
// MV * NR accumulator registers while k runs, then C = alpha * AB + beta * C.
//
// Included only by per-ISA translation units (cmake/isa_flags.cmake), each of which gets its own
// copy with internal linkage.
#pragma once

#include <cstdint>

#include "simd/cache_line.hpp"
#include "simd/unroll.hpp"

namespace ridge::kernels {

// B as the packing routines leave it: micro-panel [kc][NR], element (p, j) at b[p * NR + j].
template <class V, int NR>
struct PackedB {
  using T = typename V::scalar;
  const T* b;
  typename V::reg broadcast(int j) const { return V::broadcast(b + j); }
  void next() { b += NR; }
};

// B read in place: element (p, j) at b[p * rs + j * cs] (the unpacked path for small and skinny
// problems, where packing B would cost more than it saves).
//
// Column j is addressed as (j / 4)'s group base plus 0, 1, 2 or 3 times cs, which the compiler
// keeps as one pointer per group and three index registers. Written as b + j * cs, GCC 12 keeps
// one offset per column instead, runs out of registers for a 16- or 24-column tile and reloads
// offsets from the stack inside the k loop. Measured, a 16 x 16 x 16 sgemm tile (AVX-512, Zen 4):
// 100 ns as b + j * cs, 90 ns grouped (76 ns from a packed B).
template <class V>
struct StridedB {
  using T = typename V::scalar;
  const T* b;
  std::int64_t rs, cs;
  typename V::reg broadcast(int j) const {
    const T* group = b + (j / 4) * 4 * cs;
    switch (j % 4) {
      case 0: return V::broadcast(group);
      case 1: return V::broadcast(group + cs);
      case 2: return V::broadcast(group + 2 * cs);
      default: return V::broadcast(group + 3 * cs);
    }
  }
  void next() { b += rs; }
};

// Stores update(acc[j][i], load) to each present vector of the C tile (rows [0, m), columns
// [0, n)), where load() reads that vector of C; an edge vector is read and written only in its
// first m - i * W lanes.
template <class V, int MV, int NR, class Update>
[[gnu::always_inline]] inline void store_tile(const typename V::reg (&acc)[NR][MV],
                                              typename V::scalar* c, std::int64_t ldc, int m,
                                              int n, Update update) {
  constexpr int W = V::width;
  RIDGE_UNROLL for (int j = 0; j < NR; ++j) {
    if (j >= n) break;
    typename V::scalar* cj = c + j * ldc;
    RIDGE_UNROLL for (int i = 0; i < MV; ++i) {
      typename V::scalar* ci = cj + i * W;
      const int left = m - i * W;
      if (left >= W) {
        V::store(ci, update(acc[j][i], [&] { return V::load(ci); }));
      } else if (left > 0) {
        V::store_partial(ci, update(acc[j][i], [&] { return V::load_partial(ci, left); }), left);
      }
    }
  }
}

// A's micro-panel as the micro-kernel reads it: element (i, p) at data[i + p * k_stride] (packed:
// k_stride = MR).
template <class T>
struct PanelA {
  const T* data = nullptr;
  std::int64_t k_stride = 0;
  // All MR rows may be read (packed panels are zero-padded); otherwise rows past the tile's are
  // neither read nor written, so an unpacked edge tile stays inside the matrix.
  bool full_rows = true;
  // If nonzero, each step also fetches (into L2) the MR elements this many elements past the
  // ones it loads: the unpacked path reads A a column apart per step, a pattern the hardware
  // prefetchers miss, so it fetches the tiles ahead itself.
  std::int64_t prefetch = 0;
};

// The tile of C that the micro-kernel updates, column-major: element (i, j) at data[i + j * ld],
// rows <= MR and cols <= NR present, C = alpha * A B + beta * C. beta == 0 means C is not read
// (NaN already in C does not propagate).
template <class T>
struct TileC {
  T* data = nullptr;
  std::int64_t ld = 0;
  int rows = 0, cols = 0;
  T alpha = 1, beta = 0;
};

// What a k loop does beside its FMAs, once per step: nothing, or a step of copying the next
// block of A (kernels::PackAInSteps, gemm/loops.hpp), whose reads from memory then overlap the
// FMAs.
struct NoSideWork {
  void step() {}
};

// acc += kc steps of A's panel times B's: the micro-kernel's k loop, in the form chosen once per
// tile (Full: all MR rows loaded; Prefetch: A fetched ahead) so that no step tests either. Left
// to the compiler, the prefetch test stayed inside the AVX2 loop of the in-place path: 7% more
// instructions per step.
template <class V, int MV, int NR, bool Full, bool Prefetch, class BAccess, class SideWork>
[[gnu::always_inline]] inline void k_steps(std::int64_t kc, const PanelA<typename V::scalar>& a,
                                           BAccess& b, int rows, typename V::reg (&acc)[NR][MV],
                                           SideWork& side) {
  using reg = typename V::reg;
  constexpr int W = V::width;
  int lanes[MV];
  RIDGE_UNROLL for (int i = 0; i < MV; ++i) {
    const int left = rows - i * W;
    lanes[i] = left <= 0 ? 0 : (left < W ? left : W);
  }
  const typename V::scalar* ap = a.data;
  const std::int64_t k_stride = a.k_stride, ahead = a.prefetch;
  // Four steps per loop iteration: GCC 12 otherwise runs one, whose pointer updates and branch
  // are 6 of the 40 instructions of an AVX-512 32 x 12 step. Measured on the 2-vCPU Xeon guest,
  // 1 thread, 512^3 to 4096^3, 4096 x 4096 x 128 and 128 x 4096 x 4096, alternated with one step
  // per iteration: AVX-512 sgemm 1.02-1.04x (2 threads 1.01-1.04x), dgemm 1.04-1.05x; AVX2 dgemm
  // 1.05-1.10x, sgemm 1.02-1.06x. Two steps gained half as much, eight no more than four.
  _Pragma("GCC unroll 4") for (std::int64_t p = 0; p < kc; ++p) {
    if constexpr (Prefetch) {
      RIDGE_UNROLL for (int i = 0; i < MV * W; i += simd::kLineElements<typename V::scalar>)
        __builtin_prefetch(ap + ahead + i, 0, 2);
    }
    reg av[MV];
    RIDGE_UNROLL for (int i = 0; i < MV; ++i)
      av[i] = Full ? V::load(ap + i * W) : V::load_partial(ap + i * W, lanes[i]);
    RIDGE_UNROLL for (int j = 0; j < NR; ++j) {
      const reg bj = b.broadcast(j);
      RIDGE_UNROLL for (int i = 0; i < MV; ++i) acc[j][i] = V::fma(av[i], bj, acc[j][i]);
    }
    ap += k_stride;
    b.next();
    side.step();  // after the FMAs, whose operands it then no longer competes with
  }
}

// The traits C is updated with: V's own, or for traits on pairs of a narrower type whose FMA is
// a dot product (simd/avx512_bf16.hpp) the float traits named V::Out.
template <class V>
struct OutTraits {
  using type = V;
};
template <class V>
  requires requires { typename V::Out; }
struct OutTraits<V> {
  using type = typename V::Out;
};

// One tile of C from kc steps of A's panel and B's (packed or in place), each step also doing
// one step of `side`'s work.
template <class V, int MV, int NR, class BAccess, class SideWork = NoSideWork>
[[gnu::always_inline]] inline void micro_tile(std::int64_t kc, const PanelA<typename V::scalar>& a,
                                              BAccess b, const TileC<typename V::scalar>& c,
                                              SideWork&& side = SideWork{}) {
  using reg = typename V::reg;
  reg acc[NR][MV];
  RIDGE_UNROLL for (int j = 0; j < NR; ++j) {
    RIDGE_UNROLL for (int i = 0; i < MV; ++i) acc[j][i] = V::zero();
  }
  if (!a.full_rows) {
    k_steps<V, MV, NR, false, false>(kc, a, b, c.rows, acc, side);
  } else if (a.prefetch != 0) {
    k_steps<V, MV, NR, true, true>(kc, a, b, c.rows, acc, side);
  } else {
    k_steps<V, MV, NR, true, false>(kc, a, b, c.rows, acc, side);
  }

  // C = alpha * AB + beta * C by one formula per (alpha, beta) for every tile, full or edge, so a
  // C element's value never depends on where the tile boundaries (and so the thread
  // boundaries) fall. alpha = 1 with beta = 0 or 1, nearly every call, skips the multiplications
  // by 1 and 0, which are exact but take an FMA-pipe slot per accumulator: 6% of a 16-deep tile.
  using O = typename OutTraits<V>::type;
  const typename V::scalar alpha = c.alpha, beta = c.beta;
  if (alpha == 1 && beta == 0) {
    store_tile<O, MV, NR>(acc, c.data, c.ld, c.rows, c.cols, [](reg ab, auto) { return ab; });
  } else if (alpha == 1 && beta == 1) {
    store_tile<O, MV, NR>(acc, c.data, c.ld, c.rows, c.cols,
                          [](reg ab, auto load_c) { return O::add(ab, load_c()); });
  } else {
    const reg alpha_v = O::set1(alpha);
    const reg beta_v = O::set1(beta);
    const bool read_c = beta != 0;  // beta = 0: NaN already in C does not propagate
    store_tile<O, MV, NR>(acc, c.data, c.ld, c.rows, c.cols, [&](reg ab, auto load_c) {
      return O::fma(alpha_v, ab, read_c ? O::mul(beta_v, load_c()) : O::zero());
    });
  }
}

}  // namespace ridge::kernels

// The epilogue over a region of C, written once over the float traits of an ISA: included by the
// per-ISA translation units (kernels/isa_*.cpp, and through kernels/microkernel.hpp by every unit
// that runs tiles).
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include "kernels/activation_math.hpp"
#include "kernels/epilogue.hpp"
#include "simd/interleaved.hpp"
#include "simd/unroll.hpp"

namespace ridge::kernels {

// f(v, lanes, row, column) stored over each vector v of rows x cols floats of C from c on
// (columns ldc apart; the region's first element is (row0, col0) of the whole C). Whole vectors
// by plain loads and stores: AVX2's masked store (VMASKMOVPS) is microcoded on AMD's cores, a
// dozen or more cycles each.
template <class V, class F>
[[gnu::always_inline]] inline void each_vector(float* c, std::int64_t ldc, std::int64_t rows,
                                               std::int64_t cols, std::int64_t row0,
                                               std::int64_t col0, F f) {
  constexpr int W = V::width;
  for (std::int64_t j = 0; j < cols; ++j) {
    float* cj = c + j * ldc;
    std::int64_t i = 0;
    for (; i + W <= rows; i += W) V::store(cj + i, f(V::load(cj + i), W, row0 + i, col0 + j));
    if (i < rows) {
      const int lanes = static_cast<int>(rows - i);
      V::store_partial(cj + i, f(V::load_partial(cj + i, lanes), lanes, row0 + i, col0 + j), lanes);
    }
  }
}

// V's vector of the first `lanes` floats from p.
template <class V>
[[gnu::always_inline]] inline typename V::reg load_lanes(const float* p, int lanes) {
  return lanes == V::width ? V::load(p) : V::load_partial(p, lanes);
}

// Activation F on the float traits T (V's, or simd::Interleaved over them).
template <Activation F, bool kSubnormalsAtFullSpeed>
struct Activate {
  template <class T>
  [[gnu::always_inline]] static typename T::reg on(typename T::reg v) {
    using M = ActivationMath<T, kSubnormalsAtFullSpeed>;
    if constexpr (F == Activation::relu) return M::relu(v);
    if constexpr (F == Activation::gelu_tanh) return M::gelu_tanh(v);
    if constexpr (F == Activation::gelu_erf) return M::gelu_erf(v);
    if constexpr (F == Activation::silu) return M::silu(v);
  }
};

// op.template operator()<F>() for the activation F that f names.
template <class Op>
[[gnu::always_inline]] inline void with_activation(Activation f, Op&& op) {
  switch (f) {
    case Activation::relu:
      return op.template operator()<Activation::relu>();
    case Activation::gelu_tanh:
      return op.template operator()<Activation::gelu_tanh>();
    case Activation::gelu_erf:
      return op.template operator()<Activation::gelu_erf>();
    case Activation::silu:
      return op.template operator()<Activation::silu>();
  }
}

// How many whole vectors an activation takes at once (simd::Interleaved): eight on AVX-512,
// whose 32 registers hold their chains side by side; one elsewhere. Measured on Zen 5, ns an
// element over 4096 floats in L1 (the epilogue kernel, medians of 41), one vector / eight at
// once: AVX-512 GELU tanh 0.347 / 0.289, erf 0.594 / 0.357, SiLU 0.205 / 0.187; on AVX2's 16
// registers two and four at once ran slower than one (SiLU 0.47 / 1.03 / 0.80, GELU tanh 0.77 /
// 1.19 / 0.80).
template <class V>
inline constexpr int kActivationVectors = std::string_view(V::name) == "avx512" ? 8 : 1;

// Op (Activate) on every vector of rows x cols floats of C from c on (columns ld apart): whole
// vectors kActivationVectors at a time, gathered across columns where a column has fewer, and
// the rest one at a time.
template <class V, class Op>
void activate_vectors(float* c, std::int64_t ld, std::int64_t rows, std::int64_t cols) {
  constexpr int W = V::width, U = kActivationVectors<V>;
  using Many = simd::Interleaved<V, U>;
  float* batch[U];
  int filled = 0;
  for (std::int64_t j = 0; j < cols; ++j) {
    float* cj = c + j * ld;
    std::int64_t i = 0;
    for (; i + W <= rows; i += W) {
      batch[filled++] = cj + i;
      if (filled < U) continue;
      typename Many::reg v;
      RIDGE_UNROLL for (int u = 0; u < U; ++u) v.r[u] = V::load(batch[u]);
      v = Op::template on<Many>(v);
      RIDGE_UNROLL for (int u = 0; u < U; ++u) V::store(batch[u], v.r[u]);
      filled = 0;
    }
    if (i < rows) {
      const int lanes = static_cast<int>(rows - i);
      V::store_partial(cj + i, Op::template on<V>(V::load_partial(cj + i, lanes)), lanes);
    }
  }
  for (int u = 0; u < filled; ++u) V::store(batch[u], Op::template on<V>(V::load(batch[u])));
}

// The pass of activation f over rows x cols floats of C from c on.
template <class V, bool kSubnormalsAtFullSpeed>
void activation_pass(Activation f, float* c, std::int64_t ld, std::int64_t rows,
                     std::int64_t cols) {
  with_activation(f, [&]<Activation F>() {
    activate_vectors<V, Activate<F, kSubnormalsAtFullSpeed>>(c, ld, rows, cols);
  });
}

// e on rows x cols elements of C held from c on, columns ld apart (in C, or a tile of it held
// apart), the first C's element `at`, in place: one pass over the region per operation,
// each a tight loop of its own, then the rounding into e.bf16 if asked. (One loop switching on
// the operation for every vector kept its values on the stack around the activations' code: 56
// instructions a vector for a ReLU, counted by callgrind; on the Zen 3 host a ReLU over a 64 x 64
// C in L1 took 0.85 ns an element so, 0.13 now.) Each element goes through the operations
// in order, as it would in one pass. Out of line: the tile loops call it once a block of tiles
// is stored (its C then in L1 or L2), and their k loops keep the registers to themselves. Sum:
// float, or int32 for the int8 GEMM's sums (Epilogue::scale), whose storage the floats then take
// over.
template <class V, class Sum = float>
[[gnu::noinline]] void apply_epilogue_at(const Epilogue& e, Sum* c, std::int64_t ld,
                                         Epilogue::Position at, std::int64_t rows,
                                         std::int64_t cols) {
  static_assert(sizeof(Sum) == sizeof(float));
  using reg = typename V::reg;
  constexpr int W = V::width;
  // The floats of an int8 GEMM go over its int32 sums in the caller's float C.
  float* const cf = reinterpret_cast<float*>(c);
  const auto [row0, col0] = at;
  const auto pass = [&](auto f) { each_vector<V>(cf, ld, rows, cols, row0, col0, f); };
  if constexpr (std::is_same_v<Sum, std::int32_t>) {
    const reg scale = V::set1(e.scale);
    for (std::int64_t j = 0; j < cols; ++j) {
      for (std::int64_t i = 0; i < rows; i += W) {
        const int lanes = static_cast<int>(rows - i < W ? rows - i : W);
        const reg v = V::mul(V::convert_int32_partial(c + j * ld + i, lanes), scale);
        if (lanes == W) {
          V::store(cf + j * ld + i, v);
        } else {
          V::store_partial(cf + j * ld + i, v, lanes);
        }
      }
    }
  }
  for (int o = 0; o < e.count; ++o) {
    const PostOp& op = e.ops[o];
    const float* data = op.data;
    switch (op.kind) {
      case PostOp::Kind::add_rows:
        pass([=](reg v, int lanes, std::int64_t row, std::int64_t) {
          return V::add(v, load_lanes<V>(data + row, lanes));
        });
        break;
      case PostOp::Kind::add_columns:
        pass([=](reg v, int, std::int64_t, std::int64_t col) {
          return V::add(v, V::set1(data[col]));
        });
        break;
      case PostOp::Kind::scale_rows:
        pass([=](reg v, int lanes, std::int64_t row, std::int64_t) {
          return V::mul(v, load_lanes<V>(data + row, lanes));
        });
        break;
      case PostOp::Kind::scale_columns:
        pass([=](reg v, int, std::int64_t, std::int64_t col) {
          return V::mul(v, V::set1(data[col]));
        });
        break;
      case PostOp::Kind::clamp: {
        const reg low = V::set1(op.low), high = V::set1(op.high);
        pass([=](reg v, int, std::int64_t, std::int64_t) { return V::min(high, V::max(low, v)); });
        break;
      }
      case PostOp::Kind::add_matrix: {
        const std::int64_t r_ld = op.ld;
        pass([=](reg v, int lanes, std::int64_t row, std::int64_t col) {
          return V::add(v, load_lanes<V>(data + row + col * r_ld, lanes));
        });
        break;
      }
      case PostOp::Kind::activation:
        // (Traits that build 2^n within the exponent range scale alike either way.)
        if constexpr (ActivationMath<V>::kScalesAnyPower) {
          if (e.subnormals_at_full_speed) {
            activation_pass<V, true>(op.f, cf, ld, rows, cols);
            break;
          }
        }
        activation_pass<V, false>(op.f, cf, ld, rows, cols);
        break;
    }
  }
  if (e.bf16 != nullptr) {
    for (std::int64_t j = 0; j < cols; ++j)
      for (std::int64_t i = 0; i < rows; i += W) {
        const int lanes = static_cast<int>(rows - i < W ? rows - i : W);
        V::store_bf16_partial(e.bf16 + (row0 + i) + (col0 + j) * e.bf16_ld,
                              load_lanes<V>(cf + j * ld + i, lanes), lanes);
      }
  }
}

// The epilogue on one column of C held from c on (in C, or a tile's slot), its `rows` elements a
// few vectors, its first C's element `at`, in place: each vector through the operations of
// `form` in registers, inlined into the caller's loop. For a caller that runs it beside other
// work a column at a time (the AMX tile steps: gemm/amx_loops.hpp, FinishBehind), where a call of
// apply_epilogue_at a step, or a pass over several columns every few steps, held that work up.
// The same operations on each element as apply_epilogue_at, and so its results.
template <class V, bool kSubnormalsAtFullSpeed, class Sum = float>
[[gnu::always_inline]] inline void apply_epilogue_to_column(const ColumnEpilogue& form, Sum* c,
                                                            Epilogue::Position at, int rows) {
  using reg = typename V::reg;
  constexpr int W = V::width;
  const Epilogue& e = *form.epilogue;
  float* const cf = reinterpret_cast<float*>(c);
  for (int i = 0; i < rows; i += W) {
    const int lanes = rows - i < W ? rows - i : W;
    const std::int64_t row = at.row + i;
    reg v;
    if constexpr (std::is_same_v<Sum, std::int32_t>) {
      v = V::mul(V::convert_int32_partial(c + i, lanes), V::set1(e.scale));
    } else {
      v = load_lanes<V>(cf + i, lanes);
    }
    if (form.column_bias != nullptr) v = V::add(v, V::set1(form.column_bias[at.col]));
    if (form.row_bias != nullptr) v = V::add(v, load_lanes<V>(form.row_bias + row, lanes));
    if (form.activates) {
      // (Inlined by force: GCC kept GELU's erf form out of line on int32 sums.)
      with_activation(
          form.f, [&]<Activation F>() __attribute__((always_inline)) {
            v = Activate<F, kSubnormalsAtFullSpeed>::template on<V>(v);
          });
    }
    if (form.residual != nullptr)
      v = V::add(v, load_lanes<V>(form.residual + row + at.col * form.residual_ld, lanes));
    if (lanes == W) {
      V::store(cf + i, v);
    } else {
      V::store_partial(cf + i, v, lanes);
    }
    if (e.bf16 != nullptr) V::store_bf16_partial(e.bf16 + row + at.col * e.bf16_ld, v, lanes);
  }
}

// e on rows x cols elements of C from c on (c within e's C), in place.
template <class V, class Sum = float>
void apply_epilogue(const Epilogue& e, Sum* c, std::int64_t rows, std::int64_t cols) {
  apply_epilogue_at<V>(e, c, e.ldc, e.position_of(reinterpret_cast<const float*>(c)), rows, cols);
}

}  // namespace ridge::kernels

// The epilogue over a region of C, written once over the float traits of an ISA: included by the
// per-ISA translation units (kernels/isa_*.cpp, and through kernels/microkernel.hpp by every unit
// that runs tiles).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/activation_math.hpp"
#include "kernels/epilogue.hpp"

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

// The pass of activation f, on M's arithmetic (ActivationMath).
template <class M, class Pass>
[[gnu::always_inline]] inline void activation_pass(Activation f, Pass pass) {
  using reg = typename M::reg;
  switch (f) {
    case Activation::relu:
      pass([](reg v, int, std::int64_t, std::int64_t) { return M::relu(v); });
      break;
    case Activation::gelu_tanh:
      pass([](reg v, int, std::int64_t, std::int64_t) { return M::gelu_tanh(v); });
      break;
    case Activation::gelu_erf:
      pass([](reg v, int, std::int64_t, std::int64_t) { return M::gelu_erf(v); });
      break;
    case Activation::silu:
      pass([](reg v, int, std::int64_t, std::int64_t) { return M::silu(v); });
      break;
  }
}

// e on rows x cols elements of C from c on, in place: one pass over the region per operation,
// each a tight loop of its own, then the rounding into e.bf16 if asked. (One loop switching on
// the operation for every vector kept its values on the stack around the activations' code: 56
// instructions a vector for a ReLU, counted by callgrind; on the Zen 3 host a ReLU over a 64 x 64
// C in L1 took 0.85 ns an element so, 0.13 now.) Each element goes through the operations
// in order, as it would in one pass. Out of line: the tile loops call it once a block of tiles
// is stored (its C then in L1 or L2), and their k loops keep the registers to themselves. Sum:
// float, or int32 for the int8 GEMM's sums (Epilogue::scale), whose storage the floats then take
// over.
template <class V, class Sum = float>
[[gnu::noinline]] void apply_epilogue(const Epilogue& e, Sum* c, std::int64_t rows,
                                      std::int64_t cols) {
  static_assert(sizeof(Sum) == sizeof(float));
  using reg = typename V::reg;
  constexpr int W = V::width;
  // The floats of an int8 GEMM go over its int32 sums in the caller's float C.
  float* const cf = reinterpret_cast<float*>(c);
  const std::int64_t ld = e.ldc;
  const auto [row0, col0] = e.position_of(cf);
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
        if constexpr (requires(reg a) { V::scale_by_pow2_exact(a, a); }) {
          if (e.subnormals_at_full_speed) {
            activation_pass<ActivationMath<V, true>>(op.f, pass);
            break;
          }
        }
        activation_pass<ActivationMath<V, false>>(op.f, pass);
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

}  // namespace ridge::kernels

// The epilogue over a region of C, written once over the float traits of an ISA: included by the
// per-ISA translation units (kernels/isa_*.cpp, and through kernels/microkernel.hpp by every unit
// that runs tiles).
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/activation_math.hpp"
#include "kernels/epilogue.hpp"

namespace ridge::kernels {

template <class V>
typename V::reg activate(Activation f, typename V::reg v) {
  using M = ActivationMath<V>;
  switch (f) {
    case Activation::relu:
      return M::relu(v);
    case Activation::gelu_tanh:
      return M::gelu_tanh(v);
    case Activation::gelu_erf:
      return M::gelu_erf(v);
    case Activation::silu:
      return M::silu(v);
  }
  return v;
}

// e on rows x cols elements of C from c on, a vector of rows at a time, each through the whole
// list before it is stored. Out of line: a tile calls it once, after its stores (its C is then in
// L1), and its k loop keeps the registers to itself. Sum: float, or int32 for the int8 GEMM's
// sums (Epilogue::scale), which share their storage with the float results.
template <class V, class Sum = float>
[[gnu::noinline]] void apply_epilogue(const Epilogue& e, Sum* c, std::int64_t rows,
                                      std::int64_t cols) {
  static_assert(sizeof(Sum) == sizeof(float));
  using reg = typename V::reg;
  constexpr int W = V::width;
  const std::int64_t offset = reinterpret_cast<const float*>(c) - e.c;
  const std::int64_t col0 = offset / e.ldc, row0 = offset - col0 * e.ldc;
  for (std::int64_t j = 0; j < cols; ++j) {
    Sum* cj = c + j * e.ldc;
    for (std::int64_t i = 0; i < rows; i += W) {
      const int lanes = static_cast<int>(rows - i < W ? rows - i : W);
      const std::int64_t row = row0 + i, col = col0 + j;
      reg v;
      if constexpr (std::is_same_v<Sum, float>) {
        v = V::load_partial(cj + i, lanes);
      } else {
        v = V::mul(V::convert_int32_partial(cj + i, lanes), V::set1(e.scale));
      }
      for (int o = 0; o < e.count; ++o) {
        const PostOp& op = e.ops[o];
        switch (op.kind) {
          case PostOp::Kind::add_rows:
            v = V::add(v, V::load_partial(op.data + row, lanes));
            break;
          case PostOp::Kind::add_columns:
            v = V::add(v, V::set1(op.data[col]));
            break;
          case PostOp::Kind::scale_rows:
            v = V::mul(v, V::load_partial(op.data + row, lanes));
            break;
          case PostOp::Kind::scale_columns:
            v = V::mul(v, V::set1(op.data[col]));
            break;
          case PostOp::Kind::activation:
            v = activate<V>(op.f, v);
            break;
          case PostOp::Kind::clamp:
            v = V::min(V::set1(op.high), V::max(V::set1(op.low), v));
            break;
          case PostOp::Kind::add_matrix:
            v = V::add(v, V::load_partial(op.data + row + col * op.ld, lanes));
            break;
        }
      }
      if (e.bf16 != nullptr) {
        V::store_bf16_partial(e.bf16 + row + col * e.bf16_ld, v, lanes);
      } else {
        // An int32 sum's storage is the caller's float C (the int8 GEMM writes its sums there):
        // the float goes over it.
        V::store_partial(reinterpret_cast<float*>(cj + i), v, lanes);
      }
    }
  }
}

}  // namespace ridge::kernels

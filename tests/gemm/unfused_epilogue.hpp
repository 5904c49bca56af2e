// Test support for epilogues: the unfused sequence a fused epilogue must match bit for bit, one
// element at a time, and the comparison of floats by their bits.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "kernels/epilogue_kernels.hpp"
#include "ridge/gemm.hpp"
#include "ridge/isa.hpp"

namespace ridge::test {

// f(v) as the epilogue kernel of `isa` computes it (one element through it).
inline float activate(Isa isa, Activation f, float v) {
  kernels::Epilogue e;
  e.ops[0].kind = kernels::PostOp::Kind::activation;
  e.ops[0].f = static_cast<kernels::Activation>(static_cast<int>(f));
  e.count = 1;
  e.c = &v;
  e.ldc = 1;
  kernels::epilogue_kernel(isa)(e, &v, 1, 1);
  return v;
}

// e's operations on v = C(i, j), in order, as the kernels of `isa` take them: max and min give
// their second operand where unordered; add_matrix reads R in C's layout.
inline float unfused_operations(const Epilogue& e, Isa isa, Layout layout, std::int64_t i,
                                std::int64_t j, float v) {
  for (int o = 0; o < e.size(); ++o) {
    const Epilogue::Operation& op = e[o];
    switch (op.kind) {
      case Epilogue::Kind::add_per_row:
        v += op.data[i];
        break;
      case Epilogue::Kind::add_per_column:
        v += op.data[j];
        break;
      case Epilogue::Kind::scale_per_row:
        v *= op.data[i];
        break;
      case Epilogue::Kind::scale_per_column:
        v *= op.data[j];
        break;
      case Epilogue::Kind::activation:
        v = activate(isa, op.f, v);
        break;
      case Epilogue::Kind::clamp: {
        const float low = op.low > v ? op.low : v;
        v = op.high < low ? op.high : low;
        break;
      }
      case Epilogue::Kind::add_matrix:
        v += op.data[layout == Layout::row_major ? i * op.ld + j : i + j * op.ld];
        break;
    }
  }
  return v;
}

inline bool same_bits(float x, float y) {
  return (std::isnan(x) && std::isnan(y)) ||
         std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
}

}  // namespace ridge::test

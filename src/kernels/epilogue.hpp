// A GEMM epilogue in the internal form: an ordered list of operations applied to each element
// of C after C = alpha A B + beta C, on the column-major C of kernels::GemmProblem. The tile loops
// apply it to each block of tiles as it finishes its last depth slice (gemm/loops.hpp; the AMX
// tiles a column at a time during the next tile, gemm/amx_loops.hpp), the matrix-vector and
// dot paths to their output, so C reaches memory once; every path does the same operations on
// each element, so results do not depend on the path or the threads.
#pragma once

#include <cstdint>

#include "simd/cache_line.hpp"

namespace ridge::kernels {

enum class Activation { relu, gelu_tanh, gelu_erf, silu };

struct PostOp {
  enum class Kind {
    add_rows,       // v += data[i]
    add_columns,    // v += data[j]
    scale_rows,     // v *= data[i]
    scale_columns,  // v *= data[j]
    activation,     // v = f(v)
    clamp,          // v = min(high, max(low, v))
    add_matrix,     // v += data[i + j * ld]
  };
  Kind kind = Kind::activation;
  const float* data = nullptr;
  std::int64_t ld = 0;
  Activation f = Activation::relu;
  float low = 0, high = 0;
};

struct Epilogue {
  static constexpr int kMaxOps = 8;
  PostOp ops[kMaxOps];
  int count = 0;
  // Element (0, 0) of the whole problem's C and its column stride: a tile finds its rows and
  // columns from its own address, so thread blocks need no epilogue of their own.
  const float* c = nullptr;
  std::int64_t ldc = 0;
  // The dequantisation, where the problem's C holds int32 sums (the int8 GEMM) in float storage:
  // each sum is converted to float (rounded to nearest) and multiplied by `scale` before the
  // operations, and the float result written over it.
  float scale = 1;
  // If not null, each result is also rounded to bf16 (nearest, ties to even) and stored here,
  // element (i, j) at bf16[i + j * bf16_ld]: C is then a scratch, and the bf16 matrix the
  // caller's C.
  std::uint16_t* bf16 = nullptr;
  std::int64_t bf16_ld = 0;
  // Whether this CPU makes subnormal results without a microcode assist
  // (runtime/subnormal_speed.hpp): the activations then scale their exponentials as arithmetic
  // does (kernels/activation_math.hpp); otherwise they build subnormal results from their bits.
  // The same results either way.
  bool subnormals_at_full_speed = false;

  // The row and column of the whole problem's C at which p (an element of C) lies.
  struct Position {
    std::int64_t row, col;
  };
  Position position_of(const float* p) const {
    const std::int64_t offset = p - c, col = offset / ldc;
    return {offset - col * ldc, col};
  }
};

// An epilogue of the transformer's common form, its operations in this order, each at most once:
// a bias (per column or per row), an activation, a residual (add_matrix); the dequantisation
// and the rounding into bf16 as the epilogue asks. Its kernel takes each vector through them
// in registers with no loop over the operations (kernels::apply_epilogue_to_column: measured on
// the 2-vCPU Xeon guest beside a loop of AMX tile steps, bias + GELU + residual on two vectors a
// step, cycles a step, the loop alone 196-210: those operations written out 207-224, this form
// 220-233, a loop over the operation list 237-272).
struct ColumnEpilogue {
  const Epilogue* epilogue = nullptr;  // null where e has another form
  const float* column_bias = nullptr;
  const float* row_bias = nullptr;
  bool activates = false;
  Activation f = Activation::relu;
  const float* residual = nullptr;
  std::int64_t residual_ld = 0;

  ColumnEpilogue() = default;
  explicit ColumnEpilogue(const Epilogue& e) {
    int o = 0;
    if (o < e.count && e.ops[o].kind == PostOp::Kind::add_columns) column_bias = e.ops[o++].data;
    if (o < e.count && e.ops[o].kind == PostOp::Kind::add_rows && column_bias == nullptr)
      row_bias = e.ops[o++].data;
    if (o < e.count && e.ops[o].kind == PostOp::Kind::activation) {
      activates = true;
      f = e.ops[o++].f;
    }
    if (o < e.count && e.ops[o].kind == PostOp::Kind::add_matrix) {
      residual = e.ops[o].data;
      residual_ld = e.ops[o++].ld;
    }
    if (o == e.count) epilogue = &e;
  }
  bool fits() const { return epilogue != nullptr; }
};

// The lines of an epilogue's matrix operands (add_matrix: a residual) beside a block of C,
// fetched into L2 a column at a time some while before the epilogue reads them: a block's
// columns lie ld apart, so each is a short run on a page of its own that the hardware's
// prefetchers do not reach in time.
class EpilogueOperandLines {
 public:
  EpilogueOperandLines() = default;
  // The block from c on (c within e's C); `rows`: its height, for fetch_column.
  EpilogueOperandLines(const Epilogue& e, const float* c, std::int64_t rows) : rows_(rows) {
    const auto [row0, col0] = e.position_of(c);
    for (int o = 0; o < e.count; ++o) {
      const PostOp& op = e.ops[o];
      if (op.kind != PostOp::Kind::add_matrix) continue;
      first_[count_] = op.data + row0 + col0 * op.ld;
      ld_[count_++] = op.ld;
    }
  }
  bool empty() const { return count_ == 0; }
  void fetch_column(std::int64_t j) const { fetch_tile(0, rows_, j, 1); }
  // Rows [row, row + rows) of columns [col, col + cols), counted from the block's first: one
  // tile's.
  void fetch_tile(std::int64_t row, std::int64_t rows, std::int64_t col, std::int64_t cols) const {
    for (int m = 0; m < count_; ++m)
      for (std::int64_t j = col; j < col + cols; ++j)
        simd::prefetch_run(first_[m] + row + j * ld_[m], rows);
  }

 private:
  const float* first_[Epilogue::kMaxOps] = {};
  std::int64_t ld_[Epilogue::kMaxOps] = {};
  std::int64_t rows_ = 0;
  int count_ = 0;
};

}  // namespace ridge::kernels

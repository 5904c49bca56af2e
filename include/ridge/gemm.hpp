// General matrix multiply: C = alpha * op(A) * op(B) + beta * C, for float, double and bf16, and
// the quantised int8 product with its dequantisation.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>

#include "ridge/bf16.hpp"
#include "ridge/export.hpp"

namespace ridge {

enum class Layout { row_major, col_major };
enum class Transpose { none, transpose };

// A matrix in memory: `rows` x `cols` elements, consecutive rows (row_major) or columns
// (col_major) `ld` elements apart, used as itself or transposed. For C the view must not be
// transposed.
template <class T>
struct MatrixView {
  T* data = nullptr;
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t ld = 0;
  Layout layout = Layout::row_major;
  Transpose trans = Transpose::none;

  // op(X): the dimensions after transposition.
  std::int64_t op_rows() const { return trans == Transpose::none ? rows : cols; }
  std::int64_t op_cols() const { return trans == Transpose::none ? cols : rows; }
  // A view of mutable elements is also a view of constant ones.
  operator MatrixView<const T>() const
    requires(!std::is_const_v<T>)
  {
    return {data, rows, cols, ld, layout, trans};
  }
  MatrixView transposed() const {
    MatrixView t = *this;
    t.trans = trans == Transpose::none ? Transpose::transpose : Transpose::none;
    return t;
  }
};

// Views of contiguous (ld = extent) row- or column-major storage.
template <class T>
MatrixView<T> row_major(T* data, std::int64_t rows, std::int64_t cols, std::int64_t ld = 0) {
  return {data, rows, cols, ld ? ld : (cols > 1 ? cols : 1), Layout::row_major, Transpose::none};
}
template <class T>
MatrixView<T> col_major(T* data, std::int64_t rows, std::int64_t cols, std::int64_t ld = 0) {
  return {data, rows, cols, ld ? ld : (rows > 1 ? rows : 1), Layout::col_major, Transpose::none};
}

// C = alpha * op(A) * op(B) + beta * C. op(A) is M x K, op(B) is K x N, C is M x N; any
// M, N, K >= 0. beta == 0: C is not read (NaN in C does not propagate); alpha == 0 or K == 0:
// A and B are not read. Throws std::invalid_argument naming the argument for a negative size,
// a leading dimension below the extent, mismatched shapes, a transposed C or a null pointer
// with a non-empty matrix.
// (The views go by reference: by value, three 40-byte structs pass through the stack, measured
// at 8% of a 16^3 product.)
RIDGE_API void gemm(float alpha, const MatrixView<const float>& a, const MatrixView<const float>& b,
                    float beta, const MatrixView<float>& c);
RIDGE_API void gemm(double alpha, const MatrixView<const double>& a,
                    const MatrixView<const double>& b, double beta, const MatrixView<double>& c);

// The activations an Epilogue may apply, in float, each within a few ulp of the exact function
// of its float argument (SiLU and GELU's tanh form <= 3 ulp, GELU's erf form <= 7; ReLU exact).
// A NaN stays a NaN; SiLU and GELU of -inf are NaN (-inf x 0, as their formulas give).
enum class Activation {
  relu,       // max(0, v)
  gelu_tanh,  // v (1 + tanh(sqrt(2 / pi) (v + 0.044715 v^3))) / 2
  gelu_erf,   // v (1 + erf(v / sqrt(2))) / 2
  silu,       // v / (1 + e^-v)
};

// Operations applied, in the order added, to each element v = C(i, j) of a float GEMM's result
// alpha op(A) op(B) + beta C before it is stored, so C is written once. Pointers are kept, not
// copied: the arrays must outlive the gemm call. At most kMaxOperations; adding more throws
// std::length_error, a clamp with low > high (or a NaN bound) std::invalid_argument.
class Epilogue {
 public:
  static constexpr int kMaxOperations = 8;

  RIDGE_API Epilogue& add_per_row(const float* values);     // v += values[i] (M values)
  RIDGE_API Epilogue& add_per_column(const float* values);  // v += values[j] (N), e.g. a bias
  RIDGE_API Epilogue& scale_per_row(const float* values);   // v *= values[i]
  RIDGE_API Epilogue& scale_per_column(const float* values);  // v *= values[j]
  RIDGE_API Epilogue& activation(Activation f);
  RIDGE_API Epilogue& clamp(float low, float high);  // v = min(high, max(low, v))
  // v += R(i, j), R an M x N matrix in C's layout (row- or column-major), consecutive rows or
  // columns ld elements apart, e.g. a residual connection.
  RIDGE_API Epilogue& add_matrix(const float* r, std::int64_t ld);

  enum class Kind { add_per_row, add_per_column, scale_per_row, scale_per_column, activation,
                    clamp, add_matrix };
  struct Operation {
    Kind kind = Kind::activation;
    const float* data = nullptr;
    std::int64_t ld = 0;
    Activation f = Activation::relu;
    float low = 0, high = 0;
  };
  int size() const { return count_; }
  const Operation& operator[](int i) const { return ops_[i]; }

 private:
  Epilogue& add(const Operation& op);
  Operation ops_[kMaxOperations];
  int count_ = 0;
};

// C = epilogue(alpha * op(A) * op(B) + beta * C), as gemm above; also throws
// std::invalid_argument for an operation's null pointer while C is not empty, or add_matrix's
// ld below C's row (row-major) or column (column-major) extent. Bit-identical to the plain gemm
// followed by the same operations in the same order on each element (each activation as this
// ISA path computes it).
RIDGE_API void gemm(float alpha, const MatrixView<const float>& a, const MatrixView<const float>& b,
                    float beta, const MatrixView<float>& c, const Epilogue& epilogue);

// C = alpha * op(A) * op(B) + beta * C (and the epilogue) for bf16 A and B, with C, alpha and
// beta in float and every product and sum computed in float from the exact values of A and B: as
// gemm on float views holding to_float of each element, within the float rounding of the sums
// (not always bit-identical: the bf16 path may sum in another order). On CPUs with AVX512_BF16 or
// AMX-BF16 most products run those extensions' dot instructions, which read subnormal bf16 values
// as zero and write subnormal float sums as zero whatever MXCSR says; products of a few rows of C
// may instead widen bf16 to float, as every product does on other CPUs, and keep subnormals. The
// same checks and exceptions as the float gemm.
RIDGE_API void gemm(float alpha, const MatrixView<const bf16>& a, const MatrixView<const bf16>& b,
                    float beta, const MatrixView<float>& c);
RIDGE_API void gemm(float alpha, const MatrixView<const bf16>& a, const MatrixView<const bf16>& b,
                    float beta, const MatrixView<float>& c, const Epilogue& epilogue);

// C = round(epilogue(alpha * op(A) * op(B))) into a bf16 C, each element rounded to nearest,
// ties to even (a NaN stays a NaN): bit for bit the float or bf16 gemm with beta = 0 into a float
// C, then each element rounded. C is written, not read. The sums go to an M x N float scratch,
// rounded into C a block at a time as the blocks finish (C is written once, no pass over a float
// C after the product); std::bad_alloc, C untouched, if the scratch does not fit. The checks and
// exceptions of gemm.
RIDGE_API void gemm(float alpha, const MatrixView<const float>& a, const MatrixView<const float>& b,
                    const MatrixView<bf16>& c, const Epilogue& epilogue = {});
RIDGE_API void gemm(float alpha, const MatrixView<const bf16>& a, const MatrixView<const bf16>& b,
                    const MatrixView<bf16>& c, const Epilogue& epilogue = {});

// Quantised inference: C = epilogue(alpha * (op(A) - a_zero)(op(B) - b_zero)) for 8-bit A (uint8
// or int8) and int8 B with zero points, into a float or bf16 C. The integer product is exact, as
// ridge_gemm_u8s8s32 and ridge_gemm_s8s8s32 compute it (int32, wrapping modulo 2^32 only past
// it); each sum is then dequantised as its block of tiles finishes: converted to float (rounded to
// nearest), multiplied by alpha (the per-tensor scale, the operands' scales multiplied), then the
// epilogue's operations, of which scale_per_column first gives a per-output-channel scale; then
// stored (rounded to nearest even for a bf16 C). Bit for bit that sequence done on the int32
// result, with the activations as the int8 path's instruction set computes them (AVX2's on an
// AVX-512 CPU). C must be row-major (throws std::invalid_argument else); it is written, not read.
// A float C holds the sums itself until they are dequantised; a bf16 C takes an M x N scratch,
// as above. The checks and exceptions of gemm.
RIDGE_API void gemm(float alpha, const MatrixView<const std::uint8_t>& a, std::uint8_t a_zero,
                    const MatrixView<const std::int8_t>& b, std::int8_t b_zero,
                    const MatrixView<float>& c, const Epilogue& epilogue = {});
RIDGE_API void gemm(float alpha, const MatrixView<const std::int8_t>& a, std::int8_t a_zero,
                    const MatrixView<const std::int8_t>& b, std::int8_t b_zero,
                    const MatrixView<float>& c, const Epilogue& epilogue = {});
RIDGE_API void gemm(float alpha, const MatrixView<const std::uint8_t>& a, std::uint8_t a_zero,
                    const MatrixView<const std::int8_t>& b, std::int8_t b_zero,
                    const MatrixView<bf16>& c, const Epilogue& epilogue = {});
RIDGE_API void gemm(float alpha, const MatrixView<const std::int8_t>& a, std::int8_t a_zero,
                    const MatrixView<const std::int8_t>& b, std::int8_t b_zero,
                    const MatrixView<bf16>& c, const Epilogue& epilogue = {});

// op(B), K x N, packed once for many products C = alpha op(A) B + beta C into a row-major C,
// as inference multiplies activations by fixed weights: in the order this machine's kernels read
// B, so that a product skips copying it. Each product is bit-identical to gemm() on the B it was
// packed from, on the instruction-set path active when it was packed, which runs its products
// whatever set_isa says later. The element type it was packed for (element()) fixes the products
// it takes: float B for float A (f32), bf16 B, or float B rounded to bf16 (to nearest even), for
// bf16 A (bf16), int8 B with its zero point for uint8 or int8 A (s8); another product throws
// std::invalid_argument. Where op(B)'s columns are contiguous (op(B) = W^T with W stored
// [N][K] row-major, the layout most frameworks keep weights in), float products read B as
// stored in an order packing cannot keep: the packed form is then B's compact copy, on which
// products run as gemm() on B (on the active path), no faster. The copy is its own: B may
// change or go once packed. Products only read a PackedMatrix, and may run on several threads
// at once. Throws what gemm() would for a bad view (std::invalid_argument), std::bad_alloc if
// the copy does not fit in memory.
class PackedMatrix {
 public:
  enum class Element { f32, bf16, s8 };

  RIDGE_API explicit PackedMatrix(const MatrixView<const float>& b);
  // f32 as above, or bf16: b rounded to bf16, for bf16 products (s8 throws).
  RIDGE_API PackedMatrix(const MatrixView<const float>& b, Element element);
  RIDGE_API explicit PackedMatrix(const MatrixView<const bf16>& b);
  // Products compute (A - a_zero)(B - zero).
  RIDGE_API PackedMatrix(const MatrixView<const std::int8_t>& b, std::int8_t zero);
  RIDGE_API ~PackedMatrix();
  RIDGE_API PackedMatrix(PackedMatrix&&) noexcept;
  RIDGE_API PackedMatrix& operator=(PackedMatrix&&) noexcept;

  std::int64_t rows() const { return rows_; }  // K (0 once moved from)
  std::int64_t cols() const { return cols_; }  // N
  Element element() const { return element_; }

  struct Storage;  // the packed copy and how it was packed (src/gemm/packed_matrix.cpp)
  const Storage* storage() const { return storage_.get(); }

 private:
  template <class S>
  void start(const MatrixView<const S>& b, Element element);

  std::int64_t rows_ = 0, cols_ = 0;
  Element element_ = Element::f32;
  std::unique_ptr<Storage> storage_;
};

// C = alpha * op(A) * B + beta * C (and the epilogue) with B packed, C row-major. The checks
// and exceptions of gemm, and std::invalid_argument for a column-major C, a moved-from B or one
// packed for other products.
RIDGE_API void gemm(float alpha, const MatrixView<const float>& a, const PackedMatrix& b,
                    float beta, const MatrixView<float>& c);
RIDGE_API void gemm(float alpha, const MatrixView<const float>& a, const PackedMatrix& b,
                    float beta, const MatrixView<float>& c, const Epilogue& epilogue);
// bf16 A by a B packed for bf16.
RIDGE_API void gemm(float alpha, const MatrixView<const bf16>& a, const PackedMatrix& b, float beta,
                    const MatrixView<float>& c, const Epilogue& epilogue = {});
// The quantised products above with B packed for int8 (its zero point packed with it).
RIDGE_API void gemm(float alpha, const MatrixView<const std::uint8_t>& a, std::uint8_t a_zero,
                    const PackedMatrix& b, const MatrixView<float>& c,
                    const Epilogue& epilogue = {});
RIDGE_API void gemm(float alpha, const MatrixView<const std::int8_t>& a, std::int8_t a_zero,
                    const PackedMatrix& b, const MatrixView<float>& c,
                    const Epilogue& epilogue = {});
RIDGE_API void gemm(float alpha, const MatrixView<const std::uint8_t>& a, std::uint8_t a_zero,
                    const PackedMatrix& b, const MatrixView<bf16>& c,
                    const Epilogue& epilogue = {});
RIDGE_API void gemm(float alpha, const MatrixView<const std::int8_t>& a, std::int8_t a_zero,
                    const PackedMatrix& b, const MatrixView<bf16>& c,
                    const Epilogue& epilogue = {});

}  // namespace ridge

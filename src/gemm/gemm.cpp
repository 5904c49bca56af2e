// ridge::gemm: validates the views and reduces every layout and transposition to the internal
// column-major problem (kernels/problem.hpp).
#include "ridge/gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "gemm/driver.hpp"
#include "gemm/packed_matrix.hpp"
#include "runtime/subnormal_speed.hpp"
#include "runtime/view_checks.hpp"
#include "runtime/workspace.hpp"

namespace ridge {
namespace {

constexpr const char* kFunction = "ridge::gemm";

[[noreturn]] void invalid(const std::string& message) {
  runtime::invalid_argument(kFunction, message);
}

// Throws std::invalid_argument describing the first bad argument. Out of line and cold, so the
// checks of a valid call (the common case, which may be a 16 x 16 product) stay a few compares.
template <class SA, class SB, class T>
[[noreturn, gnu::cold, gnu::noinline]] void report_invalid(const MatrixView<const SA>& a,
                                                           const MatrixView<const SB>& b,
                                                           const MatrixView<T>& c) {
  runtime::check_view(kFunction, "a", a);
  runtime::check_view(kFunction, "b", b);
  runtime::check_view(kFunction, "c", c);
  if (c.trans != Transpose::none) invalid("c must not be transposed");
  if (a.op_rows() != c.rows)
    invalid("op(a) has " + std::to_string(a.op_rows()) + " rows but c has " +
            std::to_string(c.rows));
  if (b.op_cols() != c.cols)
    invalid("op(b) has " + std::to_string(b.op_cols()) + " columns but c has " +
            std::to_string(c.cols));
  invalid("op(a) has " + std::to_string(a.op_cols()) + " columns but op(b) has " +
          std::to_string(b.op_rows()) + " rows");
}

// The products a PackedMatrix of each element type takes: A of float, bf16 or 8-bit integers.
template <class SA>
constexpr PackedMatrix::Element packed_element() {
  if constexpr (std::is_same_v<SA, float>) return PackedMatrix::Element::f32;
  if constexpr (std::is_same_v<SA, bf16>) return PackedMatrix::Element::bf16;
  return PackedMatrix::Element::s8;
}
const char* element_name(PackedMatrix::Element e) {
  switch (e) {
    case PackedMatrix::Element::f32:
      return "f32";
    case PackedMatrix::Element::bf16:
      return "bf16";
    default:
      return "int8";
  }
}

// The same for a product with B packed, C row-major.
template <class SA, class T>
[[noreturn, gnu::cold, gnu::noinline]] void report_invalid(const MatrixView<const SA>& a,
                                                           const PackedMatrix& b,
                                                           const MatrixView<T>& c) {
  runtime::check_view(kFunction, "a", a);
  runtime::check_view(kFunction, "c", c);
  if (b.storage() == nullptr) invalid("b is a moved-from PackedMatrix");
  if (b.element() != packed_element<SA>())
    invalid(std::string("b was packed for ") + element_name(b.element()) + " products, a is " +
            element_name(packed_element<SA>()));
  if (c.trans != Transpose::none) invalid("c must not be transposed");
  if (c.layout != Layout::row_major) invalid("c must be row-major to multiply by a packed b");
  if (a.op_rows() != c.rows)
    invalid("op(a) has " + std::to_string(a.op_rows()) + " rows but c has " +
            std::to_string(c.rows));
  if (b.cols() != c.cols)
    invalid("b has " + std::to_string(b.cols()) + " columns but c has " + std::to_string(c.cols));
  invalid("op(a) has " + std::to_string(a.op_cols()) + " columns but b has " +
          std::to_string(b.rows()) + " rows");
}

template <class SA, class T>
void check_packed(const MatrixView<const SA>& a, const PackedMatrix& b, const MatrixView<T>& c) {
  if (!runtime::view_valid(a) || !runtime::view_valid(c) || b.storage() == nullptr ||
      b.element() != packed_element<SA>() || c.trans != Transpose::none ||
      c.layout != Layout::row_major || a.op_rows() != c.rows || b.cols() != c.cols ||
      a.op_cols() != b.rows())
    report_invalid(a, b, c);
}

// Element strides (along op(X)'s rows, along its columns) of a view.
template <class T>
void strides(const MatrixView<T>& v, std::int64_t& rs, std::int64_t& cs) {
  const bool row = v.layout == Layout::row_major;
  rs = row ? v.ld : 1;
  cs = row ? 1 : v.ld;
  if (v.trans == Transpose::transpose) std::swap(rs, cs);
}

// The epilogue in the internal problem's terms: a row-major C is solved as its transpose
// (kernels::GemmProblem::from_strides), whose rows are C's columns.
kernels::Epilogue internal_epilogue(const Epilogue& e, const MatrixView<float>& c) {
  const bool transposed = c.layout == Layout::row_major;
  const std::int64_t extent = transposed ? c.cols : c.rows;
  kernels::Epilogue out;
  out.count = e.size();
  out.c = c.data;
  out.ldc = c.ld;
  for (int i = 0; i < e.size(); ++i) {
    const Epilogue::Operation& op = e[i];
    kernels::PostOp& to = out.ops[i];
    to.data = op.data;
    to.ld = op.ld;
    to.low = op.low;
    to.high = op.high;
    using K = kernels::PostOp::Kind;
    switch (op.kind) {
      case Epilogue::Kind::add_per_row:
        to.kind = transposed ? K::add_columns : K::add_rows;
        break;
      case Epilogue::Kind::add_per_column:
        to.kind = transposed ? K::add_rows : K::add_columns;
        break;
      case Epilogue::Kind::scale_per_row:
        to.kind = transposed ? K::scale_columns : K::scale_rows;
        break;
      case Epilogue::Kind::scale_per_column:
        to.kind = transposed ? K::scale_rows : K::scale_columns;
        break;
      case Epilogue::Kind::activation:
        to.kind = K::activation;
        out.subnormals_at_full_speed = runtime::subnormals_at_full_speed();
        switch (op.f) {
          case Activation::relu: to.f = kernels::Activation::relu; break;
          case Activation::gelu_tanh: to.f = kernels::Activation::gelu_tanh; break;
          case Activation::gelu_erf: to.f = kernels::Activation::gelu_erf; break;
          case Activation::silu: to.f = kernels::Activation::silu; break;
          default: invalid("epilogue operation " + std::to_string(i) + " has an unknown activation");
        }
        break;
      case Epilogue::Kind::clamp:
        to.kind = K::clamp;
        break;
      case Epilogue::Kind::add_matrix:
        to.kind = K::add_matrix;
        if (op.ld < std::max<std::int64_t>(1, extent))
          invalid("epilogue operation " + std::to_string(i) + " (add_matrix) has ld " +
                  std::to_string(op.ld) + ", below " + std::to_string(extent));
        break;
    }
    if (op.kind != Epilogue::Kind::activation && op.kind != Epilogue::Kind::clamp &&
        op.data == nullptr && c.rows > 0 && c.cols > 0)
      invalid("epilogue operation " + std::to_string(i) + " has a null pointer");
  }
  return out;
}

// The product of views of S (T, or bf16) into C of T; the internal problem stores bf16 as its
// bit patterns.
template <class S, class T>
void gemm_impl(T alpha, const MatrixView<const S>& a, const MatrixView<const S>& b, T beta,
               const MatrixView<T>& c, const kernels::Epilogue* epilogue = nullptr) {
  if (!runtime::view_valid(a) || !runtime::view_valid(b) || !runtime::view_valid(c) ||
      c.trans != Transpose::none || a.op_rows() != c.rows || b.op_cols() != c.cols || a.op_cols() != b.op_rows())
    report_invalid(a, b, c);
  std::int64_t a_rs, a_cs, b_rs, b_cs, c_rs, c_cs;
  strides(a, a_rs, a_cs);
  strides(b, b_rs, b_cs);
  strides(c, c_rs, c_cs);
  using Stored = std::conditional_t<std::is_same_v<S, bf16>, std::uint16_t, S>;
  static_assert(sizeof(Stored) == sizeof(S));
  auto p = kernels::GemmProblem<T, Stored, Stored>::from_strides(
      c.rows, c.cols, a.op_cols(), alpha, reinterpret_cast<const Stored*>(a.data), a_rs, a_cs,
      reinterpret_cast<const Stored*>(b.data), b_rs, b_cs, beta, c.data, c_rs, c_cs,
      c.layout == Layout::row_major);
  p.epilogue = epilogue;
  gemm_detail::run(p);
}

// Where a product's results go: a float C itself, or for a bf16 C a float scratch in C's layout
// (ld the extent, in the calling thread's runtime::sums_workspace), from which the epilogue
// rounds each finished block into C. Checks C (named before the epilogue's checks) and reserves
// the scratch before anything is written.
struct Destination {
  MatrixView<float> sums;
  kernels::Epilogue epilogue;
};

template <class SA, class B>
Destination destination(const MatrixView<const SA>& a, const B& b, const MatrixView<float>& c,
                        const Epilogue& e) {
  if (!runtime::view_valid(c)) report_invalid(a, b, c);
  Destination d;
  d.sums = c;
  d.epilogue = internal_epilogue(e, c);
  return d;
}

template <class SA, class B>
Destination destination(const MatrixView<const SA>& a, const B& b, const MatrixView<bf16>& c,
                        const Epilogue& e) {
  if (!runtime::view_valid(c) || c.trans != Transpose::none) report_invalid(a, b, c);
  Destination d;
  const std::int64_t extent = c.layout == Layout::row_major ? c.cols : c.rows;
  d.sums = {nullptr, c.rows, c.cols, std::max<std::int64_t>(1, extent), c.layout, c.trans};
  if (c.rows > 0 && c.cols > 0)
    d.sums.data = reinterpret_cast<float*>(
        runtime::sums_workspace(runtime::pages_for<float>(c.rows * c.cols)));
  d.epilogue = internal_epilogue(e, d.sums);
  static_assert(sizeof(bf16) == sizeof(std::uint16_t));
  d.epilogue.bf16 = reinterpret_cast<std::uint16_t*>(c.data);
  d.epilogue.bf16_ld = c.ld;
  return d;
}

// The quantised product's internal problem on `to`, but for its A (the int8 B): the int32 sums
// in its float storage, which the epilogue dequantises block by block. C row-major is solved as
// its transpose, C^T = op(B)^T op(A)^T, the internal problem whose A is the int8 B.
template <class SourceA>
kernels::GemmProblem<std::int32_t, std::int8_t, SourceA> quantised_problem(
    float alpha, const MatrixView<const SourceA>& a, SourceA a_zero, Destination& to) {
  const MatrixView<float>& c = to.sums;
  std::int64_t a_rs, a_cs;
  strides(a, a_rs, a_cs);
  kernels::GemmProblem<std::int32_t, std::int8_t, SourceA> p;
  p.m = c.cols;
  p.n = c.rows;
  p.k = a.op_cols();
  p.b = a.data;
  p.b_rs = a_cs;
  p.b_cs = a_rs;
  p.b_zero = a_zero;
  static_assert(sizeof(std::int32_t) == sizeof(float));
  p.c = reinterpret_cast<std::int32_t*>(c.data);
  p.ldc = c.ld;
  to.epilogue.scale = alpha;
  p.epilogue = &to.epilogue;
  return p;
}

template <class SourceA>
void gemm_quantised(float alpha, const MatrixView<const SourceA>& a, SourceA a_zero,
                    const MatrixView<const std::int8_t>& b, std::int8_t b_zero, Destination to) {
  const MatrixView<float>& c = to.sums;
  if (!runtime::view_valid(a) || !runtime::view_valid(b) || c.trans != Transpose::none ||
      a.op_rows() != c.rows || b.op_cols() != c.cols || a.op_cols() != b.op_rows())
    report_invalid(a, b, c);
  if (c.layout != Layout::row_major) invalid("c must be row-major for an int8 product");
  auto p = quantised_problem(alpha, a, a_zero, to);
  std::int64_t b_rs, b_cs;
  strides(b, b_rs, b_cs);
  p.a = b.data;
  p.a_rs = b_cs;
  p.a_cs = b_rs;
  p.a_zero = b_zero;
  gemm_detail::run(p);
}

// The same with B packed for int8.
template <class SourceA>
void gemm_quantised(float alpha, const MatrixView<const SourceA>& a, SourceA a_zero,
                    const PackedMatrix& b, Destination to) {
  check_packed(a, b, to.sums);
  auto p = quantised_problem(alpha, a, a_zero, to);
  p.a_zero = b.storage()->zero;
  gemm_detail::run_prepacked(p, b.storage()->prepacked);
}

// A float or bf16 product p (A not yet set) on B packed: on its panels, or on a B^T kept as its
// rows (PackedMatrix::Storage::panels), K apart, as on B itself.
template <class Problem>
void run_packed(Problem p, const PackedMatrix::Storage& packed) {
  if (packed.panels) {
    gemm_detail::run_prepacked(p, packed.prepacked);
    return;
  }
  p.a = reinterpret_cast<decltype(p.a)>(packed.data.get());
  p.a_rs = p.k;
  p.a_cs = 1;
  gemm_detail::run(p);
}

// The product with B packed (PackedMatrix): the internal problem of gemm_impl, its A the
// packed copy.
void gemm_packed(float alpha, const MatrixView<const float>& a, const PackedMatrix& b, float beta,
                 const MatrixView<float>& c, const kernels::Epilogue* epilogue = nullptr) {
  check_packed(a, b, c);
  const PackedMatrix::Storage& packed = *b.storage();
  std::int64_t a_rs, a_cs;
  strides(a, a_rs, a_cs);
  auto p =
      kernels::GemmProblem<float>::from_strides(c.rows, c.cols, a.op_cols(), alpha, a.data, a_rs,
                                                a_cs, nullptr, 0, 0, beta, c.data, c.ld, 1, true);
  p.epilogue = epilogue;
  run_packed(p, packed);
}

}  // namespace

void gemm(float alpha, const MatrixView<const float>& a, const MatrixView<const float>& b,
          float beta, const MatrixView<float>& c) {
  gemm_impl(alpha, a, b, beta, c);
}

void gemm(float alpha, const MatrixView<const float>& a, const PackedMatrix& b, float beta,
          const MatrixView<float>& c) {
  gemm_packed(alpha, a, b, beta, c);
}

void gemm(float alpha, const MatrixView<const float>& a, const PackedMatrix& b, float beta,
          const MatrixView<float>& c, const Epilogue& epilogue) {
  runtime::check_view(kFunction, "c", c);  // named before the epilogue's checks
  const kernels::Epilogue internal = internal_epilogue(epilogue, c);
  gemm_packed(alpha, a, b, beta, c, internal.count > 0 ? &internal : nullptr);
}

void gemm(float alpha, const MatrixView<const bf16>& a, const PackedMatrix& b, float beta,
          const MatrixView<float>& c, const Epilogue& epilogue) {
  check_packed(a, b, c);
  const kernels::Epilogue internal = internal_epilogue(epilogue, c);
  std::int64_t a_rs, a_cs;
  strides(a, a_rs, a_cs);
  auto p = kernels::GemmProblem<float, std::uint16_t, std::uint16_t>::from_strides(
      c.rows, c.cols, a.op_cols(), alpha, reinterpret_cast<const std::uint16_t*>(a.data), a_rs,
      a_cs, nullptr, 0, 0, beta, c.data, c.ld, 1, true);
  p.epilogue = internal.count > 0 ? &internal : nullptr;
  run_packed(p, *b.storage());
}

void gemm(float alpha, const MatrixView<const std::uint8_t>& a, std::uint8_t a_zero,
          const PackedMatrix& b, const MatrixView<float>& c, const Epilogue& epilogue) {
  gemm_quantised(alpha, a, a_zero, b, destination(a, b, c, epilogue));
}

void gemm(float alpha, const MatrixView<const std::int8_t>& a, std::int8_t a_zero,
          const PackedMatrix& b, const MatrixView<float>& c, const Epilogue& epilogue) {
  gemm_quantised(alpha, a, a_zero, b, destination(a, b, c, epilogue));
}

void gemm(float alpha, const MatrixView<const std::uint8_t>& a, std::uint8_t a_zero,
          const PackedMatrix& b, const MatrixView<bf16>& c, const Epilogue& epilogue) {
  gemm_quantised(alpha, a, a_zero, b, destination(a, b, c, epilogue));
}

void gemm(float alpha, const MatrixView<const std::int8_t>& a, std::int8_t a_zero,
          const PackedMatrix& b, const MatrixView<bf16>& c, const Epilogue& epilogue) {
  gemm_quantised(alpha, a, a_zero, b, destination(a, b, c, epilogue));
}

void gemm(float alpha, const MatrixView<const float>& a, const MatrixView<const float>& b,
          float beta, const MatrixView<float>& c, const Epilogue& epilogue) {
  if (!runtime::view_valid(c)) report_invalid(a, b, c);  // named before the epilogue's checks
  const kernels::Epilogue internal = internal_epilogue(epilogue, c);
  gemm_impl(alpha, a, b, beta, c, internal.count > 0 ? &internal : nullptr);
}

void gemm(float alpha, const MatrixView<const float>& a, const MatrixView<const float>& b,
          const MatrixView<bf16>& c, const Epilogue& epilogue) {
  const Destination to = destination(a, b, c, epilogue);
  gemm_impl(alpha, a, b, 0.0f, to.sums, &to.epilogue);
}

void gemm(float alpha, const MatrixView<const bf16>& a, const MatrixView<const bf16>& b,
          const MatrixView<bf16>& c, const Epilogue& epilogue) {
  const Destination to = destination(a, b, c, epilogue);
  gemm_impl(alpha, a, b, 0.0f, to.sums, &to.epilogue);
}

void gemm(float alpha, const MatrixView<const std::uint8_t>& a, std::uint8_t a_zero,
          const MatrixView<const std::int8_t>& b, std::int8_t b_zero, const MatrixView<float>& c,
          const Epilogue& epilogue) {
  gemm_quantised(alpha, a, a_zero, b, b_zero, destination(a, b, c, epilogue));
}

void gemm(float alpha, const MatrixView<const std::int8_t>& a, std::int8_t a_zero,
          const MatrixView<const std::int8_t>& b, std::int8_t b_zero, const MatrixView<float>& c,
          const Epilogue& epilogue) {
  gemm_quantised(alpha, a, a_zero, b, b_zero, destination(a, b, c, epilogue));
}

void gemm(float alpha, const MatrixView<const std::uint8_t>& a, std::uint8_t a_zero,
          const MatrixView<const std::int8_t>& b, std::int8_t b_zero, const MatrixView<bf16>& c,
          const Epilogue& epilogue) {
  gemm_quantised(alpha, a, a_zero, b, b_zero, destination(a, b, c, epilogue));
}

void gemm(float alpha, const MatrixView<const std::int8_t>& a, std::int8_t a_zero,
          const MatrixView<const std::int8_t>& b, std::int8_t b_zero, const MatrixView<bf16>& c,
          const Epilogue& epilogue) {
  gemm_quantised(alpha, a, a_zero, b, b_zero, destination(a, b, c, epilogue));
}

Epilogue& Epilogue::add(const Operation& op) {
  if (count_ == kMaxOperations)
    throw std::length_error("ridge::Epilogue: at most " + std::to_string(kMaxOperations) +
                            " operations");
  ops_[count_++] = op;
  return *this;
}
Epilogue& Epilogue::add_per_row(const float* values) {
  return add({.kind = Kind::add_per_row, .data = values});
}
Epilogue& Epilogue::add_per_column(const float* values) {
  return add({.kind = Kind::add_per_column, .data = values});
}
Epilogue& Epilogue::scale_per_row(const float* values) {
  return add({.kind = Kind::scale_per_row, .data = values});
}
Epilogue& Epilogue::scale_per_column(const float* values) {
  return add({.kind = Kind::scale_per_column, .data = values});
}
Epilogue& Epilogue::activation(Activation f) { return add({.kind = Kind::activation, .f = f}); }
Epilogue& Epilogue::clamp(float low, float high) {
  if (!(low <= high))
    throw std::invalid_argument("ridge::Epilogue::clamp: low (" + std::to_string(low) +
                                ") is not at most high (" + std::to_string(high) + ")");
  return add({.kind = Kind::clamp, .low = low, .high = high});
}
Epilogue& Epilogue::add_matrix(const float* r, std::int64_t ld) {
  return add({.kind = Kind::add_matrix, .data = r, .ld = ld});
}

void gemm(double alpha, const MatrixView<const double>& a, const MatrixView<const double>& b,
          double beta, const MatrixView<double>& c) {
  gemm_impl(alpha, a, b, beta, c);
}

void gemm(float alpha, const MatrixView<const bf16>& a, const MatrixView<const bf16>& b, float beta,
          const MatrixView<float>& c) {
  gemm_impl(alpha, a, b, beta, c);
}

void gemm(float alpha, const MatrixView<const bf16>& a, const MatrixView<const bf16>& b, float beta,
          const MatrixView<float>& c, const Epilogue& epilogue) {
  if (!runtime::view_valid(c)) report_invalid(a, b, c);
  const kernels::Epilogue internal = internal_epilogue(epilogue, c);
  gemm_impl(alpha, a, b, beta, c, internal.count > 0 ? &internal : nullptr);
}

}  // namespace ridge

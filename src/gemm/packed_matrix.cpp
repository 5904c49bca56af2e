// ridge::PackedMatrix: packs B once, in the internal A's panels of the active ISA path.
#include "gemm/packed_matrix.hpp"

#include <algorithm>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "gemm/dispatch.hpp"
#include "runtime/active_isa.hpp"
#include "runtime/view_checks.hpp"

namespace ridge {
namespace {

constexpr std::align_val_t kAlignment{64};  // a cache line: panels are read a vector at a time

std::unique_ptr<std::byte[], PackedMatrix::Storage::Free> allocate(std::int64_t bytes) {
  return std::unique_ptr<std::byte[], PackedMatrix::Storage::Free>(
      static_cast<std::byte*>(::operator new(static_cast<std::size_t>(bytes), kAlignment)));
}

// B^T's strides: the internal A's, N rows x K deep.
template <class S>
void internal_strides(const MatrixView<const S>& b, std::int64_t& rs, std::int64_t& cs) {
  const bool row = b.layout == Layout::row_major;
  rs = row ? 1 : b.ld;
  cs = row ? b.ld : 1;
  if (b.trans == Transpose::transpose) std::swap(rs, cs);
}

// B^T's n rows, k deep (strides s.prepacked.rs, cs), in the panels of the kernels of element type
// T and stored types SourceA (B's) and SourceB (the other operand's) on s's path.
template <class T, class SourceA, class SourceB>
void pack_panels(PackedMatrix::Storage& s, std::int64_t n, std::int64_t k, const SourceA* b,
                 std::int32_t zero) {
  const gemm_detail::GemmKernels<T, SourceA, SourceB>& kernels =
      gemm_detail::gemm_kernels<T, SourceA, SourceB>(s.prepacked.isa).kernels;
  const std::int64_t rows = (n + kernels.mr - 1) / kernels.mr * kernels.mr;
  s.data = allocate(
      rows * gemm_detail::prepacked_panel_steps(k, kernels.depth_group, kernels.step_multiple) *
      std::int64_t{sizeof(T)});
  kernels.pack_panels(n, k, b, s.prepacked.rs, s.prepacked.cs, zero,
                      reinterpret_cast<T*>(s.data.get()));
  s.panels = true;
}

// A float or bf16 B (stored as S) in panels, or where its rows (op(B)'s columns) are contiguous
// along the depth, and so not down the columns, those rows copied K apart: the unpacked call may
// then take a dot-product path, which reads them so, and sums in an order the panels cannot give.
template <class S>
void pack_float(PackedMatrix::Storage& s, std::int64_t n, std::int64_t k, const S* b) {
  const std::int64_t rs = s.prepacked.rs, cs = s.prepacked.cs;
  s.panels = rs == 1 || cs != 1;
  if (n == 0 || k == 0) return;
  if (s.panels) {
    pack_panels<float, S, S>(s, n, k, b, 0);
  } else {
    s.data = allocate(n * k * std::int64_t{sizeof(S)});
    S* out = reinterpret_cast<S*>(s.data.get());
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t q = 0; q < k; ++q) out[i * k + q] = b[i * rs + q];
  }
  s.prepacked.panels = s.data.get();
}

}  // namespace

void PackedMatrix::Storage::Free::operator()(std::byte* p) const {
  ::operator delete(p, kAlignment);
}

template <class S>
void PackedMatrix::start(const MatrixView<const S>& b, Element element) {
  runtime::check_view("ridge::PackedMatrix", "b", b);
  storage_.reset(new Storage);
  element_ = element;
  rows_ = b.op_rows();
  cols_ = b.op_cols();
  internal_strides(b, storage_->prepacked.rs, storage_->prepacked.cs);
  storage_->prepacked.isa = runtime::active_isa();
}

PackedMatrix::PackedMatrix(const MatrixView<const float>& b) {
  start(b, Element::f32);
  pack_float(*storage_, cols_, rows_, b.data);
}

PackedMatrix::PackedMatrix(const MatrixView<const bf16>& b) {
  start(b, Element::bf16);
  static_assert(sizeof(bf16) == sizeof(std::uint16_t));
  pack_float(*storage_, cols_, rows_, reinterpret_cast<const std::uint16_t*>(b.data));
}

// Rounded to a compact bf16 copy of B that keeps its orientation (whether op(B)'s columns or its
// rows are contiguous picks the unpacked call's route), packed as a bf16 B.
PackedMatrix::PackedMatrix(const MatrixView<const float>& b, Element element) {
  if (element == Element::f32) {
    *this = PackedMatrix(b);
    return;
  }
  if (element != Element::bf16)
    runtime::invalid_argument("ridge::PackedMatrix",
                              "a float b packs for f32 or bf16 products, not int8");
  runtime::check_view("ridge::PackedMatrix", "b", b);
  const std::int64_t k = b.op_rows(), n = b.op_cols();
  std::int64_t rs, cs;
  internal_strides(b, rs, cs);
  std::vector<bf16> rounded(static_cast<std::size_t>(k * n));
  // op(B) K x N row-major where its rows are contiguous, else W^T with W N x K row-major.
  const bool rows_contiguous = rs == 1;
  const std::int64_t q_stride = rows_contiguous ? n : 1, j_stride = rows_contiguous ? 1 : k;
  for (std::int64_t q = 0; q < k; ++q)
    for (std::int64_t j = 0; j < n; ++j)
      rounded[q * q_stride + j * j_stride] = to_bf16(b.data[j * rs + q * cs]);
  *this = PackedMatrix(
      rows_contiguous
          ? row_major<const bf16>(rounded.data(), k, n, std::max<std::int64_t>(1, n))
          : row_major<const bf16>(rounded.data(), n, k, std::max<std::int64_t>(1, k)).transposed());
}

PackedMatrix::PackedMatrix(const MatrixView<const std::int8_t>& b, std::int8_t zero) {
  start(b, Element::s8);
  Storage& s = *storage_;
  s.zero = zero;
  s.panels = true;
  if (cols_ == 0 || rows_ == 0) return;
  // Either kind of the other operand's kernels packs A alike: the uint8 ones pack it.
  pack_panels<std::int32_t, std::int8_t, std::uint8_t>(s, cols_, rows_, b.data, zero);
  s.prepacked.panels = s.data.get();
}

PackedMatrix::~PackedMatrix() = default;
PackedMatrix::PackedMatrix(PackedMatrix&& other) noexcept
    : rows_(std::exchange(other.rows_, 0)),
      cols_(std::exchange(other.cols_, 0)),
      element_(other.element_),
      storage_(std::move(other.storage_)) {}
PackedMatrix& PackedMatrix::operator=(PackedMatrix&& other) noexcept {
  rows_ = std::exchange(other.rows_, 0);
  cols_ = std::exchange(other.cols_, 0);
  element_ = other.element_;
  storage_ = std::move(other.storage_);
  return *this;
}

}  // namespace ridge

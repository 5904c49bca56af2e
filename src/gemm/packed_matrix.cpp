// ridge::PackedMatrix: packs B once, in the internal A's panels of the active ISA path.
#include "gemm/packed_matrix.hpp"

#include <cstddef>
#include <new>
#include <utility>

#include "gemm/dispatch.hpp"
#include "runtime/active_isa.hpp"
#include "runtime/view_checks.hpp"

namespace ridge {
namespace {

constexpr std::align_val_t kAlignment{64};  // a cache line: panels are read a vector at a time

std::unique_ptr<float[], PackedMatrix::Storage::Free> allocate(std::int64_t elements) {
  return std::unique_ptr<float[], PackedMatrix::Storage::Free>(static_cast<float*>(
      ::operator new(static_cast<std::size_t>(elements) * sizeof(float), kAlignment)));
}

}  // namespace

void PackedMatrix::Storage::Free::operator()(float* p) const { ::operator delete(p, kAlignment); }

PackedMatrix::PackedMatrix(const MatrixView<const float>& b) : storage_(new Storage) {
  runtime::check_view("ridge::PackedMatrix", "b", b);
  rows_ = b.op_rows();
  cols_ = b.op_cols();
  // B^T's strides: the internal A's, N rows x K deep.
  const bool row = b.layout == Layout::row_major;
  std::int64_t rs = row ? 1 : b.ld, cs = row ? b.ld : 1;
  if (b.trans == Transpose::transpose) std::swap(rs, cs);
  const std::int64_t n = cols_, k = rows_;
  gemm_detail::PrepackedA& a = storage_->prepacked;
  a.rs = rs;
  a.cs = cs;
  a.isa = runtime::active_isa();
  // Rows contiguous along the depth (and so not down the columns): the unpacked call may take
  // the dot-product path, which reads them so, and sums in an order the panels cannot give.
  storage_->panels = rs == 1 || cs != 1;
  if (n == 0 || k == 0) return;
  if (storage_->panels) {
    const gemm_detail::GemmKernels<float>& kernels =
        gemm_detail::gemm_kernels<float>(a.isa).kernels;
    storage_->data = allocate((n + kernels.mr - 1) / kernels.mr * kernels.mr * k);
    kernels.pack_panels(n, k, b.data, rs, cs, storage_->data.get());
  } else {
    storage_->data = allocate(n * k);
    float* out = storage_->data.get();
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t q = 0; q < k; ++q) out[i * k + q] = b.data[i * rs + q];
  }
  a.panels = storage_->data.get();
}

PackedMatrix::~PackedMatrix() = default;
PackedMatrix::PackedMatrix(PackedMatrix&& other) noexcept
    : rows_(std::exchange(other.rows_, 0)),
      cols_(std::exchange(other.cols_, 0)),
      storage_(std::move(other.storage_)) {}
PackedMatrix& PackedMatrix::operator=(PackedMatrix&& other) noexcept {
  rows_ = std::exchange(other.rows_, 0);
  cols_ = std::exchange(other.cols_, 0);
  storage_ = std::move(other.storage_);
  return *this;
}

}  // namespace ridge

// ridge_sgemm_pack_b, ridge_sgemm_packed, their bf16 twins ridge_sbgemm_pack_b(_f32) and
// ridge_sbgemm_packed, and ridge_packed_matrix_destroy: the C API over ridge::PackedMatrix, with
// error codes instead of exceptions.
#include <exception>
#include <new>

#include "capi/cblas_operands.hpp"
#include "capi/packed_handle.hpp"
#include "ridge/gemm.hpp"
#include "ridge/ridge.h"

using ridge::capi::has_elements;
using ridge::capi::ld_fits;
using ridge::capi::operand;
using ridge::capi::valid_transpose;

namespace {

// Packs op(B) (S: float or bf16 bit patterns) as PackedMatrix(view, args...) does.
template <class S, class... Args>
int pack_b(enum CBLAS_TRANSPOSE trans_b, int64_t k, int64_t n, const S* b, int64_t ldb,
           ridge_packed_matrix** packed, Args... args) {
  if (!valid_transpose(trans_b)) return RIDGE_ERROR_BAD_ARGUMENT;
  const auto view = operand(b, trans_b, k, n, ldb, ridge::Layout::row_major);
  if (k < 0 || n < 0 || !ld_fits(ldb, view.rows, view.cols, ridge::Layout::row_major))
    return RIDGE_ERROR_BAD_SIZE;
  if (packed == nullptr || (b == nullptr && has_elements(k, n))) return RIDGE_ERROR_NULL_POINTER;
  try {
    *packed = new ridge_packed_matrix{ridge::PackedMatrix(view, args...)};
  } catch (const std::exception&) {
    return RIDGE_ERROR_INTERNAL;
  }
  return 0;
}

// C = alpha op(A) B + beta C with B packed for `element` products.
template <class S>
int packed_product(enum CBLAS_TRANSPOSE trans_a, int64_t m, int64_t n, int64_t k, float alpha,
                   const S* a, int64_t lda, const ridge_packed_matrix* b, float beta, float* c,
                   int64_t ldc, ridge::PackedMatrix::Element element) {
  if (!valid_transpose(trans_a)) return RIDGE_ERROR_BAD_ARGUMENT;
  const auto view = operand(a, trans_a, m, k, lda, ridge::Layout::row_major);
  if (m < 0 || n < 0 || k < 0 || !ld_fits(lda, view.rows, view.cols, ridge::Layout::row_major) ||
      !ld_fits(ldc, m, n, ridge::Layout::row_major))
    return RIDGE_ERROR_BAD_SIZE;
  if (b == nullptr || (a == nullptr && has_elements(m, k)) || (c == nullptr && has_elements(m, n)))
    return RIDGE_ERROR_NULL_POINTER;
  if (b->matrix.storage() == nullptr || b->matrix.element() != element)
    return RIDGE_ERROR_BAD_ARGUMENT;
  if (b->matrix.rows() != k || b->matrix.cols() != n) return RIDGE_ERROR_BAD_SIZE;
  try {
    ridge::gemm(alpha, view, b->matrix, beta, ridge::row_major(c, m, n, ldc));
  } catch (const std::exception&) {
    return RIDGE_ERROR_INTERNAL;
  }
  return 0;
}

const ridge::bf16* as_bf16(const uint16_t* p) { return reinterpret_cast<const ridge::bf16*>(p); }

}  // namespace

extern "C" int ridge_sgemm_pack_b(enum CBLAS_TRANSPOSE trans_b, int64_t k, int64_t n,
                                  const float* b, int64_t ldb, ridge_packed_matrix** packed) {
  return pack_b(trans_b, k, n, b, ldb, packed);
}

extern "C" int ridge_sgemm_packed(enum CBLAS_TRANSPOSE trans_a, int64_t m, int64_t n, int64_t k,
                                  float alpha, const float* a, int64_t lda,
                                  const ridge_packed_matrix* b, float beta, float* c, int64_t ldc) {
  return packed_product(trans_a, m, n, k, alpha, a, lda, b, beta, c, ldc,
                        ridge::PackedMatrix::Element::f32);
}

extern "C" int ridge_sbgemm_pack_b(enum CBLAS_TRANSPOSE trans_b, int64_t k, int64_t n,
                                   const uint16_t* b, int64_t ldb, ridge_packed_matrix** packed) {
  return pack_b(trans_b, k, n, as_bf16(b), ldb, packed);
}

extern "C" int ridge_sbgemm_pack_b_f32(enum CBLAS_TRANSPOSE trans_b, int64_t k, int64_t n,
                                       const float* b, int64_t ldb, ridge_packed_matrix** packed) {
  return pack_b(trans_b, k, n, b, ldb, packed, ridge::PackedMatrix::Element::bf16);
}

extern "C" int ridge_sbgemm_packed(enum CBLAS_TRANSPOSE trans_a, int64_t m, int64_t n, int64_t k,
                                   float alpha, const uint16_t* a, int64_t lda,
                                   const ridge_packed_matrix* b, float beta, float* c,
                                   int64_t ldc) {
  return packed_product(trans_a, m, n, k, alpha, as_bf16(a), lda, b, beta, c, ldc,
                        ridge::PackedMatrix::Element::bf16);
}

extern "C" void ridge_packed_matrix_destroy(ridge_packed_matrix* packed) { delete packed; }

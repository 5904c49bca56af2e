// ridge_sgemm_pack_b, ridge_sgemm_packed, ridge_packed_matrix_destroy: the C API over
// ridge::PackedMatrix, with error codes instead of exceptions.
#include <algorithm>
#include <exception>
#include <new>

#include "ridge/gemm.hpp"
#include "ridge/ridge.h"

struct ridge_packed_matrix {
  ridge::PackedMatrix matrix;
};

namespace {

bool valid_transpose(CBLAS_TRANSPOSE t) {
  return t == CblasNoTrans || t == CblasTrans || t == CblasConjTrans;
}

// The row-major matrix behind op(X), rows x cols after op, if ld fits it.
bool row_major_operand(const float* data, CBLAS_TRANSPOSE t, int64_t rows, int64_t cols, int64_t ld,
                       ridge::MatrixView<const float>& view) {
  const bool transposed = t != CblasNoTrans;  // on real data ConjTrans is Trans
  view = {data,
          transposed ? cols : rows,
          transposed ? rows : cols,
          ld,
          ridge::Layout::row_major,
          transposed ? ridge::Transpose::transpose : ridge::Transpose::none};
  return ld >= std::max<int64_t>(1, view.cols);
}

}  // namespace

extern "C" int ridge_sgemm_pack_b(enum CBLAS_TRANSPOSE trans_b, int64_t k, int64_t n,
                                  const float* b, int64_t ldb, ridge_packed_matrix** packed) {
  if (!valid_transpose(trans_b)) return RIDGE_ERROR_BAD_ARGUMENT;
  ridge::MatrixView<const float> view;
  if (k < 0 || n < 0 || !row_major_operand(b, trans_b, k, n, ldb, view))
    return RIDGE_ERROR_BAD_SIZE;
  if (packed == nullptr || (b == nullptr && k * n > 0)) return RIDGE_ERROR_NULL_POINTER;
  try {
    *packed = new ridge_packed_matrix{ridge::PackedMatrix(view)};
  } catch (const std::exception&) {
    return RIDGE_ERROR_INTERNAL;
  }
  return 0;
}

extern "C" int ridge_sgemm_packed(enum CBLAS_TRANSPOSE trans_a, int64_t m, int64_t n, int64_t k,
                                  float alpha, const float* a, int64_t lda,
                                  const ridge_packed_matrix* b, float beta, float* c, int64_t ldc) {
  if (!valid_transpose(trans_a)) return RIDGE_ERROR_BAD_ARGUMENT;
  ridge::MatrixView<const float> view;
  if (m < 0 || n < 0 || k < 0 || !row_major_operand(a, trans_a, m, k, lda, view) ||
      ldc < std::max<int64_t>(1, n))
    return RIDGE_ERROR_BAD_SIZE;
  if (b == nullptr || (a == nullptr && m * k > 0) || (c == nullptr && m * n > 0))
    return RIDGE_ERROR_NULL_POINTER;
  if (b->matrix.rows() != k || b->matrix.cols() != n) return RIDGE_ERROR_BAD_SIZE;
  try {
    ridge::gemm(alpha, view, b->matrix, beta, ridge::row_major(c, m, n, ldc));
  } catch (const std::exception&) {
    return RIDGE_ERROR_INTERNAL;
  }
  return 0;
}

extern "C" void ridge_packed_matrix_destroy(ridge_packed_matrix* packed) { delete packed; }

// ridge_gemm_u8s8s32 and ridge_gemm_s8s8s32: oneDNN's int8 GEMM interface over
// gemm_detail::gemm_int8, with error codes instead of exceptions; and the same on a B packed
// beforehand (ridge_gemm_s8_pack_b, ridge_gemm_u8s8s32_packed, ridge_gemm_s8s8s32_packed).
#include "gemm/gemm_int8.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "capi/cblas_operands.hpp"
#include "capi/packed_handle.hpp"
#include "gemm/packed_matrix.hpp"
#include "ridge/ridge.h"

namespace {

using ridge::capi::has_elements;
using ridge::gemm_detail::IntOffset;

// 'N' / 'T' (either case) as false / true; false if neither.
bool transposition(char letter, bool& transposed) {
  transposed = letter == 'T' || letter == 't';
  return transposed || letter == 'N' || letter == 'n';
}

bool offset_kind(char letter, IntOffset& offset) {
  switch (letter) {
    case 'F':
    case 'f':
      offset = IntOffset::fixed;
      return true;
    case 'C':
    case 'c':
      offset = IntOffset::column;
      return true;
    case 'R':
    case 'r':
      offset = IntOffset::row;
      return true;
    default:
      return false;
  }
}

// Whether transa, offsetc, alpha and beta are valid (the checks the plain and packed calls
// share), setting trans_a and offset.
bool valid_arguments(char transa, char offsetc, float alpha, float beta, bool& trans_a,
                     IntOffset& offset) {
  return transposition(transa, trans_a) && offset_kind(offsetc, offset) && std::isfinite(alpha) &&
         std::isfinite(beta);
}

// Runs `call` (the product) with C++ exceptions as error codes.
template <class Call>
int guarded(const Call& call) {
  try {
    call();
  } catch (const std::exception&) {
    return RIDGE_ERROR_INTERNAL;
  }
  return 0;
}

template <class SourceA>
int gemm_int8(char transa, char transb, char offsetc, int64_t m, int64_t n, int64_t k, float alpha,
              const SourceA* a, int64_t lda, SourceA ao, const int8_t* b, int64_t ldb, int8_t bo,
              float beta, int32_t* c, int64_t ldc, const int32_t* co) {
  bool trans_a = false, trans_b = false;
  IntOffset offset = IntOffset::fixed;
  if (!valid_arguments(transa, offsetc, alpha, beta, trans_a, offset) ||
      !transposition(transb, trans_b))
    return RIDGE_ERROR_BAD_ARGUMENT;
  if (m < 0 || n < 0 || k < 0) return RIDGE_ERROR_BAD_SIZE;
  // Stored row-major: op(A) m x k is k x m when transposed, op(B) k x n is n x k.
  if (lda < std::max<int64_t>(1, trans_a ? m : k) || ldb < std::max<int64_t>(1, trans_b ? k : n) ||
      ldc < std::max<int64_t>(1, n))
    return RIDGE_ERROR_BAD_SIZE;
  if (!has_elements(m, n)) return 0;
  if (c == nullptr || co == nullptr || (k > 0 && (a == nullptr || b == nullptr)))
    return RIDGE_ERROR_NULL_POINTER;
  return guarded([&] {
    ridge::gemm_detail::gemm_int8(trans_a, trans_b, offset, m, n, k, alpha, a, lda, ao, b, ldb, bo,
                                  beta, c, ldc, co);
  });
}

template <class SourceA>
int gemm_int8_packed(char transa, char offsetc, int64_t m, int64_t n, int64_t k, float alpha,
                     const SourceA* a, int64_t lda, SourceA ao, const ridge_packed_matrix* b,
                     float beta, int32_t* c, int64_t ldc, const int32_t* co) {
  bool trans_a = false;
  IntOffset offset = IntOffset::fixed;
  if (!valid_arguments(transa, offsetc, alpha, beta, trans_a, offset))
    return RIDGE_ERROR_BAD_ARGUMENT;
  if (m < 0 || n < 0 || k < 0) return RIDGE_ERROR_BAD_SIZE;
  if (lda < std::max<int64_t>(1, trans_a ? m : k) || ldc < std::max<int64_t>(1, n))
    return RIDGE_ERROR_BAD_SIZE;
  if (b == nullptr) return RIDGE_ERROR_NULL_POINTER;
  const ridge::PackedMatrix& packed = b->matrix;
  if (packed.storage() == nullptr || packed.element() != ridge::PackedMatrix::Element::s8)
    return RIDGE_ERROR_BAD_ARGUMENT;
  if (packed.rows() != k || packed.cols() != n) return RIDGE_ERROR_BAD_SIZE;
  if (!has_elements(m, n)) return 0;
  if (c == nullptr || co == nullptr || (k > 0 && a == nullptr)) return RIDGE_ERROR_NULL_POINTER;
  return guarded([&] {
    ridge::gemm_detail::gemm_int8_packed(trans_a, offset, m, n, k, alpha, a, lda, ao,
                                         packed.storage()->prepacked, packed.storage()->zero, beta,
                                         c, ldc, co);
  });
}

}  // namespace

extern "C" int ridge_gemm_u8s8s32(char transa, char transb, char offsetc, int64_t m, int64_t n,
                                  int64_t k, float alpha, const uint8_t* a, int64_t lda, uint8_t ao,
                                  const int8_t* b, int64_t ldb, int8_t bo, float beta, int32_t* c,
                                  int64_t ldc, const int32_t* co) {
  return gemm_int8(transa, transb, offsetc, m, n, k, alpha, a, lda, ao, b, ldb, bo, beta, c, ldc,
                   co);
}

extern "C" int ridge_gemm_s8s8s32(char transa, char transb, char offsetc, int64_t m, int64_t n,
                                  int64_t k, float alpha, const int8_t* a, int64_t lda, int8_t ao,
                                  const int8_t* b, int64_t ldb, int8_t bo, float beta, int32_t* c,
                                  int64_t ldc, const int32_t* co) {
  return gemm_int8(transa, transb, offsetc, m, n, k, alpha, a, lda, ao, b, ldb, bo, beta, c, ldc,
                   co);
}

extern "C" int ridge_gemm_s8_pack_b(char transb, int64_t k, int64_t n, const int8_t* b, int64_t ldb,
                                    int8_t bo, ridge_packed_matrix** packed) {
  bool trans_b = false;
  if (!transposition(transb, trans_b)) return RIDGE_ERROR_BAD_ARGUMENT;
  if (k < 0 || n < 0 || ldb < std::max<int64_t>(1, trans_b ? k : n)) return RIDGE_ERROR_BAD_SIZE;
  if (packed == nullptr || (b == nullptr && has_elements(k, n))) return RIDGE_ERROR_NULL_POINTER;
  const ridge::MatrixView<const int8_t> view{
      b,
      trans_b ? n : k,
      trans_b ? k : n,
      ldb,
      ridge::Layout::row_major,
      trans_b ? ridge::Transpose::transpose : ridge::Transpose::none};
  return guarded([&] { *packed = new ridge_packed_matrix{ridge::PackedMatrix(view, bo)}; });
}

extern "C" int ridge_gemm_u8s8s32_packed(char transa, char offsetc, int64_t m, int64_t n, int64_t k,
                                         float alpha, const uint8_t* a, int64_t lda, uint8_t ao,
                                         const ridge_packed_matrix* b, float beta, int32_t* c,
                                         int64_t ldc, const int32_t* co) {
  return gemm_int8_packed(transa, offsetc, m, n, k, alpha, a, lda, ao, b, beta, c, ldc, co);
}

extern "C" int ridge_gemm_s8s8s32_packed(char transa, char offsetc, int64_t m, int64_t n, int64_t k,
                                         float alpha, const int8_t* a, int64_t lda, int8_t ao,
                                         const ridge_packed_matrix* b, float beta, int32_t* c,
                                         int64_t ldc, const int32_t* co) {
  return gemm_int8_packed(transa, offsetc, m, n, k, alpha, a, lda, ao, b, beta, c, ldc, co);
}

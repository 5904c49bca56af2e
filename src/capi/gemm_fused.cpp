// ridge_sgemm_fused: the C API over ridge::gemm with an Epilogue, with error codes instead of
// exceptions.
#include <exception>

#include "capi/cblas_operands.hpp"
#include "ridge/gemm.hpp"
#include "ridge/ridge.h"

using ridge::capi::has_elements;
using ridge::capi::ld_fits;
using ridge::capi::operand;
using ridge::capi::valid_transpose;

extern "C" int ridge_sgemm_fused(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans_a,
                                 enum CBLAS_TRANSPOSE trans_b, int64_t m, int64_t n, int64_t k,
                                 float alpha, const float* a, int64_t lda, const float* b,
                                 int64_t ldb, float beta, float* c, int64_t ldc,
                                 const float* bias, int activation, const float* residual,
                                 int64_t ldr) {
  if ((order != CblasRowMajor && order != CblasColMajor) || !valid_transpose(trans_a) ||
      !valid_transpose(trans_b) || activation < RIDGE_ACT_NONE || activation > RIDGE_ACT_SILU)
    return RIDGE_ERROR_BAD_ARGUMENT;
  if (m < 0 || n < 0 || k < 0) return RIDGE_ERROR_BAD_SIZE;
  const ridge::Layout layout =
      order == CblasRowMajor ? ridge::Layout::row_major : ridge::Layout::col_major;
  const ridge::MatrixView<const float> a_view = operand(a, trans_a, m, k, lda, layout);
  const ridge::MatrixView<const float> b_view = operand(b, trans_b, k, n, ldb, layout);
  if (!ld_fits(lda, a_view.rows, a_view.cols, layout) ||
      !ld_fits(ldb, b_view.rows, b_view.cols, layout) || !ld_fits(ldc, m, n, layout) ||
      (residual != nullptr && !ld_fits(ldr, m, n, layout)))
    return RIDGE_ERROR_BAD_SIZE;
  if ((a == nullptr && has_elements(m, k)) || (b == nullptr && has_elements(k, n)) ||
      (c == nullptr && has_elements(m, n)))
    return RIDGE_ERROR_NULL_POINTER;

  ridge::Epilogue epilogue;
  if (bias != nullptr) epilogue.add_per_column(bias);
  constexpr ridge::Activation kActivations[] = {ridge::Activation::relu,
                                                ridge::Activation::gelu_tanh,
                                                ridge::Activation::gelu_erf,
                                                ridge::Activation::silu};
  if (activation != RIDGE_ACT_NONE) epilogue.activation(kActivations[activation - 1]);
  if (residual != nullptr) epilogue.add_matrix(residual, ldr);
  try {
    ridge::gemm(alpha, a_view, b_view, beta, ridge::MatrixView<float>{c, m, n, ldc, layout},
                epilogue);
  } catch (const std::exception&) {
    return RIDGE_ERROR_INTERNAL;
  }
  return 0;
}

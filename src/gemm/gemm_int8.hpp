// The int8 GEMM with oneDNN's gemm_u8s8s32 / gemm_s8s8s32 semantics, on the internal problem
// form (kernels/problem.hpp) and the driver's packed path.
#pragma once

#include <cstdint>

#include "gemm/driver.hpp"

namespace ridge::gemm_detail {

// How the offset co applies to C (oneDNN's offsetc).
enum class IntOffset { fixed, column, row };  // co[0]; co[i] for row i; co[j] for column j

// C (m x n, row-major, rows ldc apart) = alpha (op(A) - ao)(op(B) - bo) + beta C + offset,
// op(A) m x k and op(B) k x n stored row-major (transposed where trans_a / trans_b). The product
// is exact in int32 (it wraps modulo 2^32 only where it leaves int32); then, unless alpha is 1,
// beta 0 and the offset a fixed 0, each element is computed in double, saturated to int32 and
// rounded to nearest even (beta = 0: C is not read). The arguments are valid (the C API checks
// them); throws std::bad_alloc with C untouched.
template <class SourceA>
void gemm_int8(bool trans_a, bool trans_b, IntOffset offset, std::int64_t m, std::int64_t n,
               std::int64_t k, float alpha, const SourceA* a, std::int64_t lda, SourceA ao,
               const std::int8_t* b, std::int64_t ldb, std::int8_t bo, float beta, std::int32_t* c,
               std::int64_t ldc, const std::int32_t* co);

extern template void gemm_int8(bool, bool, IntOffset, std::int64_t, std::int64_t, std::int64_t,
                               float, const std::uint8_t*, std::int64_t, std::uint8_t,
                               const std::int8_t*, std::int64_t, std::int8_t, float, std::int32_t*,
                               std::int64_t, const std::int32_t*);
extern template void gemm_int8(bool, bool, IntOffset, std::int64_t, std::int64_t, std::int64_t,
                               float, const std::int8_t*, std::int64_t, std::int8_t,
                               const std::int8_t*, std::int64_t, std::int8_t, float, std::int32_t*,
                               std::int64_t, const std::int32_t*);

// The same with op(B) packed beforehand (PackedMatrix for int8: b, bo its zero point).
template <class SourceA>
void gemm_int8_packed(bool trans_a, IntOffset offset, std::int64_t m, std::int64_t n,
                      std::int64_t k, float alpha, const SourceA* a, std::int64_t lda, SourceA ao,
                      const PrepackedA& b, std::int8_t bo, float beta, std::int32_t* c,
                      std::int64_t ldc, const std::int32_t* co);

extern template void gemm_int8_packed(bool, IntOffset, std::int64_t, std::int64_t, std::int64_t,
                                      float, const std::uint8_t*, std::int64_t, std::uint8_t,
                                      const PrepackedA&, std::int8_t, float, std::int32_t*,
                                      std::int64_t, const std::int32_t*);
extern template void gemm_int8_packed(bool, IntOffset, std::int64_t, std::int64_t, std::int64_t,
                                      float, const std::int8_t*, std::int64_t, std::int8_t,
                                      const PrepackedA&, std::int8_t, float, std::int32_t*,
                                      std::int64_t, const std::int32_t*);

}  // namespace ridge::gemm_detail

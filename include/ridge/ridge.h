/* ridge's C API, and CBLAS-compatible declarations of the BLAS routines it implements. */
#ifndef RIDGE_RIDGE_H
#define RIDGE_RIDGE_H

#include <stddef.h>
#include <stdint.h>

#include "ridge/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(RIDGE_BUILDING_LIBRARY)
#define RIDGE_C_API __attribute__((visibility("default")))
#else
#define RIDGE_C_API
#endif

/* What ridge's own C functions return: 0, or one of these, having written nothing. */
#define RIDGE_ERROR_NULL_POINTER 1    /* a pointer is null while its operand is not empty */
#define RIDGE_ERROR_BAD_SIZE 2        /* a size is negative, or head_dim is not in [1, 256] */
#define RIDGE_ERROR_BAD_HEADS 3       /* kv_heads < 1, or q_heads not a multiple of kv_heads */
#define RIDGE_ERROR_INTERNAL 4        /* anything else (out of memory) */
#define RIDGE_ERROR_UNKNOWN_ISA 5     /* not "generic", "avx2" or "avx512" */
#define RIDGE_ERROR_UNSUPPORTED_ISA 6 /* this CPU (or its OS) cannot run that path */
#define RIDGE_ERROR_BAD_ARGUMENT 7    /* an order, transposition or activation out of range */

/* The library's version, "MAJOR.MINOR.PATCH" (RIDGE_VERSION_STRING of the headers it was built
 * with). */
RIDGE_C_API const char* ridge_version(void);

/* Threads the kernels may use: RIDGE_NUM_THREADS, else OMP_NUM_THREADS, else the CPUs in the
 * affinity mask, until ridge_set_num_threads sets it; ridge_set_num_threads(n <= 0) returns to
 * that default. */
RIDGE_C_API void ridge_set_num_threads(int threads);
RIDGE_C_API int ridge_get_num_threads(void);

/* The instruction-set path the kernels run: "generic", "avx2" or "avx512" (RIDGE_ISA, else the
 * best this CPU supports). ridge_set_isa returns 0, or RIDGE_ERROR_NULL_POINTER,
 * RIDGE_ERROR_UNKNOWN_ISA or RIDGE_ERROR_UNSUPPORTED_ISA with the path unchanged. */
RIDGE_C_API int ridge_set_isa(const char* name);
RIDGE_C_API const char* ridge_get_isa(void);

/* The standard CBLAS enumerations and values. */
#ifndef CBLAS_H
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
typedef enum CBLAS_ORDER CBLAS_LAYOUT;
#endif

/* C = alpha * op(A) * op(B) + beta * C. Bad arguments are reported through cblas_xerbla with the
 * reference BLAS parameter numbers, and C is left untouched. */
RIDGE_C_API void cblas_sgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans_a,
                             enum CBLAS_TRANSPOSE trans_b, const int m, const int n, const int k,
                             const float alpha, const float* a, const int lda, const float* b,
                             const int ldb, const float beta, float* c, const int ldc);
RIDGE_C_API void cblas_dgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans_a,
                             enum CBLAS_TRANSPOSE trans_b, const int m, const int n, const int k,
                             const double alpha, const double* a, const int lda, const double* b,
                             const int ldb, const double beta, double* c, const int ldc);

/* OpenBLAS's bf16 GEMM, with its signature and semantics: A and B bf16 bit patterns (OpenBLAS's
 * bfloat16 is a uint16_t), C, alpha and beta float, every product and sum in float (subnormals
 * as ridge::gemm on bf16 treats them: ridge/gemm.hpp); arguments checked as cblas_sgemm's, errors
 * to cblas_xerbla. */
RIDGE_C_API void cblas_sbgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans_a,
                              enum CBLAS_TRANSPOSE trans_b, const int m, const int n, const int k,
                              const float alpha, const uint16_t* a, const int lda,
                              const uint16_t* b, const int ldb, const float beta, float* c,
                              const int ldc);
/* y = alpha * op(A) * x + beta * y, op(A) M x N (A stored M x N in `order`); incx, incy nonzero,
 * negative ones walking the vector backwards from its end, as BLAS defines them. */
RIDGE_C_API void cblas_sgemv(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans, const int m,
                             const int n, const float alpha, const float* a, const int lda,
                             const float* x, const int incx, const float beta, float* y,
                             const int incy);
RIDGE_C_API void cblas_dgemv(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans, const int m,
                             const int n, const double alpha, const double* a, const int lda,
                             const double* x, const int incx, const double beta, double* y,
                             const int incy);

/* The Fortran BLAS routines (column-major, every argument by reference). The trailing string
 * lengths, which Fortran compilers pass for each character argument, are accepted and ignored:
 * only the first character counts, and callers that omit them are safe too. */
RIDGE_C_API void sgemm_(const char* transa, const char* transb, const int* m, const int* n,
                        const int* k, const float* alpha, const float* a, const int* lda,
                        const float* b, const int* ldb, const float* beta, float* c,
                        const int* ldc, size_t transa_len, size_t transb_len);
RIDGE_C_API void dgemm_(const char* transa, const char* transb, const int* m, const int* n,
                        const int* k, const double* alpha, const double* a, const int* lda,
                        const double* b, const int* ldb, const double* beta, double* c,
                        const int* ldc, size_t transa_len, size_t transb_len);
RIDGE_C_API void sgemv_(const char* trans, const int* m, const int* n, const float* alpha,
                        const float* a, const int* lda, const float* x, const int* incx,
                        const float* beta, float* y, const int* incy, size_t trans_len);
RIDGE_C_API void dgemv_(const char* trans, const int* m, const int* n, const double* alpha,
                        const double* a, const int* lda, const double* x, const int* incx,
                        const double* beta, double* y, const int* incy, size_t trans_len);

/* The Fortran BLAS error handler: prints which parameter of which routine was wrong to stderr
 * and returns (the reference one stops the program). Weak, so a program may define its own. */
RIDGE_C_API void xerbla_(const char* routine, const int* parameter, size_t routine_len);

/* out = softmax(scale * q k^T) v, fused (see ridge/attention.hpp), on contiguous
 * [batch, seq, heads, head_dim] tensors: q and out [batch, q_len, q_heads, head_dim], k and v
 * [batch, kv_len, kv_heads, head_dim]; query head h reads key/value head h / (q_heads / kv_heads).
 * scale <= 0 means 1 / sqrt(head_dim); causal != 0 lets query i see keys j <= i + kv_len - q_len.
 * Uses the accurate exp2. Returns 0, or one of the RIDGE_ERROR_* codes without writing out. */
RIDGE_C_API int ridge_attention_f32(const float* q, const float* k, const float* v, float* out,
                                    int64_t batch, int64_t q_len, int64_t kv_len,
                                    int64_t q_heads, int64_t kv_heads, int64_t head_dim,
                                    float scale, int causal);

/* The activations of ridge_sgemm_fused (see ridge/gemm.hpp for their accuracy). */
#define RIDGE_ACT_NONE 0
#define RIDGE_ACT_RELU 1
#define RIDGE_ACT_GELU_TANH 2
#define RIDGE_ACT_GELU_ERF 3
#define RIDGE_ACT_SILU 4

/* C = act(alpha * op(A) * op(B) + beta * C + bias[j]) + residual(i, j), C M x N, applied to
 * each tile of C as it is finished, so C is written once: bias N values, one per column (may be
 * null); residual an M x N matrix in C's layout, consecutive rows (row-major) or columns ldr
 * elements apart (may be null, and then ldr is not read). Sizes
 * and leading dimensions as cblas_sgemm's. Returns 0, or RIDGE_ERROR_BAD_ARGUMENT,
 * RIDGE_ERROR_BAD_SIZE, RIDGE_ERROR_NULL_POINTER or RIDGE_ERROR_INTERNAL with C untouched. */
RIDGE_C_API int ridge_sgemm_fused(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE trans_a,
                                  enum CBLAS_TRANSPOSE trans_b, int64_t m, int64_t n, int64_t k,
                                  float alpha, const float* a, int64_t lda, const float* b,
                                  int64_t ldb, float beta, float* c, int64_t ldc,
                                  const float* bias, int activation, const float* residual,
                                  int64_t ldr);

/* B packed once for many row-major products C = alpha op(A) B + beta C, as inference multiplies
 * activations by fixed weights (ridge::PackedMatrix in ridge/gemm.hpp): opaque. */
typedef struct ridge_packed_matrix ridge_packed_matrix;

/* Packs op(B), k x n, B stored row-major with rows ldb apart (k x n for CblasNoTrans, n x k for
 * CblasTrans or CblasConjTrans), into a new *packed: a copy, so B may change or go afterwards.
 * Returns 0, or with *packed untouched RIDGE_ERROR_BAD_ARGUMENT (trans_b out of range),
 * RIDGE_ERROR_BAD_SIZE (a negative size, ldb below its row's extent), RIDGE_ERROR_NULL_POINTER
 * (packed null, or b null while op(B) is not empty) or RIDGE_ERROR_INTERNAL (out of memory). */
RIDGE_C_API int ridge_sgemm_pack_b(enum CBLAS_TRANSPOSE trans_b, int64_t k, int64_t n,
                                   const float* b, int64_t ldb, ridge_packed_matrix** packed);
/* C = alpha op(A) B + beta C, row-major (op(A) m x k, A stored as cblas_sgemm's with lda; C
 * rows ldc apart), B packed by ridge_sgemm_pack_b with this k and n: bit-identical to the same
 * product on the B it was packed from, without copying B. Several threads may use one packed B
 * at once. Returns 0, or with C untouched RIDGE_ERROR_BAD_ARGUMENT, RIDGE_ERROR_BAD_SIZE (also:
 * k or n not the packed B's), RIDGE_ERROR_NULL_POINTER or RIDGE_ERROR_INTERNAL. */
RIDGE_C_API int ridge_sgemm_packed(enum CBLAS_TRANSPOSE trans_a, int64_t m, int64_t n, int64_t k,
                                   float alpha, const float* a, int64_t lda,
                                   const ridge_packed_matrix* b, float beta, float* c,
                                   int64_t ldc);
/* The same for bf16 products: op(B) of bf16 bit patterns (uint16_t, as cblas_sbgemm's), or of
 * floats rounded to bf16 (to nearest even), packed as ridge_sgemm_pack_b packs; then C (float) =
 * alpha op(A) B + beta C with A of bf16 bit patterns, bit-identical to cblas_sbgemm's row-major
 * product on the B it was packed from. The arguments and returns of ridge_sgemm_pack_b and
 * ridge_sgemm_packed, and RIDGE_ERROR_BAD_ARGUMENT for a B packed for other products. */
RIDGE_C_API int ridge_sbgemm_pack_b(enum CBLAS_TRANSPOSE trans_b, int64_t k, int64_t n,
                                    const uint16_t* b, int64_t ldb, ridge_packed_matrix** packed);
RIDGE_C_API int ridge_sbgemm_pack_b_f32(enum CBLAS_TRANSPOSE trans_b, int64_t k, int64_t n,
                                        const float* b, int64_t ldb, ridge_packed_matrix** packed);
RIDGE_C_API int ridge_sbgemm_packed(enum CBLAS_TRANSPOSE trans_a, int64_t m, int64_t n, int64_t k,
                                    float alpha, const uint16_t* a, int64_t lda,
                                    const ridge_packed_matrix* b, float beta, float* c,
                                    int64_t ldc);
/* Frees a packed B; null is ignored. */
RIDGE_C_API void ridge_packed_matrix_destroy(ridge_packed_matrix* packed);

/* int8 GEMM with the semantics and argument order of oneDNN's dnnl_gemm_u8s8s32 and
 * dnnl_gemm_s8s8s32: row-major, C (m x n, rows ldc apart) = alpha (op(A) - ao)(op(B) - bo)
 * + beta C + offset, op(A) m x k (stored k x m when transa is 'T' or 't', else 'N' or 'n'),
 * op(B) k x n likewise; offsetc 'F' adds co[0] everywhere, 'C' co[i] to row i (m values), 'R'
 * co[j] to column j (n values), in either case. The product is exact (no 16-bit saturation
 * anywhere) while it fits in int32; each element of C is then alpha x product + beta x C + offset
 * computed in double (exact for alpha 1 and beta 0 or 1), saturated to int32 and rounded to
 * nearest even; beta = 0: C is not read. Returns 0, or with C untouched RIDGE_ERROR_BAD_ARGUMENT (a
 * transposition or offsetc letter out of range, alpha or beta not finite), RIDGE_ERROR_BAD_SIZE
 * (a negative size, a leading dimension below its row's extent), RIDGE_ERROR_NULL_POINTER (a,
 * b, c or co null while C or the product is not empty) or RIDGE_ERROR_INTERNAL (out of memory). */
RIDGE_C_API int ridge_gemm_u8s8s32(char transa, char transb, char offsetc, int64_t m, int64_t n,
                                   int64_t k, float alpha, const uint8_t* a, int64_t lda,
                                   uint8_t ao, const int8_t* b, int64_t ldb, int8_t bo, float beta,
                                   int32_t* c, int64_t ldc, const int32_t* co);
RIDGE_C_API int ridge_gemm_s8s8s32(char transa, char transb, char offsetc, int64_t m, int64_t n,
                                   int64_t k, float alpha, const int8_t* a, int64_t lda, int8_t ao,
                                   const int8_t* b, int64_t ldb, int8_t bo, float beta, int32_t* c,
                                   int64_t ldc, const int32_t* co);
/* The int8 B (op(B) k x n, stored row-major, n x k where transb is 'T' or 't') and its zero
 * point bo packed once (freed by ridge_packed_matrix_destroy) for the same products with other A:
 * each the result of ridge_gemm_u8s8s32 / ridge_gemm_s8s8s32 on that B and bo, exactly, without
 * copying B. Returns as ridge_sgemm_pack_b; the products return as ridge_gemm_u8s8s32, and
 * RIDGE_ERROR_BAD_ARGUMENT for a B packed for other products, RIDGE_ERROR_BAD_SIZE for k or n
 * not the packed B's. */
RIDGE_C_API int ridge_gemm_s8_pack_b(char transb, int64_t k, int64_t n, const int8_t* b,
                                     int64_t ldb, int8_t bo, ridge_packed_matrix** packed);
RIDGE_C_API int ridge_gemm_u8s8s32_packed(char transa, char offsetc, int64_t m, int64_t n,
                                          int64_t k, float alpha, const uint8_t* a, int64_t lda,
                                          uint8_t ao, const ridge_packed_matrix* b, float beta,
                                          int32_t* c, int64_t ldc, const int32_t* co);
RIDGE_C_API int ridge_gemm_s8s8s32_packed(char transa, char offsetc, int64_t m, int64_t n,
                                          int64_t k, float alpha, const int8_t* a, int64_t lda,
                                          int8_t ao, const ridge_packed_matrix* b, float beta,
                                          int32_t* c, int64_t ldc, const int32_t* co);

/* The CBLAS error handler: prints which parameter of which routine was wrong to stderr. A weak
 * symbol, so a program may define its own. As in the reference CBLAS, a bad argument of a
 * row-major call is reported with RowMajorStrg set to 1 and the number it has in the column-major
 * call on the transposed problem (gemm: M and N, 4 and 5, and lda and ldb, 9 and 11, swapped;
 * gemv: M and N, 3 and 4), which a handler swaps back; RowMajorStrg is 0 otherwise. */
RIDGE_C_API void cblas_xerbla(int parameter, const char* routine, const char* message, ...);
RIDGE_C_API extern int RowMajorStrg;

#ifdef __cplusplus
}
#endif

#endif /* RIDGE_RIDGE_H */

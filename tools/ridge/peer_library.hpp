// Another BLAS library loaded at run time (dlopen) to be timed against ridge in the same run.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace ridge::cli {

class PeerLibrary {
 public:
  // `spec`: a short name (openblas, blis, onednn) or a path to a shared library exporting
  // cblas_sgemm/cblas_dgemm, and cblas_sgemv/cblas_dgemv where it has them, optionally followed
  // by ":KERNELS", the library's own name for the kernels to use (OPENBLAS_CORETYPE,
  // BLIS_ARCH_TYPE or ONEDNN_MAX_CPU_ISA, set before it loads). `isa_cap` "avx2" picks OpenBLAS's
  // Haswell and oneDNN's AVX2 kernels where the spec names none. Thread count is set before the
  // library starts its threads. Throws std::runtime_error when it cannot be loaded. A library
  // loads once per process: a second spec of it shares the first one's kernels.
  static std::unique_ptr<PeerLibrary> load(const std::string& spec, int threads,
                                           const std::string& isa_cap = "");
  // The kernels the library says it runs (OpenBLAS's core name, BLIS's architecture, oneDNN's
  // ISA, another ridge build's path), or "?" when it has no way to say.
  std::string kernel_choice() const;
  ~PeerLibrary();

  const std::string& name() const { return name_; }
  // The library's own function or variable `name`, null where it has none: for calls beyond
  // the GEMM ones wrapped here (oneDNN's matmul primitive, onednn_matmul.hpp).
  void* symbol(const char* name) const;
  // Another build of ridge (it exports ridge_version), timed as a reference for a change: not a
  // peer, so never the "best peer" of a row.
  bool is_ridge() const { return is_ridge_; }
  bool has_sgemm() const { return sgemm_ != nullptr || dnnl_sgemm_ != nullptr; }
  bool has_dgemm() const { return dgemm_ != nullptr; }
  bool has_sgemv() const { return sgemv_ != nullptr; }
  // oneDNN's int8 GEMM (dnnl_gemm_u8s8s32, dnnl_gemm_s8s8s32), or another ridge build's.
  bool has_gemm_u8s8s32() const { return gemm_u8s8s32_ != nullptr; }
  bool has_gemm_s8s8s32() const { return gemm_s8s8s32_ != nullptr; }
  // A bf16 GEMM: cblas_sbgemm (OpenBLAS builds with it, another ridge build), else oneDNN's
  // dnnl_gemm_bf16bf16f32 where it runs on this CPU (oneDNN 2.6 answers "unimplemented" without
  // AVX512_BF16 or AVX512_CORE).
  bool has_sbgemm() const { return sbgemm_ != nullptr || dnnl_bf16_ != nullptr; }
  bool has_dgemv() const { return dgemv_ != nullptr; }

  // Row-major: C = op(A) * op(B) + beta * C, op transposing where trans_a / trans_b say.
  void sgemm(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
             const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta,
             float* c, std::int64_t ldc) const;
  void dgemm(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
             const double* a, std::int64_t lda, const double* b, std::int64_t ldb, double beta,
             double* c, std::int64_t ldc) const;
  // Row-major, unit increments: y = op(A) * x + beta * y, A stored m x n, op transposing it
  // where `trans` says.
  void sgemv(bool trans, std::int64_t m, std::int64_t n, const float* a, std::int64_t lda,
             const float* x, float beta, float* y) const;
  void dgemv(bool trans, std::int64_t m, std::int64_t n, const double* a, std::int64_t lda,
             const double* x, double beta, double* y) const;
  // Row-major C = op(A) op(B) in float, A and B bf16 bit patterns.
  void sbgemm(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
              const std::uint16_t* a, std::int64_t lda, const std::uint16_t* b, std::int64_t ldb,
              float* c, std::int64_t ldc) const;
  // oneDNN's argument order: transa, transb, offsetc, m, n, k, alpha, a, lda, ao, b, ldb, bo,
  // beta, c, ldc, co; returns a status (0: success).
  template <class A>
  using GemmInt8 = int (*)(char, char, char, std::int64_t, std::int64_t, std::int64_t, float,
                           const A*, std::int64_t, A, const std::int8_t*, std::int64_t, std::int8_t,
                           float, std::int32_t*, std::int64_t, const std::int32_t*);
  // Row-major C = op(A) op(B) in int32, no zero points or offsets; A uint8 or int8.
  void gemm_int8(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                 const std::uint8_t* a, std::int64_t lda, const std::int8_t* b, std::int64_t ldb,
                 std::int32_t* c, std::int64_t ldc) const;
  void gemm_int8(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
                 const std::int8_t* a, std::int64_t lda, const std::int8_t* b, std::int64_t ldb,
                 std::int32_t* c, std::int64_t ldc) const;

 private:
  using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*,
                              int, float, float*, int);
  using CblasDgemm = void (*)(int, int, int, int, int, int, double, const double*, int,
                              const double*, int, double, double*, int);
  using CblasSgemv = void (*)(int, int, int, int, float, const float*, int, const float*, int,
                              float, float*, int);
  using CblasDgemv = void (*)(int, int, int, int, double, const double*, int, const double*, int,
                              double, double*, int);
  using DnnlSgemm = int (*)(char, char, std::int64_t, std::int64_t, std::int64_t, float,
                            const float*, std::int64_t, const float*, std::int64_t, float, float*,
                            std::int64_t);
  using CblasSbgemm = void (*)(int, int, int, int, int, int, float, const std::uint16_t*, int,
                               const std::uint16_t*, int, float, float*, int);
  using DnnlBf16 = int (*)(char, char, std::int64_t, std::int64_t, std::int64_t, float,
                           const std::uint16_t*, std::int64_t, const std::uint16_t*, std::int64_t,
                           float, float*, std::int64_t);
  std::string name_;
  void* handle_ = nullptr;
  bool is_ridge_ = false;
  CblasSgemm sgemm_ = nullptr;
  CblasDgemm dgemm_ = nullptr;
  DnnlSgemm dnnl_sgemm_ = nullptr;
  CblasSgemv sgemv_ = nullptr;  // null in oneDNN, which has no GEMV
  CblasDgemv dgemv_ = nullptr;
  CblasSbgemm sbgemm_ = nullptr;
  DnnlBf16 dnnl_bf16_ = nullptr;
  GemmInt8<std::uint8_t> gemm_u8s8s32_ = nullptr;
  GemmInt8<std::int8_t> gemm_s8s8s32_ = nullptr;
};

}  // namespace ridge::cli

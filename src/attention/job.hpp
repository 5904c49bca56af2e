// One attention call in the form the kernels take, and the per-ISA kernel table.
#pragma once

#include <cstdint>
#include <limits>

#include "ridge/attention.hpp"
#include "simd/isa_unit.hpp"

namespace ridge::attention_detail {

// The most keys per block in decoding.
inline constexpr int kMaxDecodeBlockKeys = 64;

// The online softmax's lazy rescaling (FlashAttention-4), in both kernels: a rescale is due only
// when a row's running maximum grew by more than this (a factor 256 in the weights); until then
// the stale maximum keeps every weight below 256, far from float's range, and the result is
// exact because the row's sum uses the same maximum.
inline constexpr float kRescaleThreshold = 8.0f;
// A row's running maximum before it has seen a key.
inline constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// In: the inputs' element type, float or bf16.
template <class In>
struct Job {
  Tensor4<const In> q, k, v;
  Tensor4<float> out;
  float scale_log2 = 0;  // scale * log2(e): scores come out in the exp2 domain
  bool causal = false;
  std::int64_t group = 1;  // query heads per key/value head
  // Keys per block in decoding (attention.cpp sizes it to L2).
  int decode_block_keys = kMaxDecodeBlockKeys;
};

// One ISA's tile kernel. pack() lays out key/value head `head` of batch b for every query tile
// that reads it, in panel_floats() floats; run() computes out for query rows [q0, q0 + rows) of
// batch b, query head h (rows <= TileKernel::rows) from those panels, in tile_floats() floats of
// its own, and returns the rows' rescale count. Packed panels are float whatever In is. The
// driver reserves every buffer (runtime/workspace.hpp): the kernels never allocate.
template <class In>
struct TileKernel {
  std::int64_t (*panel_floats)(const Job<In>&) = nullptr;
  std::int64_t (*tile_floats)(const Job<In>&) = nullptr;
  void (*pack)(const Job<In>&, std::int64_t b, std::int64_t head, float* panels) = nullptr;
  std::int64_t (*run)(const Job<In>&, std::int64_t b, std::int64_t h, std::int64_t q0, int rows,
                      const float* panels, float* tile) = nullptr;
  // Decoding (attention/flash_decode.hpp): every query row of batch b (row h * rows + r of
  // key/value head h, rows = q_len x group, being query r % q_len of query head
  // h * group + r / q_len) against keys [kv0, kv1), keys and values read in place (head_dim
  // stride 1), in decode_floats() floats of its own. Writes each row's running maximum (exp2
  // domain; -inf if it sees none of these keys), the sum of its weights 2^(s - max) and o = the
  // sum of weight x value, [rows][head_dim], to be merged across key ranges; returns the rows'
  // rescale count.
  std::int64_t (*decode_floats)(const Job<In>&) = nullptr;
  std::int64_t (*decode)(const Job<In>&, std::int64_t b, std::int64_t kv0, std::int64_t kv1,
                         float* row_max, float* row_sum, float* o, float* work) = nullptr;
  int rows = 0;        // query rows per tile: the GEMM micro-tile's MR
  int panel_keys = 0;  // keys per micro-tile of S: its NR
  int tile_keys = 0;   // keys per step of a tile: a whole number of panels
  // The path: the ISA's name, or "avx512_bf16" where bf16 Q K^T runs on VDPBF16PS.
  const char* name = "";
};

template <class In>
using TileKernelFactory = TileKernel<In> (*)(Exp2 variant);

// ridge::attention on the tile kernel `factory` makes: the public overloads pass the active
// ISA's, the tests each one this CPU can run. Defined in attention.cpp for float and bf16.
template <class In>
AttentionStats run_attention(const Tensor4<const In>& q, const Tensor4<const In>& k,
                             const Tensor4<const In>& v, const Tensor4<float>& out,
                             const AttentionOptions& options, TileKernelFactory<In> factory);

// y[i] = 2^x[i] for i < n with the tile kernel's exp2 (attention/exp2.hpp): its accuracy, as
// each ISA computes it, for the tests and the benchmark.
using Exp2Kernel = void (*)(const float* x, float* y, std::int64_t n);

}  // namespace ridge::attention_detail

// Each ISA's kernels, defined in its translation unit (attention/tile_*.cpp).
namespace ridge::generic {
RIDGE_ISA_ENTRY attention_detail::TileKernel<float> attention_kernel_f32(Exp2 variant);
RIDGE_ISA_ENTRY attention_detail::TileKernel<bf16> attention_kernel_bf16(Exp2 variant);
RIDGE_ISA_ENTRY attention_detail::Exp2Kernel exp2_kernel(Exp2 variant);
}  // namespace ridge::generic
namespace ridge::avx2 {
RIDGE_ISA_ENTRY attention_detail::TileKernel<float> attention_kernel_f32(Exp2 variant);
RIDGE_ISA_ENTRY attention_detail::TileKernel<bf16> attention_kernel_bf16(Exp2 variant);
RIDGE_ISA_ENTRY attention_detail::Exp2Kernel exp2_kernel(Exp2 variant);
}  // namespace ridge::avx2
namespace ridge::avx512 {
RIDGE_ISA_ENTRY attention_detail::TileKernel<float> attention_kernel_f32(Exp2 variant);
RIDGE_ISA_ENTRY attention_detail::TileKernel<bf16> attention_kernel_bf16(Exp2 variant);
RIDGE_ISA_ENTRY attention_detail::Exp2Kernel exp2_kernel(Exp2 variant);
}  // namespace ridge::avx512
// bf16 Q K^T on VDPBF16PS (the rest as avx512's): only where the CPU has AVX512_BF16.
namespace ridge::avx512_bf16 {
RIDGE_ISA_ENTRY attention_detail::TileKernel<bf16> attention_kernel_bf16(Exp2 variant);
}  // namespace ridge::avx512_bf16

// ridge_attention_f32: the C API over ridge::attention, with error codes instead of exceptions.
#include "ridge/attention.hpp"

#include <exception>

#include "ridge/ridge.h"

extern "C" int ridge_attention_f32(const float* q, const float* k, const float* v, float* out,
                                   int64_t batch, int64_t q_len, int64_t kv_len, int64_t q_heads,
                                   int64_t kv_heads, int64_t head_dim, float scale, int causal) {
  if (batch < 0 || q_len < 0 || kv_len < 0 || q_heads < 0 || kv_heads < 0 || head_dim < 1 ||
      head_dim > 256)
    return RIDGE_ERROR_BAD_SIZE;
  if (kv_heads < 1 || q_heads % kv_heads != 0) return RIDGE_ERROR_BAD_HEADS;
  const bool q_empty = batch * q_len * q_heads == 0, kv_empty = batch * kv_len * kv_heads == 0;
  if ((!q_empty && (q == nullptr || out == nullptr)) ||
      (!kv_empty && (k == nullptr || v == nullptr)))
    return RIDGE_ERROR_NULL_POINTER;
  ridge::AttentionOptions options;
  options.scale = scale;
  options.causal = causal != 0;
  try {
    ridge::attention(ridge::bshd(q, batch, q_len, q_heads, head_dim),
                     ridge::bshd(k, batch, kv_len, kv_heads, head_dim),
                     ridge::bshd(v, batch, kv_len, kv_heads, head_dim),
                     ridge::bshd(out, batch, q_len, q_heads, head_dim), options);
  } catch (const std::exception&) {
    return RIDGE_ERROR_INTERNAL;
  }
  return 0;
}

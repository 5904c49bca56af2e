// Test support for attention: tensors with their own storage, and the unfused reference in
// double precision (scores, then softmax, then the weighted sum), with the error measure the
// tests bound.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ridge/attention.hpp"

namespace ridge::test {

// A [batch, seq, heads, head_dim] tensor; `heads_major` stores it [batch, heads, seq, head_dim]
// instead and `d_stride` spaces the head_dim elements, so the kernels meet other strides.
struct TestTensor {
  std::int64_t batch, seq, heads, head_dim;
  std::vector<float> storage;
  Tensor4<float> view;

  TestTensor(std::int64_t b, std::int64_t s, std::int64_t h, std::int64_t d,
             bool heads_major = false, std::int64_t d_stride = 1)
      : batch(b), seq(s), heads(h), head_dim(d) {
    storage.assign(static_cast<std::size_t>(std::max<std::int64_t>(1, b * s * h * d * d_stride)),
                   std::numeric_limits<float>::quiet_NaN());
    const std::int64_t row = d * d_stride;
    view = heads_major
               ? Tensor4<float>{storage.data(), b, s, h, d, {h * s * row, row, s * row, d_stride}}
               : Tensor4<float>{storage.data(), b, s, h, d, {s * h * row, h * row, row, d_stride}};
  }
  float& at(std::int64_t b, std::int64_t s, std::int64_t h, std::int64_t d) {
    return view.at(b, s, h)[d * view.strides[3]];
  }
  float at(std::int64_t b, std::int64_t s, std::int64_t h, std::int64_t d) const {
    return view.at(b, s, h)[d * view.strides[3]];
  }
  void fill_random(std::mt19937& rng, float magnitude = 1.0f) {
    std::uniform_real_distribution<float> dist(-magnitude, magnitude);
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t s = 0; s < seq; ++s)
        for (std::int64_t h = 0; h < heads; ++h)
          for (std::int64_t d = 0; d < head_dim; ++d) at(b, s, h, d) = dist(rng);
  }
};

// out[b, i, h, :] in double, materialising the scores: the unfused reference.
inline std::vector<double> reference_attention(const TestTensor& q, const TestTensor& k,
                                               const TestTensor& v, double scale, bool causal) {
  const std::int64_t d = q.head_dim, group = q.heads / k.heads;
  std::vector<double> out(static_cast<std::size_t>(q.batch * q.seq * q.heads * d), 0.0);
  std::vector<double> scores(static_cast<std::size_t>(k.seq));
  for (std::int64_t b = 0; b < q.batch; ++b)
    for (std::int64_t h = 0; h < q.heads; ++h)
      for (std::int64_t i = 0; i < q.seq; ++i) {
        const std::int64_t seen = causal ? std::min(k.seq, i + k.seq - q.seq + 1) : k.seq;
        if (seen <= 0) continue;  // no key: zeros
        double max = -std::numeric_limits<double>::infinity();
        for (std::int64_t j = 0; j < seen; ++j) {
          double s = 0;
          for (std::int64_t x = 0; x < d; ++x)
            s += static_cast<double>(q.at(b, i, h, x)) * k.at(b, j, h / group, x);
          scores[j] = s * scale;
          max = std::max(max, scores[j]);
        }
        double sum = 0;
        for (std::int64_t j = 0; j < seen; ++j) sum += scores[j] = std::exp(scores[j] - max);
        double* o = &out[static_cast<std::size_t>(((b * q.seq + i) * q.heads + h) * d)];
        for (std::int64_t j = 0; j < seen; ++j)
          for (std::int64_t x = 0; x < d; ++x) o[x] += scores[j] / sum * v.at(b, j, h / group, x);
      }
  return out;
}

// The largest error of any output element relative to the largest magnitude among the values:
// each output is a weighted mean of value rows, so that is the scale its rounding errors have
// (relative to the element itself, a mean that cancels to near zero -- certain with head_dim 1
// -- would show the exp2's 7.5e-5 grown a thousandfold). A row the reference leaves zero (it
// sees no key) must be exactly zero, as must every output when all values are zero.
inline double max_relative_error(const TestTensor& out, const std::vector<double>& want,
                                 const TestTensor& v) {
  double scale = 0;
  for (std::int64_t b = 0; b < v.batch; ++b)
    for (std::int64_t s = 0; s < v.seq; ++s)
      for (std::int64_t h = 0; h < v.heads; ++h)
        for (std::int64_t x = 0; x < v.head_dim; ++x)
          scale = std::max(scale, std::fabs(static_cast<double>(v.at(b, s, h, x))));
  double worst = 0;
  const std::int64_t d = out.head_dim;
  for (std::int64_t b = 0; b < out.batch; ++b)
    for (std::int64_t i = 0; i < out.seq; ++i)
      for (std::int64_t h = 0; h < out.heads; ++h) {
        const double* w = &want[static_cast<std::size_t>(((b * out.seq + i) * out.heads + h) * d)];
        for (std::int64_t x = 0; x < d; ++x) {
          const double e = std::fabs(out.at(b, i, h, x) - w[x]);
          if (std::isnan(e)) return std::numeric_limits<double>::infinity();
          worst = std::max(
              worst, scale > 0 ? e / scale : (e > 0 ? std::numeric_limits<double>::infinity() : 0));
        }
      }
  return worst;
}

}  // namespace ridge::test

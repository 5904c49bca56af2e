// The bandwidth kernels, over a vector-traits type V of doubles: each pass touches its arrays
// once, in order. Arrays are 64-byte aligned and their length a multiple of kBandwidthBlock.
#pragma once

#include <cstdint>
#include <type_traits>

#include "simd/isa_unit.hpp"

namespace ridge::probe {

// Elements per loop step of every kernel: 8 vectors of the widest ISA (8 doubles).
inline constexpr std::int64_t kBandwidthBlock = 64;

struct BandwidthKernels {
  double (*read)(const double* a, std::int64_t n);         // returns the sum
  void (*write)(double* a, std::int64_t n, double value);  // a[i] = value
  void (*write_nt)(double* a, std::int64_t n, double value);  // the same with streaming stores;
                                                              // null where the ISA has none
  void (*copy)(double* a, const double* b, std::int64_t n);   // a[i] = b[i]
  void (*triad)(double* a, const double* b, const double* c, double scalar,
                std::int64_t n);  // a[i] = b[i] + scalar * c[i] (STREAM)
};

template <class V>
double read_pass(const double* a, std::int64_t n) {
  // Eight accumulators: add latency (3-4 cycles) x 2 loads per cycle.
  constexpr int kAcc = 8;
  typename V::reg acc[kAcc];
  for (auto& r : acc) r = V::zero();
  for (std::int64_t i = 0; i < n; i += kAcc * V::width) {
    _Pragma("GCC unroll 8") for (int k = 0; k < kAcc; ++k) acc[k] = V::add(acc[k], V::load(a + i + k * V::width));
  }
  for (int k = 1; k < kAcc; ++k) acc[0] = V::add(acc[0], acc[k]);
  return V::reduce_add(acc[0]);
}

template <class V>
void write_pass(double* a, std::int64_t n, double value) {
  const typename V::reg v = V::set1(value);
  for (std::int64_t i = 0; i < n; i += V::width) V::store(a + i, v);
}

template <class V>
void copy_pass(double* a, const double* b, std::int64_t n) {
  for (std::int64_t i = 0; i < n; i += V::width) V::store(a + i, V::load(b + i));
}

template <class V>
void triad_pass(double* a, const double* b, const double* c, double scalar, std::int64_t n) {
  const typename V::reg s = V::set1(scalar);
  for (std::int64_t i = 0; i < n; i += V::width) V::store(a + i, V::fma(s, V::load(c + i), V::load(b + i)));
}

// Stream: a type with stream(double*, V::reg) (a non-temporal store) and fence(), or void.
template <class V, class Stream>
void write_nt_pass(double* a, std::int64_t n, double value) {
  const typename V::reg v = V::set1(value);
  for (std::int64_t i = 0; i < n; i += V::width) Stream::stream(a + i, v);
  Stream::fence();  // streaming stores are weakly ordered: drain them inside the timed run
}

template <class V, class Stream = void>
BandwidthKernels make_bandwidth_kernels() {
  BandwidthKernels k{read_pass<V>, write_pass<V>, nullptr, copy_pass<V>, triad_pass<V>};
  if constexpr (!std::is_void_v<Stream>) k.write_nt = write_nt_pass<V, Stream>;
  return k;
}

}  // namespace ridge::probe

// The kernels of each ISA, defined in its translation unit (probe/bandwidth_kernels_<isa>.cpp).
namespace ridge::generic {
RIDGE_ISA_ENTRY probe::BandwidthKernels bandwidth_kernels();
}  // namespace ridge::generic
namespace ridge::avx2 {
RIDGE_ISA_ENTRY probe::BandwidthKernels bandwidth_kernels();
}  // namespace ridge::avx2
namespace ridge::avx512 {
RIDGE_ISA_ENTRY probe::BandwidthKernels bandwidth_kernels();
}  // namespace ridge::avx512

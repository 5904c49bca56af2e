// Bandwidth kernels on AVX2, with 256-bit streaming stores (vmovntpd).
#include "probe/bandwidth_kernels.hpp"
#include "simd/avx2.hpp"

namespace ridge::avx2 {
namespace {
struct Avx2Stream {
  static void stream(double* p, __m256d v) { _mm256_stream_pd(p, v); }
  static void fence() { _mm_sfence(); }
};
}  // namespace

probe::BandwidthKernels bandwidth_kernels() {
  return probe::make_bandwidth_kernels<simd::Avx2<double>, Avx2Stream>();
}
}  // namespace ridge::avx2

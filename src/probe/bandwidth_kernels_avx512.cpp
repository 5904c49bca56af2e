// Bandwidth kernels on AVX-512, with 512-bit streaming stores (vmovntpd).
#include "probe/bandwidth_kernels.hpp"
#include "simd/avx512.hpp"

namespace ridge::avx512 {
namespace {
struct Avx512Stream {
  static void stream(double* p, __m512d v) { _mm512_stream_pd(p, v); }
  static void fence() { _mm_sfence(); }
};
}  // namespace

probe::BandwidthKernels bandwidth_kernels() {
  return probe::make_bandwidth_kernels<simd::Avx512<double>, Avx512Stream>();
}
}  // namespace ridge::avx512

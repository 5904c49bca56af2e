// Page-strided read streams (see page_streams.hpp).
#include "probe/page_streams.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "probe/mapped_buffer.hpp"
#include "probe/pinned_team.hpp"
#include "simd/cache_line.hpp"

namespace ridge::probe::detail {
namespace {

constexpr std::int64_t kColumnBytes = 16 << 10;  // 4096 floats: a page-multiple stride
constexpr std::int64_t kColumns = 4096;
constexpr std::int64_t kAheadLines = 8;  // the direct path's kPrefetchTiles of one-line tiles

// One pass over the matrix, `streams` columns at a time; returns a value the loads feed, so
// that they stay.
std::uint64_t read_pass(const char* matrix, int streams) {
  std::uint64_t sum[4] = {};
  for (std::int64_t first = 0; first < kColumns; first += streams) {
    const std::int64_t last = std::min<std::int64_t>(kColumns, first + streams);
    for (std::int64_t line = 0; line < kColumnBytes; line += simd::kLineBytes) {
      const bool ahead = line + kAheadLines * simd::kLineBytes < kColumnBytes;
      for (std::int64_t c = first; c < last; ++c) {
        const char* at = matrix + c * kColumnBytes + line;
        if (ahead) __builtin_prefetch(at + kAheadLines * simd::kLineBytes, 0, 2);
        std::uint64_t word;
        std::memcpy(&word, at, sizeof(word));
        sum[c & 3] ^= word;
      }
    }
  }
  return sum[0] ^ sum[1] ^ sum[2] ^ sum[3];
}

}  // namespace

std::vector<int> page_stream_counts() { return {8, 16, 24, 32, 40, 48, 56, 64, 96, 128, 192, 256}; }

std::vector<PageStreamPoint> measure_page_streams(const SamplingPolicy& policy) {
  constexpr std::int64_t kBytes = kColumns * kColumnBytes;
  // 4 KiB pages, as a heap allocation gets: with 2 MiB pages the columns would share TLB
  // entries that a user's matrix does not.
  MappedBuffer matrix(kBytes, PageRequest::small);
  for (std::int64_t i = 0; i < kBytes; i += 8) {
    const std::uint64_t value = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull;
    std::memcpy(matrix.data() + i, &value, sizeof(value));
  }
  PinnedTeam one(first_cpus(1));
  volatile std::uint64_t sink = 0;
  std::vector<PageStreamPoint> points;
  for (int streams : page_stream_counts()) {
    const Figure gbs = measure(
        [&] {
          const double seconds =
              one.run([&](int) { sink = sink ^ read_pass(matrix.data(), streams); });
          return static_cast<double>(kBytes) / seconds * 1e-9;
        },
        policy);
    points.push_back({streams, gbs});
  }
  return points;
}

int sustained_page_streams(const std::vector<PageStreamPoint>& points, double share) {
  std::vector<PageStreamPoint> sorted = points;
  std::ranges::sort(sorted, {}, &PageStreamPoint::streams);
  double best = 0;
  int sustained = 0;
  for (const PageStreamPoint& p : sorted) {
    if (p.gbs.median <= 0 || p.gbs.median < share * best) break;
    best = std::max(best, p.gbs.median);
    sustained = p.streams;
  }
  return sustained;
}

}  // namespace ridge::probe::detail

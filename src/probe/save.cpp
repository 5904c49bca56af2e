// `ridge probe --save`: the measured capacities, peaks and plateaus into the per-machine file
// that Machine::detect() reads back (src/machine/measured_file.hpp).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <stdexcept>

#include "machine/measured_file.hpp"
#include "probe/thread_keys.hpp"
#include "ridge/probe.hpp"

namespace ridge::probe {

namespace {

// Whole 4 KiB pages: a step's position on the curves is not known better than that.
double whole_pages(std::int64_t bytes) { return static_cast<double>(bytes / 4096 * 4096); }

// f32 lanes of the vector ISAs the GEMM kernels run on (generic: SSE2 or ASIMD); 0 for the
// probe's other loops (scalar, sse).
int f32_lanes(const std::string& isa) {
  if (isa == "avx512") return 16;
  if (isa == "avx2") return 8;
  return isa == "generic" ? 4 : 0;
}

}  // namespace

std::string save(const Report& r) {
  ridge::machine::MeasuredValues values;
  for (const CacheEstimate& c : r.caches) {
    values["cache.l" + std::to_string(c.level) + ".reported_bytes"] = static_cast<double>(c.reported_bytes);
    // The latency step is the capacity; the bandwidth step stands in where latency found none.
    const std::int64_t measured = c.from_latency_bytes > 0 ? c.from_latency_bytes : c.from_bandwidth_bytes;
    if (measured > 0) values[ridge::machine::measured_cache_key(c.level)] = whole_pages(measured);
    if (c.from_bandwidth_bytes > 0)
      values[ridge::machine::streaming_cache_key(c.level)] = whole_pages(c.from_bandwidth_bytes);
  }
  if (r.clock_ghz.samples > 0) values["clock_ghz"] = r.clock_ghz.median;
  // The FMA pipes of each kernel ISA: its f32 rate (the better of the two chain counts) over
  // clock x lanes x 2 FLOP.
  for (const PeakResult& p : r.peaks) {
    const int lanes = f32_lanes(p.isa);
    const double gflops = std::max(p.one_thread.median, p.one_thread_more.median);
    if (lanes > 0 && p.type == "f32" && gflops > 0 && r.clock_ghz.median > 0)
      values[ridge::machine::fma_per_cycle_key(p.isa)] = gflops / (r.clock_ghz.median * lanes * 2);
  }
  if (r.sustained_page_streams > 0)
    values[ridge::machine::kPageStreamsKey] = r.sustained_page_streams;
  if (r.kept_page_streams > 0) values[ridge::machine::kKeptPageStreamsKey] = r.kept_page_streams;
  for (const char* type : {"f64", "f32", "bf16", "int8"})
    for (bool all : {false, true})
      if (const double best = best_peak(r, type, all); best > 0)
        values[ridge::machine::peak_key(type, all ? "all" : "1")] = best;
  for (const BandwidthPlateau& p : r.plateaus)
    for (const std::string& threads : detail::thread_keys(p.threads, r.machine.logical_cpus))
      values[ridge::machine::bandwidth_key(p.kernel, p.level, threads)] = p.gbs;

  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32] = {};
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  const std::string path = measured_machine_path(r.machine);
  const std::string comment = std::string("ridge probe") + (r.quick ? " --quick" : "") + " --save, " +
                              stamp + ", " + r.machine.model_name + ", " +
                              std::to_string(r.machine.logical_cpus) + " cpus";
  if (!ridge::machine::write_measured_file(path, values, comment,
                                           ridge::machine::cpu_identity(r.machine)))
    throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace ridge::probe

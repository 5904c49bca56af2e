// Measurements of what this machine really delivers (the ceilings results are held against):
// peak compute, bandwidth per memory level, load latency, coherence and memory-ordering costs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ridge/export.hpp"
#include "ridge/isa.hpp"
#include "ridge/machine.hpp"

namespace ridge::probe {

enum class FmaType { f32, f64 };

// Sustained multiply-add rate of `isa`'s vector FMA on `threads` threads (one pinned per CPU of
// the affinity mask), in GFLOP/s (2 FLOP per lane per FMA): many independent accumulator chains,
// median of repeated timed runs. Throws std::invalid_argument for an ISA the CPU lacks.
RIDGE_API double fma_peak_gflops(FmaType type, int threads, Isa isa);

// One measured figure: the median of the timed runs (the first run is always discarded), their
// spread (max - min) / median, and whether that spread says the machine was noisy.
struct Figure {
  double median = 0;
  double spread = 0;
  int samples = 0;
  bool noisy = false;
};
// Spread above which a figure is flagged noisy.
inline constexpr double kNoisySpread = 0.10;

// Sustained read rate over `threads` threads (one pinned per CPU of the affinity mask) in GB/s:
// the probe's read kernel, on the ISA the probe's bandwidth sweep would pick, each thread summing
// its own buffer of `bytes_per_thread` again and again, timed as the sweep times it. With all
// threads' buffers far beyond the last-level cache (STREAM's rule: at least 4 x its size) this
// is the DRAM read bandwidth that bandwidth-bound kernels are held against. Throws
// std::invalid_argument for threads < 1 or a buffer below 512 bytes.
RIDGE_API Figure read_bandwidth(int threads, std::int64_t bytes_per_thread);

struct PeakResult {
  std::string isa;   // "scalar", "sse", "generic" (the portable traits), "avx2", "avx512"
  std::string type;  // "f64", "f32", "bf16", "int8" (int8 in GOP/s)
  int chains = 0;    // independent accumulators
  Figure one_thread;
  Figure all_threads;
  int more_chains = 0;         // the check: the same loop with more accumulators
  Figure one_thread_more;      // about equal to one_thread when `chains` hides the latency
};

struct BandwidthPoint {
  std::string kernel;  // "read", "write", "write_nt", "copy", "triad"
  int threads = 1;
  std::int64_t sweep_bytes = 0;       // the sweep's working-set size per thread
  std::int64_t bytes_per_thread = 0;  // what the kernel touches of it: all its arrays, each a
                                      // whole number of 512-byte blocks
  Figure gbs;                         // GB/s over all threads, bytes the kernel asks for
};

struct BandwidthPlateau {
  std::string kernel;
  std::string level;  // "l1", "l2", "l3", "dram"
  int threads = 1;
  double gbs = 0;
  int points = 0;  // curve points inside the level
  bool noisy = false;
};

// One core reading `streams` columns of a matrix at once, each a page or more from the next, a
// line of each in turn (the direct GEMM path's pattern on a skinny product).
struct PageStreamPoint {
  int streams = 0;
  Figure gbs;
};

struct LatencyPoint {
  std::int64_t bytes = 0;
  bool huge_pages = false;  // madvise(MADV_HUGEPAGE) asked for, else MADV_NOHUGEPAGE
  double huge_page_fraction = 0;  // of the buffer the kernel actually backed with 2 MiB pages
  Figure ns;                // per dependent load
};

// A cache level's reported size against the capacity found from the measured curves.
struct CacheEstimate {
  int level = 0;
  std::int64_t reported_bytes = 0;
  std::int64_t from_latency_bytes = 0;    // 0: no step found
  std::int64_t from_bandwidth_bytes = 0;  // 0: no step found
  double latency_ns = 0;                  // the plateau inside the level
};

struct AtomicCost {
  std::string operation;  // "fetch_add relaxed", "fetch_add seq_cst", "fence seq_cst"
  Figure uncontended_ns;  // one thread
  Figure contended_ns;    // all threads on one counter; samples == 0 when one CPU only
};

struct CoherenceResult {
  std::vector<int> cpus;
  // [i][j]: round trip of one cache line between cpus[i] and cpus[j]; diagonal samples == 0.
  std::vector<std::vector<Figure>> core_to_core_ns;
  int false_sharing_threads = 0;
  Figure same_line_ns;  // per increment, counters in one cache line
  Figure padded_ns;     // per increment, counters on separate lines
  std::vector<AtomicCost> atomics;
};

struct Options {
  bool quick = false;
  bool peaks = true;
  bool bandwidth = true;
  bool latency = true;
  bool coherence = true;
  // Called with a short line as each part starts (the CLI writes it to stderr).
  std::function<void(const std::string&)> progress;
};

struct Report {
  Machine machine;
  bool quick = false;
  double seconds = 0;
  Figure clock_ghz;  // from a dependent integer-add chain (one add per cycle)
  std::vector<PeakResult> peaks;
  std::string bandwidth_isa;  // whose kernels the sweep ran: the fastest, not always the widest
  std::vector<BandwidthPoint> bandwidth;
  std::vector<BandwidthPlateau> plateaus;
  // The read rate against the number of page-strided streams, the most streams read at nearly
  // the best rate and the most read at seven tenths of it (0: not measured); part of the
  // bandwidth step.
  std::vector<PageStreamPoint> page_streams;
  int sustained_page_streams = 0;
  int kept_page_streams = 0;
  // The curve (2 MiB pages where the OS grants them, so that TLB misses do not blur the cache
  // steps), then the same sizes at a few points with 4 KiB pages.
  std::vector<LatencyPoint> latency;
  std::vector<CacheEstimate> caches;
  CoherenceResult coherence;
  bool coherence_measured = false;
  // What could not be measured here, and figures whose spread says the machine was noisy.
  std::vector<std::string> notes;
};

// Runs the probe; takes seconds (quick) to minutes. Prints nothing.
RIDGE_API Report run(const Options& options);

// The report as JSON: machine, peak_gflops.<type>.<threads>, bandwidth_gbs.<kernel>.<level>.
// <threads>, page_streams [{streams, gbs}] and sustained_page_streams, latency_ns [{bytes, ns}],
// core_to_core_ns (matrix, null on the diagonal), plus the detail behind them. <threads> is "1" for
// one thread and "all" for every CPU of the affinity mask (a thread count in between, which only
// the full probe measures on more than two CPUs, is its number). Absent figures are omitted, never
// zero.
RIDGE_API std::string to_json(const Report& report);

// Best figure over the ISAs for `type` ("f64", "f32", "bf16", "int8") on one or all threads;
// 0 when not measured.
RIDGE_API double best_peak(const Report& report, const std::string& type, bool all_threads);

// Writes the measured capacities, peaks and bandwidth plateaus to the per-machine file that
// Machine::detect() reads (measured_machine_path()); returns that path. Throws
// std::runtime_error when it cannot be written.
RIDGE_API std::string save(const Report& report);

}  // namespace ridge::probe

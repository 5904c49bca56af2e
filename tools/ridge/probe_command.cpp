// `ridge probe`: what this machine really delivers, measured: a table on stdout (or JSON), progress
// on stderr, and with --save the per-machine file that ridge::Machine reads.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>

#include "commands.hpp"
#include "ridge/probe.hpp"
#include "timing.hpp"

namespace ridge::cli {
namespace {

struct ProbeOptions {
  bool quick = false;
  bool json = false;
  bool save = false;
  std::vector<std::string> only;
};

std::string size_text(std::int64_t bytes) {
  char text[32];
  if (bytes >= (std::int64_t{1} << 30) && bytes % (std::int64_t{1} << 30) == 0)
    std::snprintf(text, sizeof(text), "%lld GiB", static_cast<long long>(bytes >> 30));
  else if (bytes >= (1 << 20))
    std::snprintf(text, sizeof(text), "%.4g MiB", static_cast<double>(bytes) / (1 << 20));
  else
    std::snprintf(text, sizeof(text), "%.4g KiB", static_cast<double>(bytes) / 1024);
  return text;
}

// "117.2 (1%)", with a '!' when the runs disagreed more than kNoisySpread.
std::string figure_text(const probe::Figure& f, int precision = 1) {
  if (f.samples == 0) return "-";
  char text[48];
  std::snprintf(text, sizeof(text), "%.*f (%.0f%%)%s", precision, f.median, 100 * f.spread,
                f.noisy ? "!" : "");
  return text;
}

void print_peaks(const probe::Report& r) {
  const int cpus = r.machine.logical_cpus;
  std::printf("\nPeak compute, GFLOP/s (int8: GOP/s); median (spread) of runs, ! = noisy\n");
  std::printf("%-8s %-5s %6s %16s %16s %6s %16s\n", "isa", "type", "chains", "1 thread",
              "more chains", "gain", ("all " + std::to_string(cpus) + " threads").c_str());
  for (const probe::PeakResult& p : r.peaks) {
    const double gain = p.one_thread.median > 0 ? p.one_thread_more.median / p.one_thread.median - 1 : 0;
    std::printf("%-8s %-5s %6d %16s %12s (%2d) %+5.1f%% %16s\n", p.isa.c_str(), p.type.c_str(), p.chains,
                figure_text(p.one_thread).c_str(), figure_text(p.one_thread_more).c_str(), p.more_chains,
                100 * gain, figure_text(p.all_threads).c_str());
  }
  std::printf("  'more chains': the same loop with more independent accumulators; a gain near 0 "
              "means the chain count already hides the instruction latency.\n");
  std::printf("  scalar, sse and generic (ridge's portable vector traits as compiled) have no fused "
              "multiply-add: each step is a multiply and an add, 2 FLOP.\n");
  std::printf("best:");
  for (const char* type : {"f64", "f32", "bf16", "int8"}) {
    const double one = probe::best_peak(r, type, false), all = probe::best_peak(r, type, true);
    if (one > 0) std::printf("  %s %.1f / %.1f", type, one, all);
  }
  std::printf("  (1 thread / all)\n");
}

void print_bandwidth(const probe::Report& r) {
  std::printf("\nBandwidth, GB/s of bytes the kernel asks for (read/write n x 8 B, copy 2n x 8, "
              "triad 3n x 8, as STREAM counts);\n  the extra line read of write-allocate is not "
              "counted, so write/copy/triad move more than shown; write_nt has none.\n");
  std::printf("Kernels: %s (the faster of the candidates on the triad, in L1 and from DRAM)\n",
              r.bandwidth_isa.c_str());
  std::printf("Plateau per level (median of the points well inside it):\n");
  std::printf("%-9s %7s %9s %9s %9s %9s\n", "kernel", "threads", "L1", "L2", "L3", "DRAM");
  std::map<std::pair<std::string, int>, std::map<std::string, const probe::BandwidthPlateau*>> rows;
  std::vector<std::pair<std::string, int>> order;
  for (const probe::BandwidthPlateau& p : r.plateaus) {
    const auto key = std::pair{p.kernel, p.threads};
    if (!rows.count(key)) order.push_back(key);
    rows[key][p.level] = &p;
  }
  for (const auto& key : order) {
    std::printf("%-9s %7d", key.first.c_str(), key.second);
    for (const char* level : {"l1", "l2", "l3", "dram"}) {
      const auto found = rows[key].find(level);
      if (found == rows[key].end()) {
        std::printf(" %9s", "-");
      } else {
        std::printf(" %8.1f%s", found->second->gbs, found->second->noisy ? "!" : " ");
      }
    }
    std::printf("\n");
  }
  // The curve: one row per sweep size, one column per (kernel, threads).
  std::vector<std::pair<std::string, int>> series;
  std::map<std::int64_t, std::map<std::pair<std::string, int>, double>> curve;
  for (const probe::BandwidthPoint& p : r.bandwidth) {
    const auto key = std::pair{p.kernel, p.threads};
    if (std::find(series.begin(), series.end(), key) == series.end()) series.push_back(key);
    curve[p.sweep_bytes][key] = p.gbs.median;
  }
  std::printf("Curve (working set per thread; columns kernel x threads):\n%-10s", "size");
  for (const auto& [kernel, threads] : series)
    std::printf(" %9.9s", (kernel + "x" + std::to_string(threads)).c_str());
  std::printf("\n");
  for (const auto& [size, values] : curve) {
    std::printf("%-10s", size_text(size).c_str());
    for (const auto& key : series) {
      const auto found = values.find(key);
      if (found == values.end()) {
        std::printf(" %9s", "-");
      } else {
        std::printf(" %9.1f", found->second);
      }
    }
    std::printf("\n");
  }
  if (r.page_streams.empty()) return;
  std::printf(
      "Page-strided streams (one thread reading a 64 MiB matrix of 16 KiB columns, a line "
      "of each of N columns in turn), GB/s:\n ");
  for (const probe::PageStreamPoint& p : r.page_streams)
    std::printf(" %d: %.1f%s", p.streams, p.gbs.median, p.gbs.noisy ? "!" : "");
  std::printf(
      "\n  read at full rate (within a tenth of the best): up to %d streams; at seven tenths "
      "of it: up to %d\n",
      r.sustained_page_streams, r.kept_page_streams);
}

void print_latency(const probe::Report& r) {
  const double ghz = r.clock_ghz.median;
  std::printf("\nLatency of a dependent load (random cyclic chase over cache lines; 2 MiB pages "
              "where granted, so TLB misses do not blur the cache steps)\n");
  std::printf("%-10s %18s %8s %11s\n", "size", "ns (spread)", "cycles", "huge pages");
  for (const probe::LatencyPoint& l : r.latency)
    if (l.huge_pages)
      std::printf("%-10s %18s %8.1f %10.0f%%\n", size_text(l.bytes).c_str(), figure_text(l.ns, 2).c_str(),
                  l.ns.median * ghz, 100 * l.huge_page_fraction);
  bool any = false;
  for (const probe::LatencyPoint& small : r.latency) {
    if (small.huge_pages) continue;
    if (!any) std::printf("4 KiB pages (MADV_NOHUGEPAGE) against the curve: the cost of TLB misses\n");
    any = true;
    double huge = 0;
    for (const probe::LatencyPoint& l : r.latency)
      if (l.huge_pages && l.bytes == small.bytes) huge = l.ns.median;
    std::printf("%-10s 4 KiB pages %7.1f ns   2 MiB pages %7.1f ns\n", size_text(small.bytes).c_str(),
                small.ns.median, huge);
  }
}

void print_caches(const probe::Report& r) {
  std::printf("\nCache capacities: reported by the CPU vs where the measured curves step up\n");
  std::printf("%-5s %12s %14s %16s %14s\n", "level", "reported", "from latency", "from bandwidth",
              "latency there");
  for (const probe::CacheEstimate& c : r.caches) {
    std::printf("L%-4d %12s %14s %16s", c.level, size_text(c.reported_bytes).c_str(),
                c.from_latency_bytes ? size_text(c.from_latency_bytes).c_str() : "-",
                c.from_bandwidth_bytes ? size_text(c.from_bandwidth_bytes).c_str() : "-");
    if (c.latency_ns > 0) std::printf(" %8.2f ns", c.latency_ns);
    std::printf("\n");
  }
  std::printf("  a step is placed where the curve has risen a fifth of the way to the next plateau.\n");
}

void print_coherence(const probe::Report& r) {
  const probe::CoherenceResult& c = r.coherence;
  std::printf("\nCore-to-core round trip of one cache line (compare-exchange ping-pong), ns\n%6s", "cpu");
  for (int cpu : c.cpus) std::printf(" %14d", cpu);
  std::printf("\n");
  for (std::size_t i = 0; i < c.cpus.size(); ++i) {
    std::printf("%6d", c.cpus[i]);
    for (std::size_t j = 0; j < c.cpus.size(); ++j) std::printf(" %14s", figure_text(c.core_to_core_ns[i][j]).c_str());
    std::printf("\n");
  }
  std::printf("  means: the least time any hand-off between two threads on these cores can take "
              "(a lock, a queue, a work-stealing steal).\n");
  const double slowdown = c.padded_ns.median > 0 ? c.same_line_ns.median / c.padded_ns.median : 0;
  std::printf("\nFalse sharing, %d threads each incrementing its own counter: same line %s ns, "
              "padded %s ns per increment: %.1fx slower\n",
              c.false_sharing_threads, figure_text(c.same_line_ns, 2).c_str(),
              figure_text(c.padded_ns, 2).c_str(), slowdown);
  std::printf("  means: data of different threads that merely shares a 64-byte line costs this "
              "factor; pad per-thread data to separate lines.\n");
  std::printf("\nAtomics, ns per operation: one thread alone vs all %d threads on one counter\n",
              r.machine.logical_cpus);
  std::printf("%-18s %16s %16s\n", "operation", "uncontended", "contended");
  for (const probe::AtomicCost& a : c.atomics)
    std::printf("%-18s %16s %16s\n", a.operation.c_str(), figure_text(a.uncontended_ns, 2).c_str(),
                figure_text(a.contended_ns, 2).c_str());
  if (c.atomics.size() == 3) {
    const probe::AtomicCost &relaxed = c.atomics[0], &seq_cst = c.atomics[1], &fence = c.atomics[2];
    const double order_cost = seq_cst.uncontended_ns.median / relaxed.uncontended_ns.median;
    // Equal within what the runs themselves disagree by (at least 5%).
    const double noise = std::max({0.05, relaxed.uncontended_ns.spread, seq_cst.uncontended_ns.spread});
    std::printf("  seq_cst / relaxed increment = %.2fx: %s\n", order_cost,
                std::abs(order_cost - 1) <= noise
                    ? "the memory order is free here (x86 executes every atomic read-modify-write "
                      "as a locked, fully ordered instruction; weakly ordered CPUs such as ARM can differ)"
                    : "asking for sequential consistency costs extra on this CPU");
    std::printf("  contended / uncontended increment = %.1fx: the counter's line moves between cores "
                "on every operation, so a shared counter does not scale.\n",
                relaxed.contended_ns.median / relaxed.uncontended_ns.median);
    std::printf("  a full fence costs %.1f ns with nothing to order: it drains this core's store "
                "buffer, which no other core's activity changes (contended %.1f ns).\n",
                fence.uncontended_ns.median, fence.contended_ns.median);
  }
}

void print_report(const probe::Report& r) {
  std::printf("ridge probe%s: %s, %d cpu%s, core clock %s GHz (dependent adds), took %.1f s\n",
              r.quick ? " --quick" : "", r.machine.model_name.c_str(), r.machine.logical_cpus,
              r.machine.logical_cpus == 1 ? "" : "s", figure_text(r.clock_ghz, 2).c_str(), r.seconds);
  if (!r.peaks.empty()) print_peaks(r);
  if (!r.bandwidth.empty()) print_bandwidth(r);
  if (!r.latency.empty()) print_latency(r);
  if (!r.latency.empty() || !r.bandwidth.empty()) print_caches(r);
  if (r.coherence_measured) print_coherence(r);
  if (!r.notes.empty()) {
    std::printf("\nNotes\n");
    for (const std::string& note : r.notes) std::printf("  - %s\n", note.c_str());
  }
}

}  // namespace

void add_probe_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("probe", "Measure peak compute, bandwidth, latency and coherence costs");
  static ProbeOptions o;
  cmd->add_flag("--quick", o.quick, "Fewer, shorter runs and smaller sweeps (about 30 s)");
  cmd->add_flag("--json", o.json, "Print the report as JSON");
  cmd->add_flag("--save", o.save, "Save measured capacities, peaks and bandwidths for ridge::Machine");
  cmd->add_option("--only", o.only, "Run only these parts: peaks, bandwidth, latency, coherence")
      ->delimiter(',')
      ->check(CLI::IsMember({"peaks", "bandwidth", "latency", "coherence"}));
  cmd->callback([] {
    probe::Options options;
    options.quick = o.quick;
    if (!o.only.empty()) {
      auto wanted = [&](const char* part) { return std::find(o.only.begin(), o.only.end(), part) != o.only.end(); };
      options.peaks = wanted("peaks");
      options.bandwidth = wanted("bandwidth");
      options.latency = wanted("latency");
      options.coherence = wanted("coherence");
    }
    const double start = now_seconds();
    options.progress = [start](const std::string& what) {
      std::fprintf(stderr, "[%5.1f s] %s\n", now_seconds() - start, what.c_str());
    };
    const probe::Report report = probe::run(options);
    if (o.json) {
      std::cout << probe::to_json(report);
    } else {
      print_report(report);
    }
    if (o.save) std::fprintf(stderr, "saved to %s\n", probe::save(report).c_str());
  });
}

}  // namespace ridge::cli

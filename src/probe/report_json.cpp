// The probe report as JSON (written by hand: the library depends on no JSON package).
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

#include "probe/thread_keys.hpp"
#include "ridge/probe.hpp"

namespace ridge::probe {
namespace {

std::string number(double x) {
  if (!std::isfinite(x)) return "null";
  std::ostringstream out;
  out << std::setprecision(6) << x;
  return out.str();
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + '"';
}

std::string figure(const Figure& f) {
  return "{\"median\": " + number(f.median) + ", \"spread\": " + number(f.spread) +
         ", \"samples\": " + std::to_string(f.samples) + ", \"noisy\": " + (f.noisy ? "true" : "false") + "}";
}

// Nested string-keyed objects with numbers at the leaves, written in key order.
struct JsonTree {
  std::map<std::string, JsonTree> children;
  double value = 0;
  bool leaf = false;
  JsonTree& operator[](const std::string& key) { return children[key]; }
  void set(double v) {
    value = v;
    leaf = true;
  }
  std::string text() const {
    if (leaf) return number(value);
    std::string out = "{";
    for (const auto& [key, child] : children) out += (out.size() > 1 ? ", " : "") + quoted(key) + ": " + child.text();
    return out + "}";
  }
};

}  // namespace

std::string to_json(const Report& r) {
  std::ostringstream out;
  out << "{\"machine\": " << to_json(r.machine) << ",\n\"quick\": " << (r.quick ? "true" : "false")
      << ", \"seconds\": " << number(r.seconds) << ",\n\"clock_ghz\": " << number(r.clock_ghz.median)
      << ", \"clock\": " << figure(r.clock_ghz);

  JsonTree peak;
  for (const char* type : {"f64", "f32", "bf16", "int8"})
    for (bool all : {false, true})
      if (const double best = best_peak(r, type, all); best > 0) peak[type][all ? "all" : "1"].set(best);
  out << ",\n\"peak_gflops\": " << peak.text() << ",\n\"peaks\": [";
  for (std::size_t i = 0; i < r.peaks.size(); ++i) {
    const PeakResult& p = r.peaks[i];
    out << (i ? ",\n  " : "\n  ") << "{\"isa\": " << quoted(p.isa) << ", \"type\": " << quoted(p.type)
        << ", \"chains\": " << p.chains << ", \"one_thread\": " << figure(p.one_thread);
    if (p.all_threads.samples > 0) out << ", \"all_threads\": " << figure(p.all_threads);
    out << ", \"more_chains\": " << p.more_chains << ", \"one_thread_more\": " << figure(p.one_thread_more) << '}';
  }
  out << "]";

  JsonTree bandwidth;
  for (const BandwidthPlateau& p : r.plateaus)
    for (const std::string& key : detail::thread_keys(p.threads, r.machine.logical_cpus))
      bandwidth[p.kernel][p.level][key].set(p.gbs);
  out << ",\n\"bandwidth_gbs\": " << bandwidth.text();
  if (!r.bandwidth_isa.empty()) out << ",\n\"bandwidth_isa\": " << quoted(r.bandwidth_isa);
  out << ",\n\"bandwidth_curve\": [";
  for (std::size_t i = 0; i < r.bandwidth.size(); ++i) {
    const BandwidthPoint& b = r.bandwidth[i];
    out << (i ? ",\n  " : "\n  ") << "{\"kernel\": " << quoted(b.kernel) << ", \"threads\": " << b.threads
        << ", \"sweep_bytes\": " << b.sweep_bytes << ", \"bytes_per_thread\": " << b.bytes_per_thread << ", \"gbs\": " << figure(b.gbs) << '}';
  }
  out << "]";

  if (!r.page_streams.empty()) {
    out << ",\n\"page_streams\": [";
    for (std::size_t i = 0; i < r.page_streams.size(); ++i)
      out << (i ? ", " : "") << "{\"streams\": " << r.page_streams[i].streams
          << ", \"gbs\": " << figure(r.page_streams[i].gbs) << '}';
    out << "],\n\"sustained_page_streams\": " << r.sustained_page_streams
        << ",\n\"kept_page_streams\": " << r.kept_page_streams;
  }

  out << ",\n\"latency_ns\": [";
  bool first = true;
  for (const LatencyPoint& l : r.latency) {
    if (!l.huge_pages) continue;  // the curve; the 4 KiB-page points are in latency_curve
    out << (first ? "" : ", ") << "{\"bytes\": " << l.bytes << ", \"ns\": " << number(l.ns.median) << '}';
    first = false;
  }
  out << "],\n\"latency_curve\": [";
  for (std::size_t i = 0; i < r.latency.size(); ++i) {
    const LatencyPoint& l = r.latency[i];
    out << (i ? ",\n  " : "\n  ") << "{\"bytes\": " << l.bytes << ", \"huge_pages\": " << (l.huge_pages ? "true" : "false")
        << ", \"huge_page_fraction\": " << number(l.huge_page_fraction) << ", \"ns\": " << figure(l.ns)
        << ", \"cycles\": " << number(l.ns.median * r.clock_ghz.median) << '}';
  }
  out << "],\n\"caches\": [";
  for (std::size_t i = 0; i < r.caches.size(); ++i) {
    const CacheEstimate& c = r.caches[i];
    out << (i ? ", " : "") << "{\"level\": " << c.level << ", \"reported_bytes\": " << c.reported_bytes;
    if (c.from_latency_bytes > 0)
      out << ", \"from_latency_bytes\": " << c.from_latency_bytes << ", \"latency_ns\": " << number(c.latency_ns);
    if (c.from_bandwidth_bytes > 0) out << ", \"from_bandwidth_bytes\": " << c.from_bandwidth_bytes;
    out << '}';
  }
  out << ']';

  if (r.coherence_measured) {
    const CoherenceResult& c = r.coherence;
    out << ",\n\"core_to_core_cpus\": [";
    for (std::size_t i = 0; i < c.cpus.size(); ++i) out << (i ? ", " : "") << c.cpus[i];
    out << "],\n\"core_to_core_ns\": [";
    for (std::size_t i = 0; i < c.core_to_core_ns.size(); ++i) {
      out << (i ? ", " : "") << '[';
      for (std::size_t j = 0; j < c.core_to_core_ns[i].size(); ++j) {
        const Figure& f = c.core_to_core_ns[i][j];
        out << (j ? ", " : "") << (f.samples > 0 ? number(f.median) : "null");
      }
      out << ']';
    }
    out << "],\n\"false_sharing\": {\"threads\": " << c.false_sharing_threads
        << ", \"same_line_ns\": " << figure(c.same_line_ns) << ", \"padded_ns\": " << figure(c.padded_ns) << "}";
    out << ",\n\"atomics\": [";
    for (std::size_t i = 0; i < c.atomics.size(); ++i) {
      const AtomicCost& a = c.atomics[i];
      out << (i ? ", " : "") << "{\"operation\": " << quoted(a.operation)
          << ", \"uncontended_ns\": " << figure(a.uncontended_ns);
      if (a.contended_ns.samples > 0) out << ", \"contended_ns\": " << figure(a.contended_ns);
      out << '}';
    }
    out << ']';
  }
  out << ",\n\"notes\": [";
  for (std::size_t i = 0; i < r.notes.size(); ++i) out << (i ? ", " : "") << quoted(r.notes[i]);
  out << "]}\n";
  return out.str();
}

}  // namespace ridge::probe

// ridge::Machine: combines the detectors, fills gaps with stated assumptions, prints the result.
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "machine/detectors.hpp"
#include "machine/measured_file.hpp"

namespace ridge {

std::int64_t CacheLevel::sets() const {
  if (line_bytes <= 0 || associativity <= 0) return 1;
  return std::max<std::int64_t>(1, size_bytes / (static_cast<std::int64_t>(line_bytes) * associativity));
}

CacheLevel Machine::data_cache(int level) const {
  for (const CacheLevel& c : caches)
    if (c.level == level && c.kind != CacheKind::instruction) return c;
  return CacheLevel{};
}

namespace machine {

std::vector<int> affinity_cpus() {
  std::vector<int> ids;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) ids.push_back(cpu);
  }
  if (ids.empty()) ids.push_back(0);
  return ids;
}

namespace {

// Typical values of current x86 and ARM server cores, used only when neither CPUID nor sysfs
// describes a level; Machine::cache_source then says "assumed".
void fill_missing_caches(Machine& m) {
  const CacheLevel defaults[] = {
      {1, CacheKind::data, 32 << 10, 64, 8, 1},
      {2, CacheKind::unified, 1 << 20, 64, 8, 1},
      {3, CacheKind::unified, 8 << 20, 64, 16, m.logical_cpus},
  };
  for (const CacheLevel& d : defaults) {
    if (m.data_cache(d.level).size_bytes > 0) continue;
    m.caches.push_back(d);
    m.cache_source += m.cache_source.empty() ? "assumed" : "+assumed";
  }
  for (CacheLevel& c : m.caches) {
    if (c.line_bytes <= 0) c.line_bytes = 64;
    if (c.associativity == 0) c.associativity = 8;
  }
  std::sort(m.caches.begin(), m.caches.end(),
            [](const CacheLevel& a, const CacheLevel& b) { return a.level < b.level; });
}

}  // namespace
}  // namespace machine

Machine Machine::detect() {
  Machine m;
  if (!machine::detect_x86(m) && !machine::detect_arm(m)) m.arch = "unknown";
  m.cpu_ids = machine::affinity_cpus();
  m.logical_cpus = static_cast<int>(m.cpu_ids.size());
  if (m.data_cache(1).size_bytes == 0 || m.data_cache(2).size_bytes == 0) {
    std::vector<CacheLevel> sysfs = machine::read_sysfs_caches();
    if (!sysfs.empty()) {
      m.caches = std::move(sysfs);
      m.cache_source = "sysfs";
    }
  }
  machine::fill_missing_caches(m);
  const std::string measured = measured_machine_path(m);
  const machine::MeasuredFile file =
      machine::read_measured_file(measured, machine::cpu_identity(m));
  m.measured_ignored = file.ignored;
  if (!file.values.empty()) {
    Machine with = m;
    machine::apply_measured(with, file.values);
    const bool tuning_valid = std::ranges::all_of(
        with.gemm_tuning, [](const auto& entry) { return entry.second.valid(); });
    if (tuning_valid) {
      m = std::move(with);
      m.measured_source = measured;
    } else {
      m.measured_ignored = "a tuning value out of range";
    }
  }
  return m;
}

const Machine& Machine::current() {
  static const Machine machine = [] {
    Machine m = detect();
    // The one message of a file that exists but cannot be trusted (stderr, once a process).
    if (!m.measured_ignored.empty())
      std::fprintf(stderr, "ridge: ignoring %s: %s; `ridge probe --save` writes it anew\n",
                   measured_machine_path(m).c_str(), m.measured_ignored.c_str());
    return m;
  }();
  return machine;
}

namespace {

std::string fixed_decimals(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

std::string one_decimal(double value) { return fixed_decimals(value, 1); }

std::string bytes_text(std::int64_t bytes) {
  std::ostringstream out;
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) {
    out << (bytes >> 20) << " MiB";
  } else if (bytes >= 1024 && bytes % 1024 == 0) {
    out << (bytes >> 10) << " KiB";
  } else {
    out << bytes << " B";
  }
  return out.str();
}

const char* kind_text(CacheKind kind) {
  switch (kind) {
    case CacheKind::data: return "data";
    case CacheKind::instruction: return "instruction";
    case CacheKind::unified: return "unified";
  }
  return "unified";
}

std::vector<std::pair<const char*, bool>> feature_list(const IsaFeatures& f) {
  return {{"sse4.2", f.sse42},       {"avx", f.avx},
          {"avx2", f.avx2},          {"fma", f.fma},
          {"avx512f", f.avx512f},    {"avx512bw", f.avx512bw},
          {"avx512dq", f.avx512dq},  {"avx512vl", f.avx512vl},
          {"avx512_bf16", f.avx512_bf16}, {"avx512_vnni", f.avx512_vnni},
          {"avx_vnni", f.avx_vnni},
          {"amx_tile", f.amx_tile},  {"amx_bf16", f.amx_bf16},
          {"amx_int8", f.amx_int8},  {"asimd", f.asimd},
          {"sve", f.sve},            {"bf16", f.bf16},
          {"i8mm", f.i8mm}};
}

std::string json_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out;
}

}  // namespace

std::string tuning_text(const GemmTuning& t) {
  const auto field = [](std::int64_t value) {
    return value == 0 ? std::string("model") : std::to_string(value);
  };
  return "a_level " + field(t.a_level) + ", slab_depth " + field(t.slab_depth) +
         ", skinny_depth " + field(t.skinny_depth) + ", tall_a_path " +
         (t.tall_a_path == 0 ? "model" : t.tall_a_path == 1 ? "direct" : "packed") +
         ", b_l1_ways " + field(t.b_l1_ways) + ", stream_prefetch " +
         (t.stream_prefetch == 0 ? "model" : t.stream_prefetch == 1 ? "software" : "hardware") +
         ", bf16_a_level " + field(t.bf16_a_level) + ", bf16_b_l1_ways " +
         field(t.bf16_b_l1_ways) + ", int8_a_level " + field(t.int8_a_level) +
         ", int8_b_l1_ways " + field(t.int8_b_l1_ways);
}

std::string describe(const Machine& m) {
  std::ostringstream out;
  out << "cpu       " << m.model_name << " (" << m.vendor << ", " << m.arch << ")\n";
  out << "cpus      " << m.logical_cpus << " in affinity mask:";
  for (int id : m.cpu_ids) out << ' ' << id;
  out << "\nisa      ";
  for (const auto& [name, present] : feature_list(m.isa))
    if (present) out << ' ' << name;
  out << "\nos saves  ymm " << (m.isa.os_saves_ymm ? "yes" : "no") << ", zmm "
      << (m.isa.os_saves_zmm ? "yes" : "no") << ", amx " << (m.isa.os_saves_amx ? "yes" : "no");
  out << "\ncaches    (from " << m.cache_source << ")\n";
  for (const CacheLevel& c : m.caches) {
    out << "  L" << c.level << ' ' << kind_text(c.kind) << ": " << bytes_text(c.size_bytes) << ", "
        << c.line_bytes << " B lines, ";
    if (c.associativity < 0) {
      out << "fully associative";
    } else {
      out << c.associativity << "-way, " << c.sets() << " sets";
    }
    out << ", shared by " << c.shared_by_cpus << " cpu" << (c.shared_by_cpus == 1 ? "" : "s");
    if (c.measured_bytes > 0) out << "; measured " << bytes_text(c.measured_bytes);
    if (c.streaming_bytes > 0) out << ", streaming " << bytes_text(c.streaming_bytes);
    if (c.measured_read_gbs > 0)
      out << ", read " << one_decimal(c.measured_read_gbs) << " GB/s a cpu";
    out << '\n';
  }
  out << "measured  "
      << (m.measured_source.empty() ? "none (run `ridge probe --save`)" : m.measured_source);
  if (!m.measured_ignored.empty()) out << " (ignored a file: " << m.measured_ignored << ")";
  if (m.measured_f32_gflops > 0)
    out << "\n          f32 FMA peak " << one_decimal(m.measured_f32_gflops) << " GFLOP/s a cpu";
  if (!m.measured_fma_per_cycle.empty()) {
    out << "\n          FMAs a cycle:";
    const char* separator = " ";
    for (const auto& [isa, per_cycle] : m.measured_fma_per_cycle) {
      out << separator << isa << ' ' << fixed_decimals(per_cycle, 2);
      separator = ", ";
    }
  }
  if (m.measured_page_streams > 0)
    out << "\n          page-strided streams read at full rate: " << m.measured_page_streams;
  if (m.measured_kept_page_streams > 0)
    out << ", at seven tenths of it: " << m.measured_kept_page_streams;
  for (const auto& [isa, t] : m.gemm_tuning)
    out << "\n          tuned " << isa << ": " << tuning_text(t);
  out << '\n';
  return out.str();
}

std::string to_json(const Machine& m) {
  std::ostringstream out;
  out << "{\"vendor\": \"" << json_escape(m.vendor) << "\", \"model_name\": \""
      << json_escape(m.model_name) << "\", \"arch\": \"" << m.arch
      << "\", \"logical_cpus\": " << m.logical_cpus << ", \"cpu_ids\": [";
  for (std::size_t i = 0; i < m.cpu_ids.size(); ++i) out << (i ? ", " : "") << m.cpu_ids[i];
  out << "], \"isa\": {";
  bool first = true;
  for (const auto& [name, present] : feature_list(m.isa)) {
    out << (first ? "" : ", ") << '"' << name << "\": " << (present ? "true" : "false");
    first = false;
  }
  out << ", \"os_saves_ymm\": " << (m.isa.os_saves_ymm ? "true" : "false")
      << ", \"os_saves_zmm\": " << (m.isa.os_saves_zmm ? "true" : "false")
      << ", \"os_saves_amx\": " << (m.isa.os_saves_amx ? "true" : "false");
  out << "}, \"cache_source\": \"" << m.cache_source << "\", \"caches\": [";
  for (std::size_t i = 0; i < m.caches.size(); ++i) {
    const CacheLevel& c = m.caches[i];
    out << (i ? ", " : "") << "{\"level\": " << c.level << ", \"kind\": \"" << kind_text(c.kind)
        << "\", \"size_bytes\": " << c.size_bytes << ", \"line_bytes\": " << c.line_bytes
        << ", \"associativity\": " << c.associativity << ", \"sets\": " << c.sets()
        << ", \"shared_by_cpus\": " << c.shared_by_cpus;
    if (c.measured_bytes > 0) out << ", \"measured_bytes\": " << c.measured_bytes;
    if (c.streaming_bytes > 0) out << ", \"streaming_bytes\": " << c.streaming_bytes;
    if (c.measured_read_gbs > 0) out << ", \"measured_read_gbs\": " << c.measured_read_gbs;
    out << '}';
  }
  out << "]";
  if (m.measured_f32_gflops > 0) out << ", \"measured_f32_gflops\": " << m.measured_f32_gflops;
  if (!m.measured_fma_per_cycle.empty()) {
    out << ", \"measured_fma_per_cycle\": {";
    const char* separator = "";
    for (const auto& [isa, per_cycle] : m.measured_fma_per_cycle) {
      out << separator << '"' << isa << "\": " << per_cycle;
      separator = ", ";
    }
    out << '}';
  }
  if (m.measured_page_streams > 0)
    out << ", \"measured_page_streams\": " << m.measured_page_streams;
  if (m.measured_kept_page_streams > 0)
    out << ", \"measured_kept_page_streams\": " << m.measured_kept_page_streams;
  out << "}";
  return out.str();
}

}  // namespace ridge

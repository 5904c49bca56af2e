// Reading and writing the per-machine file of measured figures, and where it lives.
#include "machine/measured_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "ridge/version.h"

namespace ridge {

std::string measured_machine_path(const Machine& machine) {
  std::filesystem::path dir;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  if (xdg != nullptr && xdg[0] == '/') {  // the XDG spec ignores relative paths
    dir = xdg;
  } else {
    dir = std::filesystem::path(home != nullptr ? home : ".") / ".cache";
  }
  // The model and CPU count name the machine: another VM size or CPU gets its own file.
  std::string name = machine.vendor + "-" + machine.model_name;
  for (char& c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!keep) c = '_';
  }
  // Appended piece by piece: GCC 12 warns falsely on `"-" + std::string` (-Wrestrict, bug 105329).
  name += '-';
  name += std::to_string(machine.logical_cpus);
  name += "cpu.txt";
  return (dir / "ridge" / name).string();
}

namespace machine {
namespace {

constexpr const char* kVersionTag = "ridge";
constexpr const char* kCpuTag = "cpu";
constexpr const char* kEnd = "end";

// "key number" with nothing after the number; false for anything else.
bool parse_value(const std::string& line, std::string& key, double& value) {
  std::istringstream fields(line);
  std::string rest;
  return static_cast<bool>(fields >> key >> value) && std::isfinite(value) && !(fields >> rest);
}

// The start of a line as text fit for a message: a garbled file may hold anything.
std::string printable(const std::string& line) {
  constexpr std::size_t kShown = 40;
  std::string shown = line.substr(0, kShown);
  for (char& c : shown)
    if (c < 0x20 || c > 0x7e) c = '?';
  return line.size() > kShown ? shown + "..." : shown;
}

}  // namespace

std::string cpu_identity(const Machine& machine) {
  return machine.vendor + " " + machine.model_name + ", " + std::to_string(machine.logical_cpus) +
         " cpus";
}

MeasuredFile read_measured_file(const std::string& path, const std::string& cpu) {
  std::ifstream in(path);
  if (!in) return {};
  MeasuredFile file;
  const auto ignore = [&](const std::string& why) {
    file.values.clear();
    file.ignored = why;
    return file;
  };
  std::string line;
  std::string version, identity;
  bool ended = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (ended) return ignore("text after its end line");
    const std::size_t space = line.find(' ');
    const std::string tag = line.substr(0, space);
    const std::string text = space == std::string::npos ? "" : line.substr(space + 1);
    if (version.empty()) {
      if (tag != kVersionTag || text.empty()) return ignore("no version line: not a ridge file");
      version = text;
      if (version != RIDGE_VERSION_STRING)
        return ignore("written by ridge " + version + ", this is " RIDGE_VERSION_STRING);
    } else if (identity.empty()) {
      if (tag != kCpuTag || text.empty()) return ignore("no cpu line");
      identity = text;
      if (identity != cpu) return ignore("written for " + identity + ", this is " + cpu);
    } else if (line == kEnd) {
      ended = true;
    } else {
      std::string key;
      double value = 0;
      if (!parse_value(line, key, value))
        return ignore("unreadable line '" + printable(line) + "'");
      file.values[key] = value;
    }
  }
  if (!ended) return ignore("truncated (no end line)");
  return file;
}

bool write_measured_file(const std::string& path, const MeasuredValues& values,
                         const std::string& comment, const std::string& cpu) {
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  // Written beside and renamed over the old file, so that a reader never sees half of it.
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial);
    if (!out) return false;
    out << "# " << comment << '\n' << kVersionTag << ' ' << RIDGE_VERSION_STRING << '\n'
        << kCpuTag << ' ' << cpu << '\n';
    for (const auto& [key, value] : values)
      out << key << ' ' << std::setprecision(10) << value << '\n';
    out << kEnd << '\n';
    if (!out.flush()) return false;
  }
  std::filesystem::rename(partial, path, error);
  return !error;
}

std::string measured_cache_key(int level) {
  return "cache.l" + std::to_string(level) + ".measured_bytes";
}

std::string streaming_cache_key(int level) {
  return "cache.l" + std::to_string(level) + ".streaming_bytes";
}

std::string peak_key(const std::string& type, const std::string& threads) {
  return "peak_gflops." + type + "." + threads;
}

std::string fma_per_cycle_key(const std::string& isa) { return "fma_per_cycle." + isa; }

std::string bandwidth_key(const std::string& kernel, const std::string& level,
                          const std::string& threads) {
  return "bandwidth_gbs." + kernel + "." + level + "." + threads;
}

std::string tuning_key(const std::string& isa, const std::string& field) {
  return "tune." + isa + "." + field;
}

void put_tuning(MeasuredValues& values, const std::string& isa, const GemmTuning& tuning) {
  const auto put = [&](const char* field, double value) {
    if (value != 0) values[tuning_key(isa, field)] = value;
  };
  put("a_level", tuning.a_level);
  put("slab_depth", static_cast<double>(tuning.slab_depth));
  put("skinny_depth", static_cast<double>(tuning.skinny_depth));
  put("tall_a_path", tuning.tall_a_path);
  put("b_l1_ways", tuning.b_l1_ways);
  put("stream_prefetch", tuning.stream_prefetch);
  put("bf16_a_level", tuning.bf16_a_level);
  put("bf16_b_l1_ways", tuning.bf16_b_l1_ways);
  put("int8_a_level", tuning.int8_a_level);
  put("int8_b_l1_ways", tuning.int8_b_l1_ways);
}

GemmTuning tuning_of(const MeasuredValues& values, const std::string& isa) {
  const auto get = [&](const char* field) {
    const auto found = values.find(tuning_key(isa, field));
    return found != values.end() ? found->second : 0.0;
  };
  GemmTuning t;
  t.a_level = static_cast<int>(get("a_level"));
  t.slab_depth = static_cast<std::int64_t>(get("slab_depth"));
  t.skinny_depth = static_cast<std::int64_t>(get("skinny_depth"));
  t.tall_a_path = static_cast<int>(get("tall_a_path"));
  t.b_l1_ways = static_cast<int>(get("b_l1_ways"));
  t.stream_prefetch = static_cast<int>(get("stream_prefetch"));
  t.bf16_a_level = static_cast<int>(get("bf16_a_level"));
  t.bf16_b_l1_ways = static_cast<int>(get("bf16_b_l1_ways"));
  t.int8_a_level = static_cast<int>(get("int8_a_level"));
  t.int8_b_l1_ways = static_cast<int>(get("int8_b_l1_ways"));
  return t;
}

void apply_measured(Machine& machine, const MeasuredValues& values) {
  const auto value = [&](const std::string& key) -> double {
    const auto found = values.find(key);
    return found != values.end() && found->second > 0 ? found->second : 0;
  };
  for (CacheLevel& c : machine.caches) {
    c.measured_bytes = static_cast<std::int64_t>(value(measured_cache_key(c.level)));
    c.streaming_bytes = static_cast<std::int64_t>(value(streaming_cache_key(c.level)));
    std::string level = "l";  // appended: GCC 12's false -Wrestrict on "l" + std::string
    level += std::to_string(c.level);
    const double one = value(bandwidth_key("read", level, "1"));
    const double all =
        value(bandwidth_key("read", level, "all")) / std::max(1, machine.logical_cpus);
    c.measured_read_gbs = one > 0 && all > 0 ? std::min(one, all) : std::max(one, all);
  }
  machine.measured_f32_gflops = value(peak_key("f32", "1"));
  machine.measured_fma_per_cycle.clear();
  for (const char* isa : {"generic", "avx2", "avx512"})
    if (const double per_cycle = value(fma_per_cycle_key(isa)); per_cycle > 0)
      machine.measured_fma_per_cycle[isa] = per_cycle;
  const auto stream_count = [&](const char* key) {  // 0 where no int of a sane size holds it
    const double streams = value(key);
    return streams <= 1 << 20 ? static_cast<int>(streams) : 0;
  };
  machine.measured_page_streams = stream_count(kPageStreamsKey);
  machine.measured_kept_page_streams = stream_count(kKeptPageStreamsKey);
  machine.gemm_tuning.clear();
  for (const auto& entry : values) {
    const std::string& key = entry.first;
    const std::size_t dot = key.find('.', 5);
    if (key.rfind("tune.", 0) != 0 || dot == std::string::npos) continue;
    const std::string isa = key.substr(5, dot - 5);
    if (!machine.gemm_tuning.contains(isa)) machine.gemm_tuning[isa] = tuning_of(values, isa);
  }
}

}  // namespace machine
}  // namespace ridge

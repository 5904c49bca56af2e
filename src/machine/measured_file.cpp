// Reading and writing the per-machine file of measured figures, and where it lives.
#include "machine/measured_file.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

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

MeasuredValues read_measured_file(const std::string& path) {
  MeasuredValues values;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string key;
    double value = 0;
    if (fields >> key >> value) values[key] = value;
  }
  return values;
}

bool write_measured_file(const std::string& path, const MeasuredValues& values,
                         const std::string& comment) {
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  std::ofstream out(path);
  if (!out) return false;
  out << "# " << comment << '\n';
  for (const auto& [key, value] : values) out << key << ' ' << std::setprecision(10) << value << '\n';
  return static_cast<bool>(out);
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

std::string bandwidth_key(const std::string& kernel, const std::string& level,
                          const std::string& threads) {
  return "bandwidth_gbs." + kernel + "." + level + "." + threads;
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
}

}  // namespace machine
}  // namespace ridge

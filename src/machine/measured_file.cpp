// Reading and writing the per-machine file of measured figures, and where it lives.
#include "machine/measured_file.hpp"

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

void apply_measured_caches(Machine& machine, const MeasuredValues& values) {
  const auto value = [&](const std::string& key) -> std::int64_t {
    const auto found = values.find(key);
    return found != values.end() && found->second > 0 ? static_cast<std::int64_t>(found->second)
                                                      : 0;
  };
  for (CacheLevel& c : machine.caches) {
    c.measured_bytes = value(measured_cache_key(c.level));
    c.streaming_bytes = value(streaming_cache_key(c.level));
  }
}

}  // namespace machine
}  // namespace ridge

// Linux sysfs cache description: the fallback where CPUID gives no cache leaves (and on ARM).
#include <fstream>
#include <string>

#include "machine/detectors.hpp"

namespace ridge::machine {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::int64_t parse_size(const std::string& text) {
  if (text.empty()) return 0;
  std::size_t used = 0;
  std::int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (...) {
    return 0;
  }
  const char unit = used < text.size() ? text[used] : ' ';
  if (unit == 'K') value <<= 10;
  if (unit == 'M') value <<= 20;
  if (unit == 'G') value <<= 30;
  return value;
}

// "0-3,8" -> 5
int count_cpu_list(const std::string& list) {
  int count = 0;
  std::size_t pos = 0;
  while (pos < list.size()) {
    std::size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    const std::string part = list.substr(pos, end - pos);
    const std::size_t dash = part.find('-');
    try {
      if (dash == std::string::npos) {
        count += part.empty() ? 0 : 1;
      } else {
        count += std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
      }
    } catch (...) {
    }
    pos = end + 1;
  }
  return count;
}

}  // namespace

std::vector<CacheLevel> read_sysfs_caches(const char* root) {
  std::vector<CacheLevel> levels;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = std::string(root) + "/index" + std::to_string(index) + "/";
    const std::string type = read_line(dir + "type");
    if (type.empty()) break;
    if (type == "Instruction") continue;
    CacheLevel c;
    c.kind = type == "Data" ? CacheKind::data : CacheKind::unified;
    c.level = static_cast<int>(parse_size(read_line(dir + "level")));
    c.size_bytes = parse_size(read_line(dir + "size"));
    c.line_bytes = static_cast<int>(parse_size(read_line(dir + "coherency_line_size")));
    c.associativity = static_cast<int>(parse_size(read_line(dir + "ways_of_associativity")));
    c.shared_by_cpus = count_cpu_list(read_line(dir + "shared_cpu_list"));
    if (c.shared_by_cpus < 1) c.shared_by_cpus = 1;
    if (c.size_bytes > 0) levels.push_back(c);
  }
  return levels;
}

}  // namespace ridge::machine

// Machine detection: plausible values on this machine, the sysfs parser on a synthetic tree,
// and the JSON form.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "machine/detectors.hpp"
#include "ridge/machine.hpp"

namespace ridge::test {
namespace {

TEST(Machine, DetectsCachesAndCpus) {
  const Machine& m = Machine::current();
  EXPECT_GE(m.logical_cpus, 1);
  EXPECT_EQ(static_cast<int>(m.cpu_ids.size()), m.logical_cpus);
  const CacheLevel l1 = m.data_cache(1), l2 = m.data_cache(2);
  EXPECT_GE(l1.size_bytes, 8 << 10);
  EXPECT_GT(l2.size_bytes, l1.size_bytes);
  EXPECT_GE(l1.line_bytes, 32);
  EXPECT_GT(l1.associativity, 0);
  EXPECT_EQ(l1.sets() * l1.line_bytes * l1.associativity, l1.size_bytes);
  const CacheLevel l3 = m.data_cache(3);
  if (l3.size_bytes > 0) {
    EXPECT_GT(l3.size_bytes, l2.size_bytes);
  }
}

TEST(Machine, FeaturesAreConsistent) {
  const IsaFeatures& f = Machine::current().isa;
  EXPECT_TRUE(!f.avx2 || (f.avx && f.os_saves_ymm));
  EXPECT_TRUE(!f.avx512f || f.os_saves_zmm);
  EXPECT_TRUE(!(f.avx512_bf16 || f.avx512_vnni) || f.avx512f);
#if defined(__x86_64__)
  // CPUID and the kernel's view (/proc/cpuinfo) agree on AVX2 and AVX-512F.
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    EXPECT_EQ(f.avx2, line.find(" avx2") != std::string::npos);
    EXPECT_EQ(f.avx512f, line.find(" avx512f") != std::string::npos);
    break;
  }
#endif
}

TEST(Machine, CpuidCachesMatchSysfsWhereBothExist) {
  const Machine& m = Machine::current();
  const std::vector<CacheLevel> sysfs = machine::read_sysfs_caches();
  for (const CacheLevel& s : sysfs) {
    const CacheLevel c = m.data_cache(s.level);
    EXPECT_EQ(c.size_bytes, s.size_bytes) << "L" << s.level;
    EXPECT_EQ(c.associativity, s.associativity) << "L" << s.level;
  }
}

TEST(Machine, ParsesASysfsCacheTree) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("ridge_sysfs_" + std::to_string(getpid()));
  auto write = [&](int index, const char* file, const char* value) {
    std::filesystem::create_directories(root / ("index" + std::to_string(index)));
    std::ofstream(root / ("index" + std::to_string(index)) / file) << value << "\n";
  };
  write(0, "type", "Data");
  write(0, "level", "1");
  write(0, "size", "48K");
  write(0, "coherency_line_size", "64");
  write(0, "ways_of_associativity", "12");
  write(0, "shared_cpu_list", "0,8");
  write(1, "type", "Instruction");
  write(1, "level", "1");
  write(1, "size", "32K");
  write(2, "type", "Unified");
  write(2, "level", "3");
  write(2, "size", "30M");
  write(2, "coherency_line_size", "64");
  write(2, "ways_of_associativity", "12");
  write(2, "shared_cpu_list", "0-15");
  const std::vector<CacheLevel> levels = machine::read_sysfs_caches(root.c_str());
  std::filesystem::remove_all(root);
  ASSERT_EQ(levels.size(), 2u);
  EXPECT_EQ(levels[0].size_bytes, 48 << 10);
  EXPECT_EQ(levels[0].associativity, 12);
  EXPECT_EQ(levels[0].shared_by_cpus, 2);
  EXPECT_EQ(levels[1].level, 3);
  EXPECT_EQ(levels[1].size_bytes, 30 << 20);
  EXPECT_EQ(levels[1].shared_by_cpus, 16);
}

TEST(Machine, JsonHasTheDetectedFields) {
  const std::string json = to_json(Machine::current());
  for (const char* key : {"\"vendor\"", "\"isa\"", "\"avx2\"", "\"caches\"", "\"size_bytes\"",
                          "\"logical_cpus\"", "\"associativity\""})
    EXPECT_NE(json.find(key), std::string::npos) << key;
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.back(), '}');
}

}  // namespace
}  // namespace ridge::test

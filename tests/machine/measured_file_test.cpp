// The per-machine file of measured figures: round trip, and Machine::detect() picking up what
// `ridge probe --save` wrote (in a private XDG_CACHE_HOME).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "machine/measured_file.hpp"
#include "ridge/machine.hpp"
#include "ridge/probe.hpp"

namespace ridge::test {
namespace {

std::filesystem::path scratch_dir(const char* name) {
  return std::filesystem::temp_directory_path() / (std::string(name) + std::to_string(getpid()));
}

TEST(MeasuredFile, RoundTripsAndSkipsJunk) {
  const std::filesystem::path dir = scratch_dir("ridge_measured_");
  const std::string path = (dir / "sub" / "m.txt").string();
  ASSERT_TRUE(machine::write_measured_file(path, {{"cache.l1.measured_bytes", 36864}, {"peak", 117.25}}, "test"));
  { std::ofstream(path, std::ios::app) << "not a number line\n\n# comment 5\n"; }
  const machine::MeasuredValues values = machine::read_measured_file(path);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values.at("cache.l1.measured_bytes"), 36864);
  EXPECT_EQ(values.at("peak"), 117.25);
  EXPECT_TRUE(machine::read_measured_file(path).empty());
}

TEST(MeasuredFile, BandwidthAndPeakReachTheMachine) {
  Machine m;
  m.logical_cpus = 2;
  m.caches = {{1, CacheKind::data, 48 << 10, 64, 12, 1},
              {2, CacheKind::unified, 2 << 20, 64, 16, 1},
              {3, CacheKind::unified, 32 << 20, 64, 16, 2}};
  machine::apply_measured(m, {{machine::bandwidth_key("read", "l3", "1"), 40.0},
                              {machine::bandwidth_key("read", "l3", "all"), 55.2},
                              {machine::bandwidth_key("read", "l2", "1"), 185.0},
                              {machine::bandwidth_key("write", "l1", "1"), 260.0},
                              {machine::peak_key("f32", "1"), 240.0}});
  EXPECT_DOUBLE_EQ(m.caches[2].measured_read_gbs, 27.6);  // every CPU reading: 55.2 over 2
  EXPECT_DOUBLE_EQ(m.caches[1].measured_read_gbs, 185.0);  // only the one-thread figure
  EXPECT_EQ(m.caches[0].measured_read_gbs, 0.0);           // a write plateau is not a read one
  EXPECT_DOUBLE_EQ(m.measured_f32_gflops, 240.0);
  EXPECT_EQ(machine::peak_key("f32", "1"), "peak_gflops.f32.1");
  EXPECT_EQ(machine::bandwidth_key("read", "l3", "all"), "bandwidth_gbs.read.l3.all");
}

TEST(MeasuredFile, DetectReadsWhatProbeSaved) {
  const std::filesystem::path dir = scratch_dir("ridge_xdg_");
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved_old = old ? old : "";
  setenv("XDG_CACHE_HOME", dir.c_str(), 1);

  probe::Report report;
  report.machine = Machine::detect();
  for (const CacheLevel& c : report.machine.caches)
    report.caches.push_back({c.level, c.size_bytes, c.size_bytes / 3 + 100, c.size_bytes / 2, 1.0});
  const std::string path = probe::save(report);
  EXPECT_EQ(path, measured_machine_path(report.machine));
  EXPECT_EQ(path.rfind(dir.string(), 0), 0u) << path;

  const Machine m = Machine::detect();
  if (old) {
    setenv("XDG_CACHE_HOME", saved_old.c_str(), 1);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(m.measured_source, path);
  for (const CacheLevel& c : m.caches) {
    // Saved in whole 4 KiB pages.
    EXPECT_EQ(c.measured_bytes, (c.size_bytes / 3 + 100) / 4096 * 4096) << "L" << c.level;
    EXPECT_EQ(c.streaming_bytes, c.size_bytes / 2 / 4096 * 4096) << "L" << c.level;
  }
  EXPECT_NE(describe(m).find("measured"), std::string::npos);
  EXPECT_NE(describe(m).find("streaming"), std::string::npos);
  EXPECT_NE(to_json(m).find("\"measured_bytes\""), std::string::npos);
  EXPECT_NE(to_json(m).find("\"streaming_bytes\""), std::string::npos);
}

}  // namespace
}  // namespace ridge::test

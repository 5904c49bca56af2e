// The per-machine file of measured figures: round trip, and Machine::detect() picking up what
// `ridge probe --save` wrote (in a private XDG_CACHE_HOME).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "machine/measured_file.hpp"
#include "ridge/machine.hpp"
#include "ridge/probe.hpp"
#include "ridge/tuning.hpp"
#include "ridge/version.h"

namespace ridge::test {
namespace {

std::filesystem::path scratch_dir(const char* name) {
  return std::filesystem::temp_directory_path() / (std::string(name) + std::to_string(getpid()));
}

constexpr const char* kCpu = "GenuineIntel Test CPU, 2 cpus";

// Writes `text` to a file in a fresh directory and reads it back for kCpu.
machine::MeasuredFile read_text(const std::string& text) {
  const std::filesystem::path dir = scratch_dir("ridge_measured_text_");
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "m.txt").string();
  { std::ofstream(path) << text; }
  machine::MeasuredFile file = machine::read_measured_file(path, kCpu);
  std::filesystem::remove_all(dir);
  return file;
}

const std::string kHeader =
    std::string("# comment\nridge ") + RIDGE_VERSION_STRING + "\ncpu " + kCpu + "\n";

TEST(MeasuredFile, RoundTrips) {
  const std::filesystem::path dir = scratch_dir("ridge_measured_");
  const std::string path = (dir / "sub" / "m.txt").string();
  ASSERT_TRUE(machine::write_measured_file(
      path, {{"cache.l1.measured_bytes", 36864}, {"peak", 117.25}}, "test", kCpu));
  const machine::MeasuredFile file = machine::read_measured_file(path, kCpu);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(file.ignored, "");
  ASSERT_EQ(file.values.size(), 2u);
  EXPECT_EQ(file.values.at("cache.l1.measured_bytes"), 36864);
  EXPECT_EQ(file.values.at("peak"), 117.25);
  // Absent: nothing, and nothing to say.
  const machine::MeasuredFile absent = machine::read_measured_file(path, kCpu);
  EXPECT_TRUE(absent.values.empty());
  EXPECT_EQ(absent.ignored, "");
}

TEST(MeasuredFile, AcceptsTheFormItWrites) {
  const machine::MeasuredFile file = read_text(kHeader + "a 1\n\n# note\nb 2.5\nend\n");
  EXPECT_EQ(file.ignored, "");
  EXPECT_EQ(file.values.size(), 2u);
}

// A file from another CPU or version, cut short or garbled, is ignored whole, with the reason.
TEST(MeasuredFile, IgnoresStaleTruncatedAndGarbageFiles) {
  const std::string body = "cache.l1.measured_bytes 36864\ntune.avx2.a_level 2\n";
  const std::pair<std::string, std::string> cases[] = {
      {std::string("ridge 0.0.1\ncpu ") + kCpu + "\n" + body + "end\n", "written by ridge 0.0.1"},
      {std::string("ridge ") + RIDGE_VERSION_STRING + "\ncpu AuthenticAMD Other, 2 cpus\n" + body +
           "end\n",
       "written for AuthenticAMD Other, 2 cpus"},
      {kHeader + body, "truncated"},
      {kHeader + "cache.l1.measured_bytes 368", "truncated"},
      {kHeader + "cache.l1.measured_bytes 36864 junk\nend\n", "unreadable line"},
      {kHeader + "cache.l1.measured_bytes nan\nend\n", "unreadable line"},
      // Shown as text: four '?' (spelled out, "??'" being a trigraph).
      {kHeader + "\x01\x02\xff\xfe\nend\n",
       std::string("unreadable line '") + std::string(4, '?') + "'"},
      {kHeader + body + "end\nmore 1\n", "text after its end line"},
      {"cache.l1.measured_bytes 36864\nend\n", "no version line"},
      {std::string("ridge ") + RIDGE_VERSION_STRING + "\n" + body + "end\n", "no cpu line"},
      {std::string("\x7f" "ELF\x02\x01\x01\x00\x00\x00", 10), "no version line"},
  };
  for (const auto& [text, why] : cases) {
    const machine::MeasuredFile file = read_text(text);
    EXPECT_TRUE(file.values.empty()) << text;
    EXPECT_NE(file.ignored.find(why), std::string::npos) << file.ignored << " for\n" << text;
  }
}

TEST(MeasuredFile, TuningRoundTripsPerIsa) {
  GemmTuning t;
  t.a_level = 2;
  t.slab_depth = 384;
  t.tall_a_path = 2;
  t.stream_prefetch = 2;
  t.bf16_a_level = 3;
  t.bf16_b_l1_ways = 8;
  t.int8_a_level = 2;
  t.int8_b_l1_ways = 6;
  machine::MeasuredValues values;
  machine::put_tuning(values, "avx2", t);
  EXPECT_EQ(values.size(), 8u);  // zero fields (the model's choice) are not written
  EXPECT_EQ(values.at("tune.avx2.slab_depth"), 384);
  EXPECT_EQ(values.at("tune.avx2.bf16_b_l1_ways"), 8);
  EXPECT_EQ(values.at("tune.avx2.int8_b_l1_ways"), 6);
  EXPECT_EQ(machine::tuning_of(values, "avx2"), t);
  EXPECT_EQ(machine::tuning_of(values, "avx512"), GemmTuning{});
  Machine m;
  machine::apply_measured(m, values);
  ASSERT_EQ(m.gemm_tuning.size(), 1u);
  EXPECT_EQ(m.gemm_tuning.at("avx2"), t);
}

TEST(MeasuredFile, TuningRangesAreChecked) {
  EXPECT_TRUE(GemmTuning{}.valid());
  EXPECT_TRUE((GemmTuning{3, 512, 64, 1}.valid()));
  EXPECT_FALSE((GemmTuning{1, 0, 0, 0}.valid()));
  EXPECT_FALSE((GemmTuning{0, 6, 0, 0}.valid()));       // not a multiple of 4
  EXPECT_FALSE((GemmTuning{0, 0, -4, 0}.valid()));
  EXPECT_FALSE((GemmTuning{0, 0, 1 << 20, 0}.valid()));
  EXPECT_FALSE((GemmTuning{0, 0, 0, 3}.valid()));
  EXPECT_FALSE((GemmTuning{0, 0, 0, 0, 0, 3}.valid()));
  EXPECT_FALSE((GemmTuning{.bf16_a_level = 1}.valid()));
  EXPECT_FALSE((GemmTuning{.bf16_b_l1_ways = -1}.valid()));
  EXPECT_FALSE((GemmTuning{.int8_a_level = 4}.valid()));
  EXPECT_FALSE((GemmTuning{.int8_b_l1_ways = 65}.valid()));
  EXPECT_THROW(set_gemm_tuning(Isa::generic, GemmTuning{7, 0, 0, 0}), std::invalid_argument);
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
                              {machine::peak_key("f32", "1"), 240.0},
                              {machine::fma_per_cycle_key("avx512"), 1.92},
                              {machine::fma_per_cycle_key("avx2"), -1.0},
                              {machine::kPageStreamsKey, 40.0},
                              {machine::kKeptPageStreamsKey, 56.0}});
  EXPECT_DOUBLE_EQ(m.caches[2].measured_read_gbs, 27.6);  // every CPU reading: 55.2 over 2
  EXPECT_DOUBLE_EQ(m.caches[1].measured_read_gbs, 185.0);  // only the one-thread figure
  EXPECT_EQ(m.caches[0].measured_read_gbs, 0.0);           // a write plateau is not a read one
  EXPECT_DOUBLE_EQ(m.measured_f32_gflops, 240.0);
  EXPECT_EQ(m.measured_fma_per_cycle, (std::map<std::string, double>{{"avx512", 1.92}}));
  EXPECT_EQ(m.measured_page_streams, 40);
  EXPECT_EQ(m.measured_kept_page_streams, 56);
  machine::apply_measured(
      m, {{machine::kPageStreamsKey, 1e12}, {machine::kKeptPageStreamsKey, 1e12}});  // dropped
  EXPECT_EQ(m.measured_page_streams, 0);
  EXPECT_EQ(m.measured_kept_page_streams, 0);
  EXPECT_EQ(machine::peak_key("f32", "1"), "peak_gflops.f32.1");
  EXPECT_EQ(machine::fma_per_cycle_key("avx2"), "fma_per_cycle.avx2");
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
  // FMAs a cycle: the better of the two chain counts over clock x lanes x 2; the scalar loop
  // (no kernel ISA) is not saved.
  report.clock_ghz = {3.5, 0.01, 5, false};
  probe::PeakResult avx2{"avx2", "f32", 8, {}, {}, 12, {}};
  avx2.one_thread.median = 100.8;       // 1.80 a cycle
  avx2.one_thread_more.median = 106.4;  // 1.90 a cycle
  probe::PeakResult scalar{"scalar", "f32", 8, {}, {}, 12, {}};
  scalar.one_thread.median = 14.0;
  report.peaks = {avx2, scalar};
  report.sustained_page_streams = 48;
  report.kept_page_streams = 64;
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
  ASSERT_EQ(m.measured_fma_per_cycle.size(), 1u);
  EXPECT_NEAR(m.measured_fma_per_cycle.at("avx2"), 1.90, 1e-9);
  EXPECT_NE(describe(m).find("FMAs a cycle: avx2 1.90"), std::string::npos) << describe(m);
  EXPECT_EQ(m.measured_page_streams, 48);
  EXPECT_NE(describe(m).find("streams read at full rate: 48"), std::string::npos) << describe(m);
  EXPECT_NE(to_json(m).find("\"measured_page_streams\": 48"), std::string::npos) << to_json(m);
  EXPECT_EQ(m.measured_kept_page_streams, 64);
  EXPECT_NE(describe(m).find("at seven tenths of it: 64"), std::string::npos) << describe(m);
  EXPECT_NE(to_json(m).find("\"measured_kept_page_streams\": 64"), std::string::npos) << to_json(m);
  EXPECT_NE(describe(m).find("measured"), std::string::npos);
  EXPECT_NE(describe(m).find("streaming"), std::string::npos);
  EXPECT_NE(to_json(m).find("\"measured_bytes\""), std::string::npos);
  EXPECT_NE(to_json(m).find("\"streaming_bytes\""), std::string::npos);
  EXPECT_NE(to_json(m).find("\"measured_fma_per_cycle\": {\"avx2\": 1.9"), std::string::npos)
      << to_json(m);
}

// Machine::detect() on a file it must not trust: the reported caches, and why.
TEST(MeasuredFile, DetectIgnoresAFileItCannotTrust) {
  const std::filesystem::path dir = scratch_dir("ridge_xdg_stale_");
  const char* old = std::getenv("XDG_CACHE_HOME");
  const std::string saved_old = old ? old : "";
  setenv("XDG_CACHE_HOME", dir.c_str(), 1);
  const Machine plain = Machine::detect();
  const std::string path = measured_machine_path(plain);
  const std::string identity = machine::cpu_identity(plain);
  const auto detect_with = [&](const machine::MeasuredValues& values, const std::string& cpu) {
    EXPECT_TRUE(machine::write_measured_file(path, values, "test", cpu));
    return Machine::detect();
  };
  const Machine other_cpu = detect_with({{"cache.l1.measured_bytes", 4096}}, "Other CPU, 64 cpus");
  const Machine bad_tuning = detect_with({{"cache.l1.measured_bytes", 4096},
                                          {"tune.avx2.a_level", 5}}, identity);
  const Machine good = detect_with({{"cache.l1.measured_bytes", 4096},
                                    {"tune.avx2.skinny_depth", 128}}, identity);
  if (old) {
    setenv("XDG_CACHE_HOME", saved_old.c_str(), 1);
  } else {
    unsetenv("XDG_CACHE_HOME");
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(plain.measured_ignored, "");
  for (const Machine* m : {&other_cpu, &bad_tuning}) {
    EXPECT_NE(m->measured_ignored, "");
    EXPECT_EQ(m->measured_source, "");
    EXPECT_TRUE(m->gemm_tuning.empty());
    EXPECT_EQ(m->data_cache(1).measured_bytes, 0);
  }
  EXPECT_NE(other_cpu.measured_ignored.find("Other CPU"), std::string::npos);
  EXPECT_NE(bad_tuning.measured_ignored.find("out of range"), std::string::npos);
  EXPECT_EQ(good.measured_ignored, "");
  EXPECT_EQ(good.data_cache(1).measured_bytes, 4096);
  ASSERT_EQ(good.gemm_tuning.count("avx2"), 1u);
  EXPECT_EQ(good.gemm_tuning.at("avx2").skinny_depth, 128);
  EXPECT_NE(describe(good).find("tuned avx2: "), std::string::npos);
}

}  // namespace
}  // namespace ridge::test

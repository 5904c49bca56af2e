// The JSON form of a probe report: parses, has the documented keys (include/ridge/probe.hpp)
// with the right shapes, one thread-count convention for peaks and bandwidths, and leaves out
// what was not measured instead of writing zero.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ridge/probe.hpp"

namespace ridge::test {
namespace {

probe::Figure figure(double median) { return {median, 0.02, 5, false}; }

// A report as a 2-CPU AVX2 machine without bf16/int8 would produce it.
probe::Report synthetic_report() {
  probe::Report r;
  r.machine = Machine::current();
  r.machine.logical_cpus = 2;
  r.machine.cpu_ids = {0, 1};
  r.clock_ghz = figure(3.6);
  r.peaks.push_back({"avx2", "f32", 12, figure(115), figure(230), 14, figure(115.5)});
  r.peaks.push_back({"sse", "f32", 12, figure(55), figure(110), 14, figure(56)});
  r.peaks.push_back({"avx2", "f64", 12, figure(57), figure(114), 14, figure(57)});
  r.bandwidth.push_back({"triad", 1, 256 << 20, (256 << 20) - 1536, figure(25)});
  r.plateaus.push_back({"triad", "dram", 1, 25, 2, false});
  r.plateaus.push_back({"triad", "dram", 2, 34, 2, true});
  r.plateaus.push_back({"read", "l1", 1, 190, 2, false});
  r.page_streams = {{16, {28.0, 0.02, 5, false}}, {64, {10.0, 0.05, 5, false}}};
  r.sustained_page_streams = 16;
  r.kept_page_streams = 24;
  r.latency.push_back({4096, true, 1.0, figure(1.1)});
  r.latency.push_back({1 << 30, true, 1.0, figure(190)});
  r.latency.push_back({1 << 30, false, 0.0, figure(300)});
  r.caches.push_back({1, 32 << 10, 36 << 10, 0, 1.1});
  r.coherence_measured = true;
  r.coherence.cpus = {0, 1};
  r.coherence.core_to_core_ns = {{probe::Figure{}, figure(55)}, {figure(55), probe::Figure{}}};
  r.coherence.atomics.push_back({"fetch_add relaxed", figure(2), figure(8)});
  r.notes.push_back("a \"quoted\" note");
  return r;
}

TEST(ProbeJson, HasTheDocumentedKeys) {
  const nlohmann::json j = nlohmann::json::parse(probe::to_json(synthetic_report()));
  EXPECT_TRUE(j["machine"].is_object());
  EXPECT_TRUE(j["machine"].contains("caches"));
  EXPECT_DOUBLE_EQ(j["peak_gflops"]["f32"]["1"].get<double>(), 115);  // the best ISA
  EXPECT_DOUBLE_EQ(j["peak_gflops"]["f32"]["all"].get<double>(), 230);
  EXPECT_DOUBLE_EQ(j["peak_gflops"]["f64"]["all"].get<double>(), 114);
  EXPECT_DOUBLE_EQ(j["bandwidth_gbs"]["triad"]["dram"]["1"].get<double>(), 25);
  EXPECT_DOUBLE_EQ(j["bandwidth_gbs"]["triad"]["dram"]["all"].get<double>(), 34);
  EXPECT_FALSE(j["bandwidth_gbs"]["triad"]["dram"].contains("2"));  // "all", as for the peaks
  EXPECT_DOUBLE_EQ(j["bandwidth_gbs"]["read"]["l1"]["1"].get<double>(), 190);
  ASSERT_TRUE(j["latency_ns"].is_array());
  ASSERT_EQ(j["latency_ns"].size(), 2u);  // the curve; the 4 KiB-page point is in latency_curve
  EXPECT_EQ(j["latency_ns"][1]["bytes"].get<std::int64_t>(), 1 << 30);
  EXPECT_DOUBLE_EQ(j["latency_ns"][1]["ns"].get<double>(), 190);
  EXPECT_EQ(j["latency_curve"].size(), 3u);
  ASSERT_EQ(j["page_streams"].size(), 2u);
  EXPECT_EQ(j["page_streams"][1]["streams"].get<int>(), 64);
  EXPECT_DOUBLE_EQ(j["page_streams"][1]["gbs"]["median"].get<double>(), 10.0);
  EXPECT_EQ(j["sustained_page_streams"].get<int>(), 16);
  EXPECT_EQ(j["kept_page_streams"].get<int>(), 24);
  const nlohmann::json& matrix = j["core_to_core_ns"];
  ASSERT_EQ(matrix.size(), 2u);
  ASSERT_EQ(matrix[0].size(), 2u);
  EXPECT_TRUE(matrix[0][0].is_null());
  EXPECT_DOUBLE_EQ(matrix[0][1].get<double>(), 55);
  EXPECT_EQ(j["notes"][0].get<std::string>(), "a \"quoted\" note");
}

// One CPU: its single-thread figures are also the all-CPU ones. Four: the sweep's 2 keeps its
// number between "1" and "all".
TEST(ProbeJson, KeysThreadCountsAsOneAllOrTheirNumber) {
  probe::Report r = synthetic_report();
  r.machine.logical_cpus = 1;
  r.plateaus = {{"read", "dram", 1, 20, 2, false}};
  nlohmann::json j = nlohmann::json::parse(probe::to_json(r));
  EXPECT_DOUBLE_EQ(j["bandwidth_gbs"]["read"]["dram"]["1"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(j["bandwidth_gbs"]["read"]["dram"]["all"].get<double>(), 20);
  r.machine.logical_cpus = 4;
  r.plateaus = {{"read", "dram", 1, 20, 2, false},
                {"read", "dram", 2, 30, 2, false},
                {"read", "dram", 4, 40, 2, false}};
  j = nlohmann::json::parse(probe::to_json(r));
  EXPECT_DOUBLE_EQ(j["bandwidth_gbs"]["read"]["dram"]["1"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(j["bandwidth_gbs"]["read"]["dram"]["2"].get<double>(), 30);
  EXPECT_DOUBLE_EQ(j["bandwidth_gbs"]["read"]["dram"]["all"].get<double>(), 40);
  EXPECT_EQ(j["bandwidth_gbs"]["read"]["dram"].size(), 3u);
}

TEST(ProbeJson, OmitsWhatWasNotMeasured) {
  probe::Report r = synthetic_report();
  const nlohmann::json j = nlohmann::json::parse(probe::to_json(r));
  EXPECT_FALSE(j["peak_gflops"].contains("bf16"));
  EXPECT_FALSE(j["peak_gflops"].contains("int8"));
  EXPECT_FALSE(j["bandwidth_gbs"]["triad"].contains("l1"));
  EXPECT_FALSE(j["caches"][0].contains("from_bandwidth_bytes"));
  r.coherence_measured = false;
  r.peaks.clear();
  r.page_streams.clear();
  const nlohmann::json bare = nlohmann::json::parse(probe::to_json(r));
  EXPECT_FALSE(bare.contains("core_to_core_ns"));
  EXPECT_FALSE(bare.contains("page_streams"));
  EXPECT_FALSE(bare.contains("sustained_page_streams"));
  EXPECT_TRUE(bare["peak_gflops"].empty());
}

}  // namespace
}  // namespace ridge::test

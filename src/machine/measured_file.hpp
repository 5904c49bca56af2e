// The per-machine file of measured figures written by `ridge probe --save` and `ridge tune`: a
// format small enough to read without a JSON library. '#' starts a comment line; then
//   ridge <version>          the library version that wrote it
//   cpu <identity>           the machine it describes (cpu_identity)
//   <key> <number>           one line per figure
//   end                      the last line: a file cut short lacks it
// A file another version or CPU wrote, or one that breaks this form anywhere, is ignored whole:
// its figures may no longer mean what the reader takes them to.
#pragma once

#include <map>
#include <string>

#include "ridge/machine.hpp"

namespace ridge::machine {

using MeasuredValues = std::map<std::string, double>;

struct MeasuredFile {
  MeasuredValues values;  // empty when the file is absent or ignored
  std::string ignored;    // why a file that exists was ignored; empty when it was read
};

// "<vendor> <model name>, <n> cpus": what a file must have been written for.
std::string cpu_identity(const Machine& machine);

MeasuredFile read_measured_file(const std::string& path, const std::string& cpu);
// Creates the parent directories; returns false when the file cannot be written.
bool write_measured_file(const std::string& path, const MeasuredValues& values,
                         const std::string& comment, const std::string& cpu);

// "cache.l<level>.measured_bytes": the key of a cache level's measured capacity (latency).
std::string measured_cache_key(int level);
// "cache.l<level>.streaming_bytes": the key of its capacity for streaming reads (bandwidth).
std::string streaming_cache_key(int level);
// "peak_gflops.<type>.<threads>": a measured FMA peak (type "f32", "f64", "bf16", "int8";
// threads "1" or "all", probe/thread_keys.hpp).
std::string peak_key(const std::string& type, const std::string& threads);
// "fma_per_cycle.<isa>": FMAs of the ISA's vector width one CPU issued a cycle (isa "generic",
// "avx2", "avx512").
std::string fma_per_cycle_key(const std::string& isa);
// The most page-strided read streams one core keeps fed (probe::Report::sustained_page_streams).
inline constexpr const char* kPageStreamsKey = "page_streams";
// The most it reads at seven tenths of its best rate (probe::Report::kept_page_streams).
inline constexpr const char* kKeptPageStreamsKey = "page_streams_kept";
// "bandwidth_gbs.<kernel>.<level>.<threads>": a measured bandwidth plateau (kernel "read",
// "write", ...; level "l1" .. "l3", "dram").
std::string bandwidth_key(const std::string& kernel, const std::string& level,
                          const std::string& threads);
// "tune.<isa>.<field>": a GemmTuning field `ridge tune` chose for an ISA path.
std::string tuning_key(const std::string& isa, const std::string& field);
// The tuning's nonzero fields as values under tuning_key(isa, ...), and back.
void put_tuning(MeasuredValues& values, const std::string& isa, const GemmTuning& tuning);
GemmTuning tuning_of(const MeasuredValues& values, const std::string& isa);
// Sets each cache level's measured_bytes, streaming_bytes and measured_read_gbs, the machine's
// measured_f32_gflops, measured_fma_per_cycle and its GEMM tuning per ISA, from the figures
// `values` holds.
void apply_measured(Machine& machine, const MeasuredValues& values);

}  // namespace ridge::machine

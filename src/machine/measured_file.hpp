// The per-machine file of measured figures written by `ridge probe --save`: one "key value" line
// per figure, '#' starts a comment. A format small enough to read without a JSON library.
#pragma once

#include <map>
#include <string>

#include "ridge/machine.hpp"

namespace ridge::machine {

using MeasuredValues = std::map<std::string, double>;

// Empty when the file is missing; lines that are not "key number" are skipped.
MeasuredValues read_measured_file(const std::string& path);
// Creates the parent directories; returns false when the file cannot be written.
bool write_measured_file(const std::string& path, const MeasuredValues& values,
                         const std::string& comment);

// "cache.l<level>.measured_bytes": the key of a cache level's measured capacity (latency).
std::string measured_cache_key(int level);
// "cache.l<level>.streaming_bytes": the key of its capacity for streaming reads (bandwidth).
std::string streaming_cache_key(int level);
// "peak_gflops.<type>.<threads>": a measured FMA peak (type "f32", "f64", "bf16", "int8";
// threads "1" or "all", probe/thread_keys.hpp).
std::string peak_key(const std::string& type, const std::string& threads);
// "bandwidth_gbs.<kernel>.<level>.<threads>": a measured bandwidth plateau (kernel "read",
// "write", ...; level "l1" .. "l3", "dram").
std::string bandwidth_key(const std::string& kernel, const std::string& level,
                          const std::string& threads);
// Sets each cache level's measured_bytes, streaming_bytes and measured_read_gbs, and the
// machine's measured_f32_gflops, from the figures `values` holds.
void apply_measured(Machine& machine, const MeasuredValues& values);

}  // namespace ridge::machine

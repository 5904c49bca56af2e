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
// Sets CacheLevel::measured_bytes and streaming_bytes from `values` for each level they name.
void apply_measured_caches(Machine& machine, const MeasuredValues& values);

}  // namespace ridge::machine

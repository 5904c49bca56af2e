// The per-source detectors that ridge::Machine::detect() combines.
#pragma once

#include "ridge/machine.hpp"

namespace ridge::machine {

// x86: CPUID/XGETBV features and cache levels. Returns false on other architectures.
bool detect_x86(Machine& machine);
// aarch64: HWCAP features. Returns false on other architectures.
bool detect_arm(Machine& machine);
// Linux sysfs (/sys/devices/system/cpu/cpu0/cache): the fallback for cache levels.
std::vector<CacheLevel> read_sysfs_caches(const char* root = "/sys/devices/system/cpu/cpu0/cache");
// The CPUs in this process's affinity mask.
std::vector<int> affinity_cpus();

}  // namespace ridge::machine

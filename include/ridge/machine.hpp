// What the CPU this process runs on can do: instruction sets, caches, usable CPUs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ridge/export.hpp"
#include "ridge/tuning.hpp"

namespace ridge {

// Instruction-set features. A feature is true only if the CPU has it AND the OS saves the
// registers it needs (XGETBV), so code may use it.
struct IsaFeatures {
  // x86
  bool sse42 = false;
  bool avx = false;
  bool avx2 = false;
  bool fma = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512dq = false;
  bool avx512vl = false;
  bool avx512_bf16 = false;
  bool avx512_vnni = false;
  bool avx_vnni = false;  // VPDPBUSD on 256-bit registers, VEX-encoded (no AVX-512 needed)
  bool amx_tile = false;
  bool amx_bf16 = false;
  bool amx_int8 = false;
  bool os_saves_ymm = false;  // XCR0 bits 1,2
  bool os_saves_zmm = false;  // XCR0 bits 5,6,7
  bool os_saves_amx = false;  // XCR0 bits 17,18
  // aarch64
  bool asimd = false;
  bool sve = false;
  bool bf16 = false;
  bool i8mm = false;
};

enum class CacheKind { data, instruction, unified };

struct CacheLevel {
  int level = 0;
  CacheKind kind = CacheKind::unified;
  std::int64_t size_bytes = 0;
  int line_bytes = 0;
  int associativity = 0;  // ways; 0 when unknown, -1 for fully associative
  int shared_by_cpus = 1; // logical CPUs that share one instance
  // The capacity `ridge probe --save` measured for this level on this machine (the size at which
  // load latency leaves the level's plateau); 0 when not measured. It can be far below
  // size_bytes, as on a virtual machine given a few CPUs of a large server chip, whose process
  // sees L3 latency for only part of the L3 the CPU reports.
  std::int64_t measured_bytes = 0;
  // The working set up to which streaming reads keep this level's bandwidth, from the same
  // probe's bandwidth curve; 0 when not measured. The hardware prefetchers hide latency for a
  // stream, so this can exceed measured_bytes.
  std::int64_t streaming_bytes = 0;
  // GB/s that one CPU reads from this level while every CPU of the affinity mask reads too (the
  // probe's all-thread read plateau over the CPU count, or its one-thread plateau if lower); 0
  // when not measured.
  double measured_read_gbs = 0;
  // size_bytes / (line_bytes x associativity); 1 when the geometry is unknown.
  RIDGE_API std::int64_t sets() const;
};

struct Machine {
  std::string vendor;       // "AuthenticAMD", "GenuineIntel", ...
  std::string model_name;   // brand string
  std::string arch;         // "x86_64" or "aarch64"
  IsaFeatures isa;
  std::vector<CacheLevel> caches;  // data and unified caches, innermost first
  std::string cache_source;        // "cpuid-leaf-4", "cpuid-0x8000001d", "sysfs" or "assumed"
  std::string measured_source;     // the file measured_bytes came from; empty if none
  // Why the per-machine file was ignored (another CPU or ridge version wrote it, or it is
  // truncated or garbled); empty when it was read or is absent.
  std::string measured_ignored;
  // `ridge tune`'s choices from that file, by ISA name ("avx2", ...).
  std::map<std::string, GemmTuning> gemm_tuning;
  int logical_cpus = 1;            // CPUs in this process's affinity mask
  // One CPU's f32 FMA rate in GFLOP/s on its best instruction set, as `ridge probe --save`
  // measured it; 0 when not measured.
  double measured_f32_gflops = 0;
  // FMAs of each ISA's full vector width one CPU issued a cycle, by ISA name, as the probe
  // measured them (its f32 rate over clock x lanes x 2): the FMA pipes, about 1 or 2.
  std::map<std::string, double> measured_fma_per_cycle;
  // The most columns a page or more apart one CPU read at nearly its best rate, a line of each
  // in turn, as the probe measured it; 0 when not measured. Bounds the depth slices of the GEMM
  // paths that read A so.
  int measured_page_streams = 0;
  // The most such columns it read at seven tenths of its best rate (0 when not measured): where
  // the rate slopes rather than falls off a cliff, well past measured_page_streams.
  int measured_kept_page_streams = 0;
  std::vector<int> cpu_ids;        // their ids

  // The data cache at `level` (1, 2, 3); a default-constructed level with size 0 if absent.
  RIDGE_API CacheLevel data_cache(int level) const;

  // Detected once per process; thread-safe.
  RIDGE_API static const Machine& current();
  // Detect afresh (used by current(); exposed for tests and `ridge info`).
  RIDGE_API static Machine detect();
};

// The per-machine file of `ridge probe --save`: $XDG_CACHE_HOME/ridge/ (else ~/.cache/ridge/),
// named after the CPU model and the CPU count; Machine::detect() reads it when it exists.
RIDGE_API std::string measured_machine_path(const Machine& machine);

// The machine as text (for `ridge info`) and as JSON.
RIDGE_API std::string describe(const Machine& machine);
// "a_level 2, slab_depth model, ...": a GEMM tuning as text.
RIDGE_API std::string tuning_text(const GemmTuning& tuning);
RIDGE_API std::string to_json(const Machine& machine);

}  // namespace ridge

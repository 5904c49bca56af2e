// x86 detection: feature bits from CPUID, register-state support from XGETBV, caches from CPUID
// leaf 4 (Intel) or 0x8000001D (AMD), which share one encoding.
#include "machine/detectors.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

#include <cstring>

namespace ridge::machine {
namespace {

struct Regs {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

Regs cpuid(unsigned leaf, unsigned subleaf = 0) {
  Regs r;
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
  return r;
}

bool bit(unsigned value, int index) { return (value >> index) & 1u; }

std::uint64_t xgetbv0() {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

// Decodes leaf 4 / 0x8000001D subleaves until the "no more caches" type 0.
std::vector<CacheLevel> read_cache_leaf(unsigned leaf) {
  std::vector<CacheLevel> levels;
  for (unsigned sub = 0; sub < 16; ++sub) {
    const Regs r = cpuid(leaf, sub);
    const unsigned type = r.eax & 0x1f;
    if (type == 0) break;
    if (type == 2) continue;  // instruction cache: not used for blocking
    CacheLevel c;
    c.level = static_cast<int>((r.eax >> 5) & 0x7);
    c.kind = type == 1 ? CacheKind::data : CacheKind::unified;
    c.shared_by_cpus = static_cast<int>(((r.eax >> 14) & 0xfff) + 1);
    c.line_bytes = static_cast<int>((r.ebx & 0xfff) + 1);
    const int partitions = static_cast<int>(((r.ebx >> 12) & 0x3ff) + 1);
    const bool fully_associative = bit(r.eax, 9);
    c.associativity = fully_associative ? -1 : static_cast<int>(((r.ebx >> 22) & 0x3ff) + 1);
    const std::int64_t sets = static_cast<std::int64_t>(r.ecx) + 1;
    const int ways = fully_associative ? 1 : c.associativity;
    c.size_bytes = static_cast<std::int64_t>(ways) * partitions * c.line_bytes * sets;
    levels.push_back(c);
  }
  return levels;
}

}  // namespace

bool detect_x86(Machine& m) {
  m.arch = "x86_64";
  const Regs v = cpuid(0);
  const unsigned max_leaf = v.eax;
  char vendor[13] = {};
  std::memcpy(vendor + 0, &v.ebx, 4);
  std::memcpy(vendor + 4, &v.edx, 4);
  std::memcpy(vendor + 8, &v.ecx, 4);
  m.vendor = vendor;

  const unsigned max_ext = cpuid(0x80000000).eax;
  if (max_ext >= 0x80000004) {
    char brand[49] = {};
    for (unsigned i = 0; i < 3; ++i) {
      const Regs b = cpuid(0x80000002 + i);
      std::memcpy(brand + 16 * i + 0, &b.eax, 4);
      std::memcpy(brand + 16 * i + 4, &b.ebx, 4);
      std::memcpy(brand + 16 * i + 8, &b.ecx, 4);
      std::memcpy(brand + 16 * i + 12, &b.edx, 4);
    }
    m.model_name = brand;
    while (!m.model_name.empty() && m.model_name.back() == ' ') m.model_name.pop_back();
  }

  IsaFeatures& f = m.isa;
  const Regs l1 = cpuid(1);
  f.sse42 = bit(l1.ecx, 20);
  const bool osxsave = bit(l1.ecx, 27);
  const std::uint64_t xcr0 = osxsave ? xgetbv0() : 0;
  f.os_saves_ymm = (xcr0 & 0x6) == 0x6;
  f.os_saves_zmm = f.os_saves_ymm && (xcr0 & 0xe0) == 0xe0;
  f.os_saves_amx = (xcr0 & 0x60000) == 0x60000;
  f.avx = bit(l1.ecx, 28) && f.os_saves_ymm;
  f.fma = bit(l1.ecx, 12) && f.os_saves_ymm;
  if (max_leaf >= 7) {
    const Regs l7 = cpuid(7, 0);
    f.avx2 = bit(l7.ebx, 5) && f.os_saves_ymm;
    f.avx512f = bit(l7.ebx, 16) && f.os_saves_zmm;
    f.avx512dq = bit(l7.ebx, 17) && f.os_saves_zmm;
    f.avx512bw = bit(l7.ebx, 30) && f.os_saves_zmm;
    f.avx512vl = bit(l7.ebx, 31) && f.os_saves_zmm;
    f.avx512_vnni = bit(l7.ecx, 11) && f.os_saves_zmm;
    f.amx_bf16 = bit(l7.edx, 22) && f.os_saves_amx;
    f.amx_tile = bit(l7.edx, 24) && f.os_saves_amx;
    f.amx_int8 = bit(l7.edx, 25) && f.os_saves_amx;
    if (l7.eax >= 1) {
      const Regs l7s1 = cpuid(7, 1);
      f.avx_vnni = bit(l7s1.eax, 4) && f.os_saves_ymm;
      f.avx512_bf16 = bit(l7s1.eax, 5) && f.os_saves_zmm;
    }
  }

  if (m.vendor == "AuthenticAMD" && max_ext >= 0x8000001D && bit(cpuid(0x80000001).ecx, 22)) {
    m.caches = read_cache_leaf(0x8000001D);
    m.cache_source = "cpuid-0x8000001d";
  } else if (max_leaf >= 4) {
    m.caches = read_cache_leaf(4);
    m.cache_source = "cpuid-leaf-4";
  }
  return true;
}

}  // namespace ridge::machine

#else

namespace ridge::machine {
bool detect_x86(Machine&) { return false; }
}  // namespace ridge::machine

#endif

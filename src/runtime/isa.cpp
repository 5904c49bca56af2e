// The instruction-set path the kernels run: chosen once from ridge::Machine, with RIDGE_ISA and
// set_isa() as overrides. Every driver reads active_isa() to pick its per-ISA kernels; nothing
// compiled with AVX flags runs before isa_supported() has said yes.
#include "ridge/isa.hpp"

#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "ridge/machine.hpp"
#include "runtime/active_isa.hpp"
#include "runtime/settings.hpp"

namespace ridge {

std::atomic<int> runtime::g_active_isa{-1};

namespace {

Isa initial_isa() {
  const std::string& request = runtime::isa_request();
  if (request.empty()) return best_isa();
  for (Isa isa : {Isa::generic, Isa::avx2, Isa::avx512}) {
    if (request != isa_name(isa)) continue;
    if (isa_supported(isa)) return isa;
    std::fprintf(stderr, "ridge: RIDGE_ISA=%s refused: this CPU lacks it; using %s\n",
                 request.c_str(), isa_name(best_isa()));
    return best_isa();
  }
  std::fprintf(stderr, "ridge: RIDGE_ISA=%s is not one of generic, avx2, avx512; using %s\n",
               request.c_str(), isa_name(best_isa()));
  return best_isa();
}

}  // namespace

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::generic: return "generic";
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
  }
  return "generic";
}

bool isa_supported(Isa isa) {
  const IsaFeatures& f = Machine::current().isa;
  switch (isa) {
    case Isa::generic: return true;
#if defined(__x86_64__)
    case Isa::avx2: return f.avx2 && f.fma;
    // The AVX-512 sources are compiled with F, BW, DQ and VL, so all four are required.
    case Isa::avx512: return f.avx512f && f.avx512bw && f.avx512dq && f.avx512vl && f.fma;
#else
    case Isa::avx2:
    case Isa::avx512: return false;
#endif
  }
  (void)f;
  return false;
}

Isa best_isa() {
  if (isa_supported(Isa::avx512)) return Isa::avx512;
  if (isa_supported(Isa::avx2)) return Isa::avx2;
  return Isa::generic;
}

Isa active_isa() {
  const int active = runtime::g_active_isa.load(std::memory_order_relaxed);
  if (active >= 0) return static_cast<Isa>(active);
  // The first call resolves the initial path; a set_isa() meanwhile wins.
  static const Isa initial = initial_isa();
  int expected = -1;
  runtime::g_active_isa.compare_exchange_strong(expected, static_cast<int>(initial),
                                                std::memory_order_relaxed);
  return static_cast<Isa>(runtime::g_active_isa.load(std::memory_order_relaxed));
}

void set_isa(Isa isa) {
  if (!isa_supported(isa))
    throw std::invalid_argument(std::string("ridge::set_isa: this CPU does not support ") +
                                isa_name(isa));
  runtime::g_active_isa.store(static_cast<int>(isa), std::memory_order_relaxed);
}

}  // namespace ridge

// Run-time choice of the ISA path: once, from ridge::Machine, with RIDGE_ISA and set_isa() as
// overrides. Nothing compiled with AVX flags runs before isa_supported() has said yes.
#include "gemm/dispatch.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>

#include "gemm/blocking.hpp"
#include "ridge/machine.hpp"
#include "runtime/settings.hpp"

namespace ridge {

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

namespace gemm_detail {
namespace {

template <class T>
TypedKernels<T> typed(KernelSet<T> kernels) {
  return {kernels, derive_block_sizes(Machine::current(), kernels.mr, kernels.nr, sizeof(T))};
}

template <class T>
void log_choice(Isa isa, const char* type, const TypedKernels<T>& t) {
  std::fprintf(stderr, "ridge: %s %s gemm: MR=%d NR=%d MC=%lld KC=%lld NC=%lld\n", isa_name(isa),
               type, t.kernels.mr, t.kernels.nr, static_cast<long long>(t.blocks.mc),
               static_cast<long long>(t.blocks.kc), static_cast<long long>(t.blocks.nc));
}

DispatchTable build_table(Isa isa) {
  DispatchTable table;
  table.isa = isa;
  switch (isa) {
#if defined(__x86_64__)
    case Isa::avx512:
      table.f32 = typed(avx512_kernels_f32());
      table.f64 = typed(avx512_kernels_f64());
      break;
    case Isa::avx2:
      table.f32 = typed(avx2_kernels_f32());
      table.f64 = typed(avx2_kernels_f64());
      break;
#endif
    default:
      table.f32 = typed(generic_kernels_f32());
      table.f64 = typed(generic_kernels_f64());
      break;
  }
  if (detail::verbose()) {
    log_choice(isa, "f32", table.f32);
    log_choice(isa, "f64", table.f64);
  }
  return table;
}

std::atomic<const DispatchTable*> g_active{nullptr};

Isa initial_isa() {
  const std::string& request = detail::isa_request();
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

const DispatchTable& dispatch_for(Isa isa) {
  // One table per ISA, built on first request and kept for the process.
  static std::once_flag once[3];
  static DispatchTable tables[3];
  const int index = static_cast<int>(isa);
  std::call_once(once[index], [&] { tables[index] = build_table(isa); });
  return tables[index];
}

const DispatchTable& dispatch() {
  const DispatchTable* table = g_active.load(std::memory_order_acquire);
  if (table != nullptr) return *table;
  static const DispatchTable& initial = dispatch_for(initial_isa());
  const DispatchTable* expected = nullptr;
  g_active.compare_exchange_strong(expected, &initial, std::memory_order_acq_rel);
  return *g_active.load(std::memory_order_acquire);
}

}  // namespace gemm_detail

Isa active_isa() { return gemm_detail::dispatch().isa; }

void set_isa(Isa isa) {
  if (!isa_supported(isa))
    throw std::invalid_argument(std::string("ridge::set_isa: this CPU does not support ") +
                                isa_name(isa));
  gemm_detail::g_active.store(&gemm_detail::dispatch_for(isa), std::memory_order_release);
}

int num_threads() { return detail::max_threads(); }
void set_num_threads(int threads) { detail::set_max_threads(threads); }

}  // namespace ridge

// The GEMM tuning per ISA path: the per-machine file's (logged under RIDGE_VERBOSE) until
// set_gemm_tuning replaces it.
#include "runtime/tuning.hpp"

#include <cstdio>
#include <deque>
#include <mutex>
#include <stdexcept>

#include "ridge/machine.hpp"
#include "runtime/settings.hpp"

namespace ridge {

std::atomic<const GemmTuning*> runtime::g_gemm_tuning[3];

namespace {

std::mutex g_mutex;
std::deque<GemmTuning> g_tunings;  // every tuning ever in force (see g_gemm_tuning)

// Publishes `t` as isa's tuning unless one is (resolve) or always (replace); caller holds g_mutex.
const GemmTuning& publish(Isa isa, const GemmTuning& t, bool replace) {
  std::atomic<const GemmTuning*>& slot = runtime::g_gemm_tuning[static_cast<int>(isa)];
  if (!replace)
    if (const GemmTuning* current = slot.load(std::memory_order_acquire)) return *current;
  const GemmTuning& kept = g_tunings.emplace_back(t);
  slot.store(&kept, std::memory_order_release);
  return kept;
}

}  // namespace

const GemmTuning& runtime::resolve_gemm_tuning(Isa isa) {
  const Machine& machine = Machine::current();
  const auto found = machine.gemm_tuning.find(isa_name(isa));
  const GemmTuning t = found != machine.gemm_tuning.end() ? found->second : GemmTuning{};
  const std::lock_guard lock(g_mutex);
  const bool first = g_gemm_tuning[static_cast<int>(isa)].load() == nullptr;
  if (first && verbose()) {
    if (found != machine.gemm_tuning.end()) {
      std::fprintf(stderr, "ridge: %s gemm tuning from %s: %s\n", isa_name(isa),
                   machine.measured_source.c_str(), tuning_text(t).c_str());
    } else {
      std::fprintf(stderr, "ridge: %s gemm tuning: the model's (no `ridge tune` result for it)\n",
                   isa_name(isa));
    }
  }
  return publish(isa, t, false);
}

GemmTuning gemm_tuning(Isa isa) { return runtime::gemm_tuning(isa); }

void set_gemm_tuning(Isa isa, const GemmTuning& tuning) {
  if (!tuning.valid())
    throw std::invalid_argument("ridge::set_gemm_tuning: a field out of range: " +
                                tuning_text(tuning));
  const std::lock_guard lock(g_mutex);
  const GemmTuning* current = runtime::g_gemm_tuning[static_cast<int>(isa)].load();
  if (current == nullptr || !(*current == tuning)) publish(isa, tuning, true);
}

}  // namespace ridge

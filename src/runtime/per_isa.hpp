// A table per ISA path (kernels, block sizes), built on its first use and kept for the process:
// the dispatch every driver does once per call costs an atomic load. A path's table is built only
// when asked for, which callers do only for paths the CPU supports: building one runs its entry
// point, compiled with that ISA's flags.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>

#include "ridge/isa.hpp"

namespace ridge::runtime {

template <class Table>
class PerIsa {
 public:
  using Make = Table (*)(Isa);
  explicit constexpr PerIsa(Make make) : make_(make) {}

  const Table& operator()(Isa isa) {
    const int i = static_cast<int>(isa);
    if (ready_[i].load(std::memory_order_acquire)) [[likely]]
      return *tables_[i];
    return build(isa);
  }

 private:
  // Out of line, so that the lookup above needs no stack frame: it runs on every call of every
  // driver (measured in a 16^3 sgemm: 24 instructions with the slow path inlined).
  [[gnu::noinline]] const Table& build(Isa isa) {
    const int i = static_cast<int>(isa);
    const std::lock_guard lock(mutex_);
    if (!tables_[i]) tables_[i].emplace(make_(isa));
    ready_[i].store(true, std::memory_order_release);
    return *tables_[i];
  }

  static constexpr int kIsas = 3;  // Isa::generic, avx2, avx512
  Make make_;
  std::mutex mutex_;
  std::atomic<bool> ready_[kIsas] = {};
  std::optional<Table> tables_[kIsas];
};

}  // namespace ridge::runtime

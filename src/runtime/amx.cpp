#include "runtime/amx.hpp"

#include <cstdlib>

#include "ridge/machine.hpp"

#if defined(__linux__) && defined(__x86_64__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace ridge::runtime {
namespace {

bool permitted() {
#if defined(__linux__) && defined(__x86_64__)
  // Linux 5.16+: the tile data state (XFEATURE_XTILEDATA, 18) is granted per process on request
  // (ARCH_REQ_XCOMP_PERM, 0x1023), since it adds 8 KiB to every thread's saved state.
  constexpr long kRequestPermission = 0x1023;
  constexpr long kTileData = 18;
  return syscall(SYS_arch_prctl, kRequestPermission, kTileData) == 0;
#else
  return false;
#endif
}

}  // namespace

bool amx_usable() {
  static const bool usable = [] {
    const char* text = std::getenv("RIDGE_AMX");
    if (text != nullptr && text[0] == '0' && text[1] == '\0') return false;
    const IsaFeatures& f = Machine::current().isa;
    return f.amx_tile && permitted();
  }();
  return usable;
}

}  // namespace ridge::runtime

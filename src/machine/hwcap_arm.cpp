// aarch64 detection: features from the kernel's HWCAP bits (caches come from sysfs).
#include "machine/detectors.hpp"

#if defined(__aarch64__)
#include <sys/auxv.h>

namespace ridge::machine {

bool detect_arm(Machine& m) {
  m.arch = "aarch64";
  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long hwcap2 = getauxval(AT_HWCAP2);
  m.isa.asimd = (hwcap >> 1) & 1;     // HWCAP_ASIMD
  m.isa.sve = (hwcap >> 22) & 1;      // HWCAP_SVE
  m.isa.i8mm = (hwcap2 >> 13) & 1;    // HWCAP2_I8MM
  m.isa.bf16 = (hwcap2 >> 14) & 1;    // HWCAP2_BF16
  return true;
}

}  // namespace ridge::machine

#else

namespace ridge::machine {
bool detect_arm(Machine&) { return false; }
}  // namespace ridge::machine

#endif

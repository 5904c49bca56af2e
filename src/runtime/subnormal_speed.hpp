// Whether this CPU makes subnormal results without a microcode assist, measured once per
// process. With flush-to-zero off, as a library must leave it, Intel's cores take an assist for
// each instruction whose result is subnormal (on the 2-vCPU Xeon guest, one lane of 16 scaled to
// a subnormal: 3.45 ns an element, 0.035 with that lane masked off), so the activations there
// build such results from their bits (kernels/activation_math.hpp); AMD's Zen 5 runs the 512-bit
// VMULPS and VSCALEFPS at one rate either way (0.5 and 1.0 cycles an instruction), and there the
// plain scaling takes a fraction of the instructions, for the same bits.
#pragma once

namespace ridge::runtime {

// Times chains of scalar multiplications with normal and with subnormal results on first use
// (about 20 microseconds without assists; Zen 5 took 1.09 times as long for the subnormal ones).
bool subnormals_at_full_speed();

// The decision from the best timings of each: subnormal results at most twice as slow (an assist
// costs tens of times an instruction's slot, so noise cannot blur the two).
bool subnormals_at_full_speed(double normal_seconds, double subnormal_seconds);

}  // namespace ridge::runtime

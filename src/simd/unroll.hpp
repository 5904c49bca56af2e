// Full unrolling of register-tile loops in the code written over the vector traits, so that each
// accumulator of a tile stays a register.
#pragma once

#define RIDGE_UNROLL _Pragma("GCC unroll 32")

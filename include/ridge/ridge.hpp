// ridge's C++ API: everything public in one include.
#pragma once

#include "ridge/attention.hpp"
#include "ridge/gemm.hpp"
#include "ridge/gemv.hpp"
#include "ridge/isa.hpp"
#include "ridge/machine.hpp"

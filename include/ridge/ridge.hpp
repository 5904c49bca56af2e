// ridge's C++ API: every public header in one include.
#pragma once

#include "ridge/attention.hpp"
#include "ridge/bf16.hpp"
#include "ridge/gemm.hpp"
#include "ridge/gemv.hpp"
#include "ridge/isa.hpp"
#include "ridge/machine.hpp"
#include "ridge/probe.hpp"
#include "ridge/ridge.h"
#include "ridge/tuning.hpp"
#include "ridge/version.h"

// ridge's version, thread count and ISA path as C functions, over the C++ API.
#include <cstring>
#include <initializer_list>

#include "ridge/isa.hpp"
#include "ridge/ridge.h"

extern "C" {

const char* ridge_version(void) { return RIDGE_VERSION_STRING; }

void ridge_set_num_threads(int threads) { ridge::set_num_threads(threads); }

int ridge_get_num_threads(void) { return ridge::num_threads(); }

int ridge_set_isa(const char* name) {
  if (name == nullptr) return RIDGE_ERROR_NULL_POINTER;
  for (ridge::Isa isa : {ridge::Isa::generic, ridge::Isa::avx2, ridge::Isa::avx512}) {
    if (std::strcmp(name, ridge::isa_name(isa)) != 0) continue;
    if (!ridge::isa_supported(isa)) return RIDGE_ERROR_UNSUPPORTED_ISA;
    ridge::set_isa(isa);
    return 0;
  }
  return RIDGE_ERROR_UNKNOWN_ISA;
}

const char* ridge_get_isa(void) { return ridge::isa_name(ridge::active_isa()); }

}  // extern "C"

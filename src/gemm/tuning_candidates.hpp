// The values `ridge tune` tries for each GemmTuning field, one field at a time from the model's
// choices; the tests run GEMM under every one of them on every ISA path.
#pragma once

#include <cstdint>
#include <vector>

#include "ridge/tuning.hpp"

namespace ridge::gemm_detail {

struct TuningField {
  const char* name;
  std::vector<std::int64_t> candidates;  // nonzero values; 0, the model's, is always tried
  void (*set)(GemmTuning&, std::int64_t);
};

inline const std::vector<TuningField>& tuning_fields() {
  static const std::vector<TuningField> fields = {
      {"b_l1_ways",  // 16: all but one way of any L1 up to 16-way
       {2, 6, 16},
       [](GemmTuning& t, std::int64_t v) { t.b_l1_ways = static_cast<int>(v); }},
      {"a_level", {2, 3}, [](GemmTuning& t, std::int64_t v) { t.a_level = static_cast<int>(v); }},
      {"slab_depth", {256, 512, 1024}, [](GemmTuning& t, std::int64_t v) { t.slab_depth = v; }},
      {"skinny_depth",
       {16, 32, 64, 128, 512},
       [](GemmTuning& t, std::int64_t v) { t.skinny_depth = v; }},
      {"tall_a_path",
       {1, 2},
       [](GemmTuning& t, std::int64_t v) { t.tall_a_path = static_cast<int>(v); }},
      {"stream_prefetch",
       {1, 2},
       [](GemmTuning& t, std::int64_t v) { t.stream_prefetch = static_cast<int>(v); }},
  };
  return fields;
}

}  // namespace ridge::gemm_detail

// The values `ridge tune` tries for each GemmTuning field, one step at a time from the model's
// choices; the tests run GEMM under every one of them on every ISA path.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "ridge/tuning.hpp"

namespace ridge::gemm_detail {

struct TuningField {
  const char* name;
  std::vector<std::int64_t> candidates;  // nonzero values; 0, the model's, is always tried
  void (*set)(GemmTuning&, std::int64_t);
};

template <auto Field>
void set_field(GemmTuning& t, std::int64_t v) {
  t.*Field = static_cast<std::remove_reference_t<decltype(t.*Field)>>(v);
}

// The element types a step's fields steer, which `ridge tune` times it on: the float GEMMs (f32
// and f64), or the dot products' tiles of one type (GemmTuning::bf16_a_level, int8_a_level), on
// bf16 or u8s8.
enum class TunedTypes { floats, bf16, int8 };

// One step of `ridge tune`: its fields' candidates timed in every combination, on `types`.
struct TuningStep {
  std::vector<TuningField> fields;
  TunedTypes types = TunedTypes::floats;
};

// Where the packed path keeps its A block sets what B's share of L1 can be (the model gives B all
// but one way with A in L3, a third with A in L2), so the two are one step: on Zen 5 A in L2
// gained with B in 6 to 11 of the L1's 12 ways and not in the model's 4
// (docs/notes/blocks-per-host-2026-12-06.md). Each element type of the dot products' tiles has its
// own such step, timed on that type alone: there A in L2 gained bf16 1-6% at large squares but
// cost int8 up to 30% at 32 rows.
inline const std::vector<TuningStep>& tuning_steps() {
  static const std::vector<TuningStep> steps = {
      {{{"a_level", {2, 3}, set_field<&GemmTuning::a_level>},
        {"b_l1_ways", {2, 6, 8, 16}, set_field<&GemmTuning::b_l1_ways>}}},  // 16: all but one
      {{{"bf16_a_level", {2, 3}, set_field<&GemmTuning::bf16_a_level>},
        {"bf16_b_l1_ways", {6, 8, 16}, set_field<&GemmTuning::bf16_b_l1_ways>}},
       TunedTypes::bf16},
      {{{"int8_a_level", {2, 3}, set_field<&GemmTuning::int8_a_level>},
        {"int8_b_l1_ways", {6, 8, 16}, set_field<&GemmTuning::int8_b_l1_ways>}},
       TunedTypes::int8},
      {{{"slab_depth", {256, 512, 1024}, set_field<&GemmTuning::slab_depth>}}},
      {{{"skinny_depth", {16, 32, 64, 128, 512}, set_field<&GemmTuning::skinny_depth>}}},
      {{{"tall_a_path", {1, 2}, set_field<&GemmTuning::tall_a_path>}}},
      {{{"stream_prefetch", {1, 2}, set_field<&GemmTuning::stream_prefetch>}}},
  };
  return steps;
}

}  // namespace ridge::gemm_detail

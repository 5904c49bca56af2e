// `ridge tune`: times the GEMM choices the cache model leaves open (ridge/tuning.hpp) on this
// machine, for the active ISA path, and saves the winners in the per-machine file beside the
// probe's figures, where every later process finds them.
//
// One step at a time, in the order of tuning_steps(), each from the winners so far: every
// combination of the step's candidates and the model's choice run alternately (in reverse order
// every other round) on the shapes of the standard sweep that its fields steer, f32 and f64 (bf16
// or u8s8 for the dot products' tiles of that type, where it runs on such tiles), on one thread and
// on all. A candidate replaces the model's choice only when the geometric mean of its rates over
// the model's beats 1 + kMargin: a quick measurement can be a third off in a noise burst, and a
// choice that wins by less is not worth a file's worth of difference between two machines of one
// kind.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_common.hpp"
#include "commands.hpp"
#include "gemm/dispatch.hpp"
#include "gemm/tuning_candidates.hpp"
#include "machine/measured_file.hpp"
#include "ridge/ridge.h"
#include "ridge/ridge.hpp"
#include "timing.hpp"

namespace ridge::cli {
namespace {

constexpr double kMargin = 0.03;

struct Shape {
  std::int64_t m, n, k;
};

// Shapes each float field steers (row-major NN, most from ridge bench gemm's defaults).
std::vector<Shape> shapes_for(const std::string& field) {
  if (field == "b_l1_ways") return {{1000, 1000, 1000}, {1536, 1536, 1536}};
  if (field == "a_level") return {{1536, 1536, 1536}};
  if (field == "slab_depth") return {{128, 4096, 4096}, {512, 512, 512}};
  if (field == "skinny_depth") return {{8, 4096, 4096}, {16, 4096, 4096}};
  if (field == "stream_prefetch") return {{1, 4096, 4096}, {4096, 1, 4096}};  // GEMV both ways
  return {{128, 4096, 4096}, {32, 4096, 4096}};  // tall_a_path
}

// The shapes of a step: its fields' shapes, each once. The dot products' tiles of either type:
// squares where A, B and C outgrow L3, and 32 rows of x against a 4096 x 4096 W (on Zen 5 their A
// in L2 ran bf16 at 4096^3 0.98-1.08x on 2 threads and 1.02-1.04x on 1, but u8s8 and s8s8 at 32
// rows 0.70-0.93x).
std::vector<Shape> shapes_for(const gemm_detail::TuningStep& step) {
  if (step.types != gemm_detail::TunedTypes::floats)
    return {{2048, 2048, 2048}, {3072, 3072, 3072}, {32, 4096, 4096}};
  std::vector<Shape> shapes;
  for (const gemm_detail::TuningField& field : step.fields)
    for (const Shape& s : shapes_for(field.name))
      if (std::none_of(shapes.begin(), shapes.end(),
                       [&](const Shape& t) { return t.m == s.m && t.n == s.n && t.k == s.k; }))
        shapes.push_back(s);
  return shapes;
}

// One setting a step tries: the tuning so far with some of the step's fields set.
struct Setting {
  std::string label;  // "model" or the fields set, "a_level 2, b_l1_ways 8"
  GemmTuning tuning;
};

// The model's setting first, then every combination of the step's candidates (each field at its
// model's choice or one of its candidates), on `base`.
std::vector<Setting> settings_of(const gemm_detail::TuningStep& step, const GemmTuning& base) {
  std::vector<Setting> settings = {{"model", base}};
  for (const gemm_detail::TuningField& field : step.fields) {
    const std::size_t before = settings.size();
    for (std::int64_t value : field.candidates)
      for (std::size_t i = 0; i < before; ++i) {
        Setting s = settings[i];
        field.set(s.tuning, value);
        s.label = (i == 0 ? "" : s.label + ", ") + field.name + " " + std::to_string(value);
        settings.push_back(s);
      }
  }
  return settings;
}

struct TuneOptions {
  bool quick = false;
};

// Operands of one shape and type, filled once: float, double, bf16 (C in float), or uint8 A
// against int8 B (C in int32, the C API's u8s8 product).
template <class T>
struct Operands {
  static constexpr bool kInt8 = std::is_same_v<T, std::uint8_t>;
  using B = std::conditional_t<kInt8, std::int8_t, T>;
  using Out = std::conditional_t<kInt8, std::int32_t,
                                 std::conditional_t<std::is_same_v<T, bf16>, float, T>>;
  Shape s;
  std::vector<T> a;
  std::vector<B> b;
  std::vector<Out> c;
  explicit Operands(Shape shape, std::mt19937& rng)
      : s(shape), a(shape.m * shape.k), b(shape.k * shape.n), c(shape.m * shape.n) {
    fill_random(a, rng);
    fill_random(b, rng);
  }
  void run() {
    if constexpr (kInt8) {
      const std::int32_t no_offset = 0;
      ridge_gemm_u8s8s32('N', 'N', 'F', s.m, s.n, s.k, 1.0f, a.data(), s.k, 0, b.data(), s.n, 0,
                         0.0f, c.data(), s.n, &no_offset);
    } else {
      gemm(Out(1), row_major<const T>(a.data(), s.m, s.k), row_major<const B>(b.data(), s.k, s.n),
           Out(0), row_major<Out>(c.data(), s.m, s.n));
    }
  }
};

// log(rate of each setting / rate of settings[0]) for one shape, type and thread count.
template <class T>
std::vector<double> log_ratios(Isa isa, const std::vector<Setting>& settings, Shape shape,
                               int rounds) {
  std::mt19937 rng(7);
  Operands<T> operands(shape, rng);
  std::vector<Contender> contenders;
  for (const Setting& setting : settings)
    contenders.push_back({setting.label,
                          [isa, t = setting.tuning, &operands] {
                            set_gemm_tuning(isa, t);
                            operands.run();
                          },
                          {}});
  time_alternately(contenders, 2.0 * shape.m * shape.n * shape.k, rounds, true);
  std::vector<double> logs;
  const double model = summarize(contenders[0].rates).median;
  for (const Contender& c : contenders) logs.push_back(std::log(summarize(c.rates).median / model));
  return logs;
}

// The element types a step is timed on (`floats` for the float tiles'): bf16 or u8s8 for the
// dot products' tiles of that type, where it runs on such tiles on `isa` (VDPBF16PS, VPDPBUSD,
// VPMADDWD), none where it is widened to float or on tile registers (AMX).
std::vector<std::string> timed_types(Isa isa, gemm_detail::TunedTypes types,
                                     const std::vector<std::string>& floats) {
  const auto on_dot_tiles = [](const auto& kernels) {
    return kernels.depth_group > 1 && kernels.step_multiple == 1;
  };
  switch (types) {
    case gemm_detail::TunedTypes::bf16:
      if (on_dot_tiles(gemm_detail::gemm_kernels<float, std::uint16_t, std::uint16_t>(isa).kernels))
        return {"bf16"};
      return {};
    case gemm_detail::TunedTypes::int8:
      if (on_dot_tiles(
              gemm_detail::gemm_kernels<std::int32_t, std::int8_t, std::uint8_t>(isa).kernels))
        return {"u8s8"};
      return {};
    default:
      return floats;
  }
}

GemmTuning tune(Isa isa, const TuneOptions& o) {
  const int rounds = 5;
  const int cpus = Machine::current().logical_cpus;
  std::vector<int> thread_counts = {cpus};
  if (!o.quick && cpus > 1) thread_counts.insert(thread_counts.begin(), 1);
  const std::vector<std::string> types =
      o.quick ? std::vector<std::string>{"f32"} : std::vector<std::string>{"f32", "f64"};

  GemmTuning best;
  std::printf("%s\n", "step: each setting's rate over the model's (geometric mean)");
  for (const gemm_detail::TuningStep& step : gemm_detail::tuning_steps()) {
    const std::vector<std::string> step_types = timed_types(isa, step.types, types);
    if (step_types.empty()) {
      std::printf("%s: no dot-product tiles for its type on this path, the model's\n",
                  step.fields[0].name);
      continue;
    }
    const std::vector<Setting> settings = settings_of(step, best);
    std::vector<double> sum(settings.size(), 0.0);
    int samples = 0;
    for (int threads : thread_counts) {
      set_num_threads(threads);
      for (const std::string& type : step_types)
        for (const Shape& shape : shapes_for(step)) {
          const std::vector<double> logs =
              type == "f32"    ? log_ratios<float>(isa, settings, shape, rounds)
              : type == "bf16" ? log_ratios<bf16>(isa, settings, shape, rounds)
              : type == "u8s8" ? log_ratios<std::uint8_t>(isa, settings, shape, rounds)
                               : log_ratios<double>(isa, settings, shape, rounds);
          for (std::size_t i = 0; i < settings.size(); ++i) sum[i] += logs[i];
          ++samples;
        }
    }
    std::size_t winner = 0;
    for (std::size_t i = 0; i < settings.size(); ++i) {
      const double score = std::exp(sum[i] / samples);
      std::printf("  %s %.3f\n", settings[i].label.c_str(), score);
      if (score > 1 + kMargin && score > std::exp(sum[winner] / samples)) winner = i;
    }
    best = settings[winner].tuning;
    std::printf("-> %s\n", settings[winner].label.c_str());
    std::fflush(stdout);
  }
  set_num_threads(0);
  set_gemm_tuning(isa, best);
  return best;
}

std::string utc_stamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32] = {};
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return stamp;
}

// The per-machine file with `isa`'s tuning replaced, the probe's figures kept.
std::string save(Isa isa, const GemmTuning& tuning, bool quick) {
  const Machine& machine = Machine::current();
  const std::string path = measured_machine_path(machine);
  const std::string identity = machine::cpu_identity(machine);
  machine::MeasuredValues values = machine::read_measured_file(path, identity).values;
  const std::string prefix = machine::tuning_key(isa_name(isa), "");
  std::erase_if(values, [&](const auto& entry) { return entry.first.rfind(prefix, 0) == 0; });
  machine::put_tuning(values, isa_name(isa), tuning);
  const std::string comment = std::string("ridge tune") + (quick ? " --quick" : "") + " (" +
                              isa_name(isa) + "), " + utc_stamp() + "; probe figures from " +
                              (machine.measured_source.empty() ? "none" : "the probe's save");
  if (!machine::write_measured_file(path, values, comment, identity))
    throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace

void add_tune_command(CLI::App& app) {
  CLI::App* cmd =
      app.add_subcommand("tune",
                         "Time the GEMM choices the cache model leaves open and save the winners "
                         "(the active ISA path; RIDGE_ISA picks another)");
  static TuneOptions o;
  cmd->add_flag("--quick", o.quick,
                "f32 (bf16 and u8s8 for the dot products' tiles) on all threads only");
  cmd->callback([] {
    const Isa isa = active_isa();
    const double start = now_seconds();
    if (Machine::current().measured_source.empty())
      std::fprintf(
          stderr,
          "ridge tune: no probe figures for this machine; the model's choices are the "
          "unmeasured ones (`ridge probe --save` first, then tune again, to tune those)\n");
    std::printf("ridge tune: %s path, %s\n", isa_name(isa), Machine::current().model_name.c_str());
    const GemmTuning best = tune(isa, o);
    std::printf("chosen: %s\n", tuning_text(best).c_str());
    std::printf("saved to %s (%.0f s)\n", save(isa, best, o.quick).c_str(), now_seconds() - start);
  });
}

}  // namespace ridge::cli

// `ridge tune`: times the GEMM choices the cache model leaves open (ridge/tuning.hpp) on this
// machine, for the active ISA path, and saves the winners in the per-machine file beside the
// probe's figures, where every later process finds them.
//
// One field at a time, in the order of tuning_fields(), each from the winners so far: every
// candidate and the model's choice run alternately (in reverse order every other round) on the
// shapes of the standard sweep that the field steers, f32 and f64, on one thread and on all. A
// candidate replaces the model's choice only when the geometric mean of its rates over the
// model's beats 1 + kMargin: a quick measurement can be a third off in a noise burst, and a
// choice that wins by less is not worth a file's worth of difference between two machines of
// one kind.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "commands.hpp"
#include "gemm/tuning_candidates.hpp"
#include "machine/measured_file.hpp"
#include "ridge/ridge.hpp"
#include "timing.hpp"

namespace ridge::cli {
namespace {

constexpr double kMargin = 0.03;

struct Shape {
  std::int64_t m, n, k;
};

// Shapes each field steers (row-major NN, most from ridge bench gemm's defaults).
std::vector<Shape> shapes_for(const std::string& field) {
  if (field == "b_l1_ways") return {{1000, 1000, 1000}, {1536, 1536, 1536}};
  if (field == "a_level") return {{1536, 1536, 1536}};
  if (field == "slab_depth") return {{128, 4096, 4096}, {512, 512, 512}};
  if (field == "skinny_depth") return {{8, 4096, 4096}, {16, 4096, 4096}};
  if (field == "stream_prefetch") return {{1, 4096, 4096}, {4096, 1, 4096}};  // GEMV both ways
  return {{128, 4096, 4096}, {32, 4096, 4096}};  // tall_a_path
}

struct TuneOptions {
  bool quick = false;
};

// Operands of one shape and type, filled once.
template <class T>
struct Operands {
  Shape s;
  std::vector<T> a, b, c;
  explicit Operands(Shape shape, std::mt19937& rng)
      : s(shape), a(shape.m * shape.k), b(shape.k * shape.n), c(shape.m * shape.n) {
    fill_random(a, rng);
    fill_random(b, rng);
  }
  void run() {
    gemm(T(1), row_major<const T>(a.data(), s.m, s.k), row_major<const T>(b.data(), s.k, s.n), T(0),
         row_major<T>(c.data(), s.m, s.n));
  }
};

// log(rate of each candidate / rate of candidates[0]) for one shape, type and thread count.
template <class T>
std::vector<double> log_ratios(Isa isa, const GemmTuning& base,
                               const gemm_detail::TuningField& field,
                               const std::vector<std::int64_t>& values, Shape shape, int rounds) {
  std::mt19937 rng(7);
  Operands<T> operands(shape, rng);
  std::vector<Contender> contenders;
  for (std::int64_t v : values) {
    GemmTuning t = base;
    field.set(t, v);
    contenders.push_back({std::to_string(v),
                          [isa, t, &operands] {
                            set_gemm_tuning(isa, t);
                            operands.run();
                          },
                          {}});
  }
  time_alternately(contenders, 2.0 * shape.m * shape.n * shape.k, rounds, true);
  std::vector<double> logs;
  const double model = summarize(contenders[0].rates).median;
  for (const Contender& c : contenders) logs.push_back(std::log(summarize(c.rates).median / model));
  return logs;
}

GemmTuning tune(Isa isa, const TuneOptions& o) {
  const int rounds = 5;
  const int cpus = Machine::current().logical_cpus;
  std::vector<int> thread_counts = {cpus};
  if (!o.quick && cpus > 1) thread_counts.insert(thread_counts.begin(), 1);
  const std::vector<std::string> types =
      o.quick ? std::vector<std::string>{"f32"} : std::vector<std::string>{"f32", "f64"};

  GemmTuning best;
  std::printf("%-15s %s\n", "field", "candidate: rate over the model's (geometric mean)");
  for (const gemm_detail::TuningField& field : gemm_detail::tuning_fields()) {
    std::vector<std::int64_t> values = {0};
    values.insert(values.end(), field.candidates.begin(), field.candidates.end());
    std::vector<double> sum(values.size(), 0.0);
    int samples = 0;
    for (int threads : thread_counts) {
      set_num_threads(threads);
      for (const std::string& type : types)
        for (const Shape& shape : shapes_for(field.name)) {
          const std::vector<double> logs =
              type == "f32" ? log_ratios<float>(isa, best, field, values, shape, rounds)
                            : log_ratios<double>(isa, best, field, values, shape, rounds);
          for (std::size_t i = 0; i < values.size(); ++i) sum[i] += logs[i];
          ++samples;
        }
    }
    std::size_t winner = 0;
    std::printf("%-15s", field.name);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double score = std::exp(sum[i] / samples);
      std::printf("  %s %.3f", i == 0 ? "model" : std::to_string(values[i]).c_str(), score);
      if (score > 1 + kMargin && score > std::exp(sum[winner] / samples)) winner = i;
    }
    field.set(best, values[winner]);
    std::printf("  -> %s\n", winner == 0 ? "model" : std::to_string(values[winner]).c_str());
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
  cmd->add_flag("--quick", o.quick, "f32 on all threads only (under 30 s)");
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

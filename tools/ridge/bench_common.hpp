// What the `ridge bench` commands share: thread and peer set-up, shape lists, random operands,
// ridge and the peers timed alternately in one run, and the columns comparing them.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "peer_library.hpp"
#include "ridge/bf16.hpp"
#include "ridge/probe.hpp"

namespace ridge::cli {

// The options every bench command takes: --threads, and --runs (median reported).
void add_threads_and_runs(CLI::App& cmd, int& threads, int& runs);
// Which peers to load, and which kernels every contender may use.
struct PeerOptions {
  std::vector<std::string> specs;  // --vs: openblas, blis, onednn or a path, each with an
                                   // optional ":KERNELS" (PeerLibrary::load)
  std::string isa_cap;             // --isa-cap: "avx2" holds ridge and every peer to AVX2
};
// --vs (repeatable) and --isa-cap.
void add_peer_libraries(CLI::App& cmd, PeerOptions& peers);
// --dtype f32 or f64, for the BLAS benches; with_dtype runs f.template operator()<T>() on the
// type it names.
void add_blas_dtype(CLI::App& cmd, std::string& dtype);
template <class F>
void with_dtype(const std::string& dtype, F&& f) {
  if (dtype == "f32") {
    f.template operator()<float>();
  } else {
    f.template operator()<double>();
  }
}

// Sets ridge's thread count (`threads` <= 0: all CPUs, written back) and ISA cap, loads the
// peers with the same count and cap, prints the kernels each peer chose, and pins this thread to
// the first CPU when it runs alone. Throws std::runtime_error when this CPU lacks the cap's ISA.
std::vector<std::unique_ptr<PeerLibrary>> set_up_threads_and_peers(int& threads,
                                                                   const PeerOptions& options);

// A comma-separated list of shapes, each shaped like `pattern` ("MxNxK": three sizes joined by
// 'x'). Throws std::invalid_argument naming the first bad one.
std::vector<std::vector<std::int64_t>> parse_shapes(const std::string& text,
                                                    const std::string& pattern);

// Uniform in [-1, 1] (bf16: rounded from float), or over every value of an 8-bit integer.
template <class T>
void fill_random(std::vector<T>& v, std::mt19937& rng) {
  if constexpr (std::is_same_v<T, bf16>) {
    std::uniform_real_distribution<float> dist(-1, 1);
    for (T& x : v) x = to_bf16(dist(rng));
  } else if constexpr (std::is_integral_v<T>) {
    static_assert(sizeof(T) == 1);
    std::uniform_int_distribution<int> dist(-128, 127);
    for (T& x : v) x = static_cast<T>(dist(rng));
  } else {
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (T& x : v) x = static_cast<T>(dist(rng));
  }
}

// The DRAM read bandwidth on `threads` threads, measured now by the probe's read kernel: what a
// kernel that streams its operand once from memory (GEMV, decoding attention) is held against.
probe::Figure dram_read_bandwidth(int threads);

// One contender: a name and a function that runs the kernel once (null: the library lacks it).
struct Contender {
  std::string name;
  std::function<void()> call;
  std::vector<double> rates;  // one per timed run: `work` per call x calls / seconds x 1e-9
};

// Warms up each contender, then times it `runs` times, every contender once per round, so that
// ridge and the peers meet the same machine noise; `work` (FLOP, bytes) per call makes the rates.
// reverse_odd_rounds: every other round runs the contenders in reverse order, so that none is
// always the one after the pause between rounds.
void time_alternately(std::vector<Contender>& contenders, double work, int runs,
                      bool reverse_odd_rounds = false);

// The peer columns of a bench table: their heading, each row's medians, spreads and ridge's
// ratios, and at the end the geometric mean of each peer's ratios over the rows it ran.
class PeerColumns {
 public:
  // `more_peers`: columns after the libraries' for their other calls (oneDNN's matmul
  // primitive), peers as the libraries are; `variants`: columns after those for other ways of
  // running ridge (not peers either). A column is as wide as its name, at least 9.
  explicit PeerColumns(const std::vector<std::unique_ptr<PeerLibrary>>& peers,
                       const std::vector<std::string>& more_peers = {},
                       const std::vector<std::string>& variants = {});
  void print_heading() const;
  // contenders[0] is ridge, the rest the columns in order ("-" for one without the kernel).
  // Returns the best peer's median rate (other ridge builds are no peers), 0 when none ran.
  double print_row(const std::vector<Contender>& contenders);
  // "vs best" for the row: nothing when no peer ran.
  void print_vs_best(double mine, double best_peer);
  // The geometric means line; nothing without peers or rows.
  void print_means() const;

 private:
  struct LogRatios {
    double sum = 0;
    int count = 0;
  };
  std::vector<std::string> names_;
  std::vector<bool> is_ridge_;
  std::vector<LogRatios> per_peer_;
  LogRatios vs_best_;
  int rows_ = 0;
};

}  // namespace ridge::cli

// `ridge bench gemm`: GFLOP/s of ridge's GEMM over a shape sweep, as a fraction of the measured
// FMA peak, alternating each timed run with the peer libraries named by --vs.
#include <chrono>
#include <cmath>
#include <thread>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "peer_library.hpp"
#include "ridge/ridge.hpp"
#include "ridge/probe.hpp"
#include "timing.hpp"

namespace ridge::cli {
namespace {

struct Shape {
  std::int64_t m, n, k;
};

// The sweep of the GEMM issue: squares, LLM decoding (M = 1..32 against 4096 x 4096), an MLP
// projection, a short-K update and two awkward sizes.
const std::vector<Shape> kDefaultShapes = {
    {16, 16, 16},     {32, 32, 32},     {64, 64, 64},       {128, 128, 128},    {256, 256, 256},
    {512, 512, 512},  {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096},
    {1, 4096, 4096},  {8, 4096, 4096},  {32, 4096, 4096},   {128, 4096, 4096},  {512, 4096, 11008},
    {4096, 4096, 128}, {1000, 1000, 1000}, {1023, 1025, 1027}};

std::vector<Shape> parse_shapes(const std::string& text) {
  std::vector<Shape> shapes;
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    Shape s{};
    char x1 = 0, x2 = 0;
    std::stringstream one(item);
    if (!(one >> s.m >> x1 >> s.n >> x2 >> s.k) || x1 != 'x' || x2 != 'x' || s.m < 0 || s.n < 0 ||
        s.k < 0)
      throw std::invalid_argument("bad shape '" + item + "' (expected MxNxK)");
    shapes.push_back(s);
  }
  return shapes;
}

struct Options {
  std::string shapes;
  std::string dtype = "f32";
  std::string op = "nn";  // op(A), op(B): n or t each
  int threads = 0;
  int runs = 7;
  std::vector<std::string> peers;
};

// One contender: a name and a function that runs the GEMM once.
struct Contender {
  std::string name;
  std::function<void()> call;
  std::vector<double> gflops;
};

template <class T>
void fill_random(std::vector<T>& v, std::mt19937& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (T& x : v) x = static_cast<T>(dist(rng));
}

// Lets the previous contender's idle threads stop spinning before the next one is timed: an
// OpenMP runtime (BLIS, oneDNN) and ridge's pool both busy-wait briefly after a call, and a
// spinning thread of one library would otherwise steal a core from the other (measured: ridge
// 1024^3 on 2 threads, 141 GFLOP/s right after oneDNN calls, 212 alone).
void quiesce() { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

// Times `repeats` calls of `call` after one untimed call (which wakes the library's threads
// after quiesce()), returns GFLOP/s.
double time_sample(const std::function<void()>& call, double flop, int repeats) {
  call();
  const double start = now_seconds();
  for (int r = 0; r < repeats; ++r) call();
  return flop * repeats / (now_seconds() - start) * 1e-9;
}

template <class T>
void bench(const Options& o, const std::vector<std::unique_ptr<PeerLibrary>>& peers) {
  const bool f32 = sizeof(T) == 4;
  const std::vector<Shape> shapes = o.shapes.empty() ? kDefaultShapes : parse_shapes(o.shapes);
  const double peak = probe::fma_peak_gflops(f32 ? probe::FmaType::f32 : probe::FmaType::f64,
                                             o.threads, active_isa());
  const bool trans_a = o.op[0] == 't', trans_b = o.op[1] == 't';
  std::printf("ridge bench gemm: %s, row-major %c%c, %d thread%s, isa %s, median of %d runs\n",
              o.dtype.c_str(), trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', o.threads,
              o.threads == 1 ? "" : "s", isa_name(active_isa()), o.runs);
  std::printf("measured %s FMA peak on %d thread%s: %.1f GFLOP/s\n", o.dtype.c_str(), o.threads,
              o.threads == 1 ? "" : "s", peak);
  std::printf("%-18s %9s %7s %6s", "M x N x K", "ridge", "spread", "%peak");
  for (const auto& p : peers) std::printf(" %9s %7s %6s", p->name().c_str(), "spread", "ratio");
  std::printf("\n");

  std::mt19937 rng(42);
  std::vector<double> log_ratio_sum(peers.size(), 0.0);
  double log_best_sum = 0;
  int counted = 0;
  for (const Shape& s : shapes) {
    std::vector<T> a(static_cast<std::size_t>(std::max<std::int64_t>(1, s.m * s.k)));
    std::vector<T> b(static_cast<std::size_t>(std::max<std::int64_t>(1, s.k * s.n)));
    std::vector<T> c(static_cast<std::size_t>(std::max<std::int64_t>(1, s.m * s.n)));
    fill_random(a, rng);
    fill_random(b, rng);
    // Stored row-major: A is m x k (k x m when transposed), B k x n (n x k when transposed).
    const std::int64_t lda = std::max<std::int64_t>(1, trans_a ? s.m : s.k),
                       ldb = std::max<std::int64_t>(1, trans_b ? s.k : s.n),
                       ldc = std::max<std::int64_t>(1, s.n);
    MatrixView<const T> a_view =
        row_major<const T>(a.data(), trans_a ? s.k : s.m, trans_a ? s.m : s.k, lda);
    MatrixView<const T> b_view =
        row_major<const T>(b.data(), trans_b ? s.n : s.k, trans_b ? s.k : s.n, ldb);
    if (trans_a) a_view = a_view.transposed();
    if (trans_b) b_view = b_view.transposed();
    std::vector<Contender> contenders;
    contenders.push_back({"ridge", [&] {
                            gemm(T(1), a_view, b_view, T(0), row_major<T>(c.data(), s.m, s.n, ldc));
                          }, {}});
    for (const auto& p : peers) {
      PeerLibrary* peer = p.get();
      if (f32 ? !peer->has_sgemm() : !peer->has_dgemm()) {
        contenders.push_back({peer->name(), nullptr, {}});
        continue;
      }
      contenders.push_back({peer->name(), [&, peer] {
                              if constexpr (sizeof(T) == 4) {
                                peer->sgemm(trans_a, trans_b, s.m, s.n, s.k, a.data(), lda,
                                            b.data(), ldb, 0.0f, c.data(), ldc);
                              } else {
                                peer->dgemm(trans_a, trans_b, s.m, s.n, s.k, a.data(), lda,
                                            b.data(), ldb, 0.0, c.data(), ldc);
                              }
                            }, {}});
    }
    const double flop = 2.0 * s.m * s.n * s.k;
    // Warm up each contender and size its samples to >= 20 ms, so timer resolution and call
    // overhead do not dominate small shapes. The size comes from the fastest of up to five calls
    // (within 0.1 s): from a single call, one slow call (a thread still waking up, a noise burst)
    // shrank every sample of the shape. Seen at 128^3 on 2 threads: a 1.4 ms first call left
    // samples of 11 calls (0.35 ms), too short for the scheduler to spread two threads that had
    // woken up on one CPU.
    std::vector<int> repeats;
    for (auto& con : contenders) {
      if (!con.call) {
        repeats.push_back(0);
        continue;
      }
      con.call();
      double one = 1e30;
      const double start = now_seconds();
      for (int i = 0; i < 5 && (i == 0 || now_seconds() - start < 0.1); ++i) {
        const double t0 = now_seconds();
        con.call();
        one = std::min(one, now_seconds() - t0);
      }
      repeats.push_back(std::max(1, static_cast<int>(0.02 / std::max(1e-9, one))));
    }
    for (int run = 0; run < o.runs; ++run)
      for (std::size_t i = 0; i < contenders.size(); ++i)
        if (contenders[i].call) {
          quiesce();
          contenders[i].gflops.push_back(
              flop > 0 ? time_sample(contenders[i].call, flop, repeats[i]) : 0.0);
        }

    const Summary mine = summarize(contenders[0].gflops);
    char shape[64];
    std::snprintf(shape, sizeof(shape), "%lldx%lldx%lld", static_cast<long long>(s.m),
                  static_cast<long long>(s.n), static_cast<long long>(s.k));
    std::printf("%-18s %9.1f %6.1f%% %5.1f%%", shape, mine.median, 100 * mine.spread(),
                100 * mine.median / peak);
    double best_peer = 0;
    for (std::size_t i = 1; i < contenders.size(); ++i) {
      if (!contenders[i].call) {
        std::printf(" %9s %7s %6s", "-", "", "");
        continue;
      }
      const Summary theirs = summarize(contenders[i].gflops);
      best_peer = std::max(best_peer, theirs.median);
      const double ratio = theirs.median > 0 ? mine.median / theirs.median : 0;
      if (ratio > 0) log_ratio_sum[i - 1] += std::log(ratio);
      std::printf(" %9.1f %6.1f%% %5.2fx", theirs.median, 100 * theirs.spread(), ratio);
    }
    if (s.m == 1 && mine.median > 0) {
      // M = 1 streams B once: report the bandwidth it reached.
      const double seconds = flop / (mine.median * 1e9);
      std::printf("  B read at %.1f GB/s", static_cast<double>(s.k * s.n * sizeof(T)) / seconds * 1e-9);
    }
    if (best_peer > 0) {
      std::printf("  vs best %.2fx", mine.median / best_peer);
      log_best_sum += std::log(mine.median / best_peer);
    }
    std::printf("\n");
    std::fflush(stdout);
    ++counted;
  }
  if (!peers.empty() && counted > 0) {
    std::printf("geometric mean of ratios:");
    for (std::size_t i = 0; i < peers.size(); ++i)
      std::printf(" vs %s %.3fx;", peers[i]->name().c_str(), std::exp(log_ratio_sum[i] / counted));
    std::printf(" vs best peer per shape %.3fx\n", std::exp(log_best_sum / counted));
  }
}

}  // namespace

void add_bench_gemm_command(CLI::App& bench_app) {
  CLI::App* cmd = bench_app.add_subcommand("gemm", "GEMM GFLOP/s over a shape sweep");
  static Options o;
  cmd->add_option("--shapes", o.shapes, "Comma-separated MxNxK list (default: the issue's sweep)");
  cmd->add_option("--dtype", o.dtype, "f32 or f64")->check(CLI::IsMember({"f32", "f64"}));
  cmd->add_option("--op", o.op, "Transpositions of A and B (row-major storage): nn, nt, tn or tt")
      ->check(CLI::IsMember({"nn", "nt", "tn", "tt"}));
  cmd->add_option("--threads", o.threads, "Threads for ridge and peers (default: all CPUs)");
  cmd->add_option("--runs", o.runs, "Timed runs per contender (median reported)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--vs", o.peers, "Peer library: openblas, blis, onednn or a path (repeatable)");
  cmd->callback([] {
    if (o.threads <= 0) o.threads = num_threads();
    set_num_threads(o.threads);
    std::vector<std::unique_ptr<PeerLibrary>> peers;
    for (const std::string& spec : o.peers) peers.push_back(PeerLibrary::load(spec, o.threads));
    if (o.threads == 1) pin_current_thread(Machine::current().cpu_ids.front());
    if (o.dtype == "f32") {
      bench<float>(o, peers);
    } else {
      bench<double>(o, peers);
    }
  });
}

}  // namespace ridge::cli

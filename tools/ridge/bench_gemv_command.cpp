// `ridge bench gemv`: GB/s of ridge's matrix-vector product over a shape sweep, as a fraction of
// the DRAM read bandwidth measured in the same run, alternating each timed run with the peer
// libraries named by --vs.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "commands.hpp"
#include "peer_library.hpp"
#include "ridge/probe.hpp"
#include "ridge/ridge.hpp"
#include "timing.hpp"

namespace ridge::cli {
namespace {

struct Shape {
  std::int64_t m, n;  // of A as stored (row-major), whether or not op transposes it
};

std::vector<Shape> shapes_from(const std::string& text) {
  std::vector<Shape> shapes;
  for (const auto& e : parse_shapes(text, "MxN")) shapes.push_back({e[0], e[1]});
  return shapes;
}

struct Options {
  // The GEMV issue's bar: a square and a tall A, both beyond the last-level cache.
  std::string shapes = "4096x4096,16384x4096";
  std::string dtype = "f32";
  std::string trans = "both";  // n, t or both
  int threads = 0;
  int runs = 7;
  PeerOptions peers;
};

// One table: every shape with op(A) = A (trans false) or A^T.
template <class T>
void bench_block(const Options& o, const std::vector<Shape>& shapes, bool trans,
                 const probe::Figure& read_bw,
                 const std::vector<std::unique_ptr<PeerLibrary>>& peers) {
  const bool f32 = sizeof(T) == 4;
  std::printf("\nop(A) = %s\n", trans ? "A^T (T)" : "A (N)");
  std::printf("%-14s %9s %7s %8s %6s", "M x N", "ridge", "spread", "GFLOP/s", "%read");
  PeerColumns columns(peers);
  columns.print_heading();
  std::printf("\n");

  std::mt19937 rng(42);
  for (const Shape& s : shapes) {
    // x has op(A)'s columns, y its rows.
    const std::int64_t x_size = trans ? s.m : s.n, y_size = trans ? s.n : s.m;
    std::vector<T> a(static_cast<std::size_t>(std::max<std::int64_t>(1, s.m * s.n)));
    std::vector<T> x(static_cast<std::size_t>(std::max<std::int64_t>(1, x_size)));
    std::vector<T> y(static_cast<std::size_t>(std::max<std::int64_t>(1, y_size)));
    fill_random(a, rng);
    fill_random(x, rng);
    const std::int64_t lda = std::max<std::int64_t>(1, s.n);
    MatrixView<const T> a_view = row_major<const T>(a.data(), s.m, s.n, lda);
    if (trans) a_view = a_view.transposed();
    std::vector<Contender> contenders;
    contenders.push_back({"ridge", [&] {
                            gemv(T(1), a_view, vector<const T>(x.data(), x_size), T(0),
                                 vector(y.data(), y_size));
                          }, {}});
    for (const auto& p : peers) {
      PeerLibrary* peer = p.get();
      if (f32 ? !peer->has_sgemv() : !peer->has_dgemv()) {
        contenders.push_back({peer->name(), nullptr, {}});
        continue;
      }
      contenders.push_back({peer->name(), [&, peer] {
                              if constexpr (sizeof(T) == 4) {
                                peer->sgemv(trans, s.m, s.n, a.data(), lda, x.data(), 0.0f,
                                            y.data());
                              } else {
                                peer->dgemv(trans, s.m, s.n, a.data(), lda, x.data(), 0.0,
                                            y.data());
                              }
                            }, {}});
    }
    const double bytes = static_cast<double>((s.m * s.n + s.m + s.n) * sizeof(T));
    const double flop = 2.0 * s.m * s.n;
    time_alternately(contenders, bytes, o.runs);

    const Summary mine = summarize(contenders[0].rates);
    char shape[64];
    std::snprintf(shape, sizeof(shape), "%lldx%lld", static_cast<long long>(s.m),
                  static_cast<long long>(s.n));
    std::printf("%-14s %9.1f %6.1f%% %8.1f %5.1f%%", shape, mine.median, 100 * mine.spread(),
                bytes > 0 ? mine.median * flop / bytes : 0.0,
                read_bw.median > 0 ? 100 * mine.median / read_bw.median : 0.0);
    columns.print_vs_best(mine.median, columns.print_row(contenders));
    std::printf("\n");
    std::fflush(stdout);
  }
  columns.print_means();
}

template <class T>
void bench(const Options& o, const std::vector<std::unique_ptr<PeerLibrary>>& peers) {
  const std::vector<Shape> shapes = shapes_from(o.shapes);
  const char* plural = o.threads == 1 ? "" : "s";
  std::printf("ridge bench gemv: %s, row-major, %d thread%s, isa %s, alpha = 1, beta = 0, "
              "median of %d runs\n",
              o.dtype.c_str(), o.threads, plural, isa_name(active_isa()), o.runs);
  std::printf("M x N: A as stored; GB/s: A, x and y once per call, (M x N + M + N) x %zu bytes; "
              "GFLOP/s: 2 x M x N\n",
              sizeof(T));
  const probe::Figure read_bw = dram_read_bandwidth(o.threads);
  std::printf("measured DRAM read bandwidth on %d thread%s: %.1f GB/s (spread %.1f%%)\n",
              o.threads, plural, read_bw.median, 100 * read_bw.spread);
  std::fflush(stdout);
  if (o.trans != "t") bench_block<T>(o, shapes, false, read_bw, peers);
  if (o.trans != "n") bench_block<T>(o, shapes, true, read_bw, peers);
}

}  // namespace

void add_bench_gemv_command(CLI::App& bench_app) {
  CLI::App* cmd = bench_app.add_subcommand("gemv", "GEMV GB/s against the DRAM read bandwidth");
  static Options o;
  cmd->add_option("--shapes", o.shapes, "Comma-separated MxN list, A as stored")
      ->capture_default_str();
  add_blas_dtype(*cmd, o.dtype);
  cmd->add_option("--trans", o.trans, "op(A): n (A), t (A^T) or both (one table each)")
      ->check(CLI::IsMember({"n", "t", "both"}));
  add_threads_and_runs(*cmd, o.threads, o.runs);
  add_peer_libraries(*cmd, o.peers);
  cmd->callback([] {
    const std::vector<std::unique_ptr<PeerLibrary>> peers =
        set_up_threads_and_peers(o.threads, o.peers);
    with_dtype(o.dtype, [&]<class T>() { bench<T>(o, peers); });
  });
}

}  // namespace ridge::cli
